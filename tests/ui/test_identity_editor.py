"""The identity (L0) editor: live counter, the limit, preview, conflicts, undo from the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from memdesk.core import SYSTEM
from memdesk.ui.dialogs.identity_editor import AMBER, RED, IdentityEditor
from tests.ui.window_helpers import open_window, settle


def test_counter_turns_amber_near_and_red_over_the_limit(qtbot, service):
    service.set_identity("I am Ana.")
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    assert "9 / 1,000" in editor.counter.text()
    assert AMBER not in editor.counter.text()
    editor.text.setPlainText("x" * 950)
    assert "950 / 1,000" in editor.counter.text()
    assert AMBER in editor.counter.text()
    assert editor.save_button.isEnabled()
    editor.text.setPlainText("x" * 1034)
    assert RED in editor.counter.text()
    assert not editor.save_button.isEnabled()
    assert "cut 34 characters" in editor.message.text()


def test_typing_updates_counter_and_markdown_preview(qtbot, service):
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    qtbot.keyClicks(editor.text, "I am Ana")
    assert "8 / 1,000" in editor.counter.text()
    editor.text.setPlainText("# Ana\n- **short** answers")
    assert "25 / 1,000" in editor.counter.text()
    assert "short answers" in editor.preview.toPlainText()
    assert "**" not in editor.preview.toPlainText()


def test_save_writes_the_profile(qtbot, service):
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    editor.text.setPlainText("I am Ana. Python, short answers.")
    editor.save_button.click()
    assert editor.result() == QDialog.DialogCode.Accepted
    assert service.identity()["text"] == "I am Ana. Python, short answers."


def test_the_editor_stats_and_agents_count_the_profile_alike(qtbot, service):
    for entry in ("I am Ana.", "I prefer short answers.", "Never push to main."):
        service.add(entry, layer="L0", dedup=False)
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    shown = service.identity()["size"]
    assert f"{shown:,} / 1,000" in editor.counter.text()
    assert service.stats()["identity"]["size"] == shown
    editor.text.setPlainText(editor.text.toPlainText() + "\n" + "x" * (1000 - shown - 1))
    assert "1,000 / 1,000" in editor.counter.text()
    editor.save_button.click()
    assert service.identity()["size"] == 1000


def test_a_change_made_elsewhere_while_open_asks_and_can_take_theirs(qtbot, service, monkeypatch):
    service.set_identity("I am Ana.")
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    editor.text.setPlainText("I am Ana, mine.")
    entry = service.identity()["ids"][0]
    service.update(entry, content="I am Ana, theirs.", actor=SYSTEM)
    monkeypatch.setattr(editor, "ask_conflict", lambda: "take")
    editor.save_button.click()
    assert editor.result() != QDialog.DialogCode.Accepted
    assert editor.text.toPlainText() == "I am Ana, theirs."
    assert service.identity()["text"] == "I am Ana, theirs."


def test_a_change_made_elsewhere_while_open_keep_mine_saves_mine(qtbot, service, monkeypatch):
    service.set_identity("I am Ana.")
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    editor.text.setPlainText("I am Ana, mine.")
    service.update(service.identity()["ids"][0], content="Theirs.", actor=SYSTEM)
    monkeypatch.setattr(editor, "ask_conflict", lambda: "keep")
    editor.save_button.click()
    assert service.identity()["text"] == "I am Ana, mine."


def _saving_from_the_window(qtbot, service, tmp_path, monkeypatch, words: str):
    """The window, its Edit Identity saving `words` each time it is opened."""
    window = open_window(qtbot, service, tmp_path / "s.ini")

    def fake_exec(editor):
        editor.text.setPlainText(words)
        editor.save_button.click()
        return editor.result()

    monkeypatch.setattr(IdentityEditor, "exec", fake_exec)
    return window


def test_identity_save_from_window_is_undoable(qtbot, service, tmp_path, monkeypatch):
    service.set_identity("Before.")
    window = _saving_from_the_window(qtbot, service, tmp_path, monkeypatch, "After.")
    window.menus.identity.trigger()
    assert service.identity()["text"] == "After."
    assert window.menus.undo.text() == "Undo Edit identity"
    window.undo_stack.undo()
    settle(window)
    assert service.identity()["text"] == "Before."


def test_ctrl_enter_saves_from_the_text(qtbot, service):
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    editor.show()
    qtbot.waitExposed(editor)
    editor.text.setFocus()
    editor.text.setPlainText("I am Ana.")
    qtbot.keyClick(editor.text, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert editor.result() == QDialog.DialogCode.Accepted
    assert service.identity()["text"] == "I am Ana."


def test_a_typed_line_is_an_entry_of_its_own_and_previews_as_a_line(qtbot, service):
    """#31 item 11: a fourth line typed joined the third entry, and the preview ran the lines
    together as one paragraph."""
    for entry in ("I am Ana.", "I prefer short answers.", "Never push to main."):
        service.add(entry, layer="L0", dedup=False)
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    editor.text.moveCursor(editor.text.textCursor().MoveOperation.End)
    qtbot.keyClick(editor.text, Qt.Key.Key_Return)
    qtbot.keyClicks(editor.text, "Answer in British English.")
    assert editor.preview.toPlainText().splitlines()[-2:] == [
        "Never push to main.",
        "Answer in British English.",
    ]
    editor.save_button.click()
    entries = [service.get(i)["content"] for i in service.identity()["ids"]]
    assert entries == [
        "I am Ana.",
        "I prefer short answers.",
        "Never push to main.",
        "Answer in British English.",
    ]


def test_blank_lines_saving_drops_are_not_counted_nor_refused(qtbot, service):
    """Blank lines between entries are not kept: a profile that fits once saved may be saved."""
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    entries = ["x" * 497, "y" * 500]  # 997 characters and one line break: 998 once saved
    editor.text.setPlainText(f"{entries[0]}\n\n\n\n{entries[1]}")
    assert "998 / 1,000" in editor.counter.text()
    assert editor.save_button.isEnabled()
    editor.save_button.click()
    assert editor.result() == QDialog.DialogCode.Accepted
    assert service.identity()["size"] == 998


def test_saving_the_profile_from_the_window_says_so(qtbot, service, tmp_path, monkeypatch):
    window = _saving_from_the_window(qtbot, service, tmp_path, monkeypatch, "I am Ana.")
    window.menus.identity.trigger()
    assert "Identity saved (9 of 1,000 characters)" in window.status.currentMessage()
    window.menus.identity.trigger()  # the same words again
    assert window.status.currentMessage() == "Identity unchanged: nothing to save"


def test_tab_leaves_the_text_for_the_buttons(qtbot, service, monkeypatch):
    # (a tab typed would ask to discard it when the test closes the editor)
    monkeypatch.setattr("memdesk.ui.dialogs.identity_editor.confirm", lambda *a: True)
    editor = IdentityEditor(service)
    qtbot.addWidget(editor)
    editor.show()
    editor.text.setFocus()
    qtbot.waitUntil(editor.text.hasFocus)
    qtbot.keyClick(editor.text, Qt.Key.Key_Tab)
    assert "\t" not in editor.text.toPlainText()
    assert not editor.text.hasFocus()
