"""What the person typed is never thrown away unasked: a window tryout lost words to Escape in
the inline editor, New Memory and Identity, and to Ctrl+Q while an edit was open. Cancel says
what it does; Escape and closing ask."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from memdesk.ui.detail import memory_editor
from memdesk.ui.dialogs import identity_editor, new_memory_dialog
from memdesk.ui.dialogs.identity_editor import IdentityEditor
from memdesk.ui.dialogs.new_memory_dialog import NewMemoryDialog
from tests.ui.window_helpers import click_row, open_window, settle

Discard = QMessageBox.StandardButton.Discard


@pytest.fixture
def window(qtbot, service, tmp_path):
    service.add("Deploys go out on Tuesdays.")
    return open_window(qtbot, service, tmp_path / "settings.ini")


def _answering(monkeypatch, module, answer: bool) -> list[str]:
    asked: list[str] = []

    def confirm(_parent, _title, text, _accept=None):
        asked.append(text)
        return answer

    monkeypatch.setattr(module, "confirm", confirm)
    return asked


def _editing(qtbot, window, text: str):
    click_row(qtbot, window, 0)
    window.detail.start_editing()
    window.detail.editor.content.setPlainText(text)
    return window.detail.editor


@pytest.mark.parametrize("discard", [False, True])
def test_escape_in_the_inline_editor_asks_before_dropping_the_words(
    qtbot, service, window, monkeypatch, discard
):
    asked = _answering(monkeypatch, memory_editor, discard)
    editor = _editing(qtbot, window, "Deploys go out on Wednesdays.")
    qtbot.keyClick(editor.content, Qt.Key.Key_Escape)
    assert asked
    assert window.detail.editing is not discard
    if not discard:
        assert editor.content.toPlainText() == "Deploys go out on Wednesdays."
    assert service.list_memories()[0]["content"] == "Deploys go out on Tuesdays."


def test_escape_with_nothing_changed_just_closes_the_editor(qtbot, window, monkeypatch):
    asked = _answering(monkeypatch, memory_editor, False)
    editor = _editing(qtbot, window, "Deploys go out on Tuesdays.")
    qtbot.keyClick(editor.content, Qt.Key.Key_Escape)
    assert asked == []
    assert not window.detail.editing


def test_a_new_memory_closed_with_words_in_it_asks(qtbot, monkeypatch):
    asked = _answering(monkeypatch, new_memory_dialog, False)
    dialog = NewMemoryDialog("L1", None, lambda _fields: True)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.editor.content.setPlainText("The staging db is on 6543.")
    dialog.reject()  # Escape, or the title bar's close
    assert asked
    assert dialog.isVisible()
    assert dialog.editor.content.toPlainText() == "The staging db is on 6543."


def test_a_new_memory_whose_save_is_refused_stays_open_with_what_was_typed(
    qtbot, service, window, monkeypatch
):
    """A window tryout (stop 90): with the identity nearly full, a new L0 line was refused
    after the dialog had closed, and the words typed were gone."""
    from memdesk.ui import main_window

    service.set_identity("Name: Ada. " + "Prefers short answers. " * 42)
    refused: list[str] = []
    monkeypatch.setattr(main_window, "warn", lambda _parent, _title, text: refused.append(text))
    words = "Second try: a long identity line that will not fit into the profile."
    seen = {}

    def type_and_submit(dialog):
        dialog.show()
        qtbot.waitActive(dialog)
        qtbot.keyClicks(dialog.editor.content, words)
        dialog.editor.layer.setCurrentIndex(dialog.editor.layer.findData("L0"))
        qtbot.keyClick(dialog.editor.tags, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        seen["open"] = dialog.isVisible()
        seen["text"] = dialog.editor.content.toPlainText()
        seen["layer"] = dialog.editor.layer.currentData()
        dialog.done(0)
        return dialog.result()

    monkeypatch.setattr(NewMemoryDialog, "exec", type_and_submit)
    before = service.count()
    window.new_memory()
    assert refused
    assert "Identity" in refused[0]
    assert seen == {"open": True, "text": words, "layer": "L0"}
    assert service.count() == before


def test_the_identity_dialog_closed_with_changes_asks(qtbot, service, monkeypatch):
    asked = _answering(monkeypatch, identity_editor, False)
    dialog = IdentityEditor(service)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.text.setPlainText("Name: Ada\nPrefers tabs.")
    qtbot.keyClick(dialog.text, Qt.Key.Key_Escape)
    assert asked
    assert dialog.isVisible()


def test_quitting_with_an_open_edit_asks_and_can_stay(qtbot, service, window, monkeypatch):
    asked = []
    monkeypatch.setattr(window, "_confirm_discard", lambda: asked.append(1) or False)
    _editing(qtbot, window, "Deploys go out on Wednesdays.")
    window.quit_for_real()
    settle(window)
    assert asked
    assert window.isVisible()
    assert window.detail.editing


def test_staying_with_an_open_edit_keeps_the_list_on_the_memory_being_edited(
    qtbot, service, window, monkeypatch
):
    """Cancel to "Discard your unsaved changes?" after a click on another row: the list's
    selection goes back to the memory in the editor, so Delete acts on that one, not on the
    row that was clicked (or slid under the pointer while the question was open)."""
    monkeypatch.setattr(window, "_confirm_discard", lambda: False)
    service.add("Releases are tagged from main.")
    settle(window)
    _editing(qtbot, window, "Deploys go out on Wednesdays.")
    edited = window.detail.memory_id
    click_row(qtbot, window, 1)
    settle(window)
    assert window.detail.editing
    assert window.selected_ids() == [edited]
