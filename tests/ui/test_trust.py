"""What a new user saw go wrong in the window, one test each: no crash, no loss, exact undo."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QMessageBox

from memdesk.core import SYSTEM, agent
from memdesk.ui.dialogs.identity_editor import IdentityEditor
from memdesk.ui.dialogs.import_dialog import ImportDialog
from memdesk.ui.dialogs.new_memory_dialog import NewMemoryDialog
from tests.ui.window_helpers import (
    click_row,
    open_window,
    recorded_import,
    settle,
    shown_ids,
    typed_in_new_memory,
)


@pytest.fixture
def warnings(monkeypatch):
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text, *a: shown.append(text))
    return shown


@pytest.fixture
def window(qtbot, service, tmp_path):
    for n in range(25):  # an agent's notes: it may change or remove them while the person edits
        service.add(
            f"Fact {n:02d}: the build step {n} takes " + "long " * 3,
            dedup=False,
            actor=agent("claude"),
        )
    return open_window(qtbot, service, tmp_path / "settings.ini")


def _new_memory(qtbot, window, monkeypatch, text):
    monkeypatch.setattr(
        NewMemoryDialog, "ask", typed_in_new_memory(lambda layer: {"content": text, "layer": layer})
    )
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    settle(window)


def test_add_then_delete_another_row_then_undo_both(qtbot, service, window, monkeypatch):
    # Seen: Ctrl+N, OK, then Del on another row killed the process (QUndoCommand.id hidden).
    _new_memory(qtbot, window, monkeypatch, "Uses uv for environments")
    click_row(qtbot, window, 3)
    other = window.detail.memory_id
    qtbot.keyClick(window.browser.table, Qt.Key.Key_Delete)
    settle(window)
    assert service.get(other)["status"] == "deleted"
    window.undo_stack.undo()
    window.undo_stack.undo()
    settle(window)
    assert service.get(other)["status"] == "active"
    assert service.count() == 25


def test_bulk_move_into_a_nearly_full_identity_moves_nothing(qtbot, service, window, warnings):
    service.add("n" * 850, layer="L0")
    settle(window)
    window.browser.table.selectAll()
    window.menus.move["L0"].trigger()
    settle(window)
    assert "Nothing was changed" in warnings[0]
    assert service.count(layers=["L0"]) == 1
    assert service.identity()["size"] == 850
    assert window.undo_stack.count() == 0


def test_identity_save_keeps_the_other_entries_and_undo_restores_them(
    qtbot, service, window, monkeypatch
):
    entries = [
        service.add("Name: Ada", layer="L0")["id"],
        service.add("Never force-push", layer="L0", actor=SYSTEM)["id"],
        service.add("Answers in English", layer="L0")["id"],
    ]

    def edit_and_save(editor):
        editor.text.setPlainText(editor.text.toPlainText().replace("Ada", "Ada Lovelace"))
        qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
        return editor.result()

    monkeypatch.setattr(IdentityEditor, "exec", edit_and_save)
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert [service.get(i)["status"] for i in entries] == ["active"] * 3
    assert service.get(entries[0])["content"] == "Name: Ada Lovelace"
    assert service.get(entries[1])["source"] == "system"  # its author kept
    assert service.count(status="deleted") == 0
    window.undo_stack.undo()
    assert service.get(entries[0])["content"] == "Name: Ada"
    assert service.identity()["ids"] == entries


def test_restoring_a_corrected_memory_keeps_it_retired(run, service):
    old = service.add("The API listens on 8080")
    service.close()
    code, out, _err = run("edit", old["id"], "--correct", "--content", "The API listens on 9090")
    assert code == 0
    assert run("rm", old["id"])[0] == 0
    assert run("restore", old["id"])[0] == 0
    _code, shown, _err = run("show", old["id"], "--json")
    assert json.loads(shown)["status"] == "inactive"


def test_undo_import_reverts_what_it_changed(qtbot, service, window, monkeypatch):
    exported = json.loads(service.export("json", status=None))
    exported["memories"][0]["content"] = "Changed by the file"
    target = exported["memories"][0]["id"]
    before = service.get(target)["content"]

    window.status.showMessage("Exported 3 memories to /tmp/out.json", 10_000)
    monkeypatch.setattr(ImportDialog, "exec", recorded_import(service, exported))
    window.menus.import_.trigger()
    assert service.get(target)["content"] == "Changed by the file"
    assert window.status.message.text() == "Imported: 0 added, 1 changed"  # not "Exported…"
    window.undo_stack.undo()
    assert service.get(target)["content"] == before


def _delete_first_and_open_the_trash(qtbot, window, monkeypatch) -> None:
    """Delete the first memory, say yes to Empty Trash's question, and show the Trash."""
    click_row(qtbot, window, 0)
    qtbot.keyClick(window.browser.table, Qt.Key.Key_Delete)
    settle(window)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.sidebar.select_key("trash")
    settle(window)


def test_undo_after_empty_trash_says_what_happened(qtbot, service, window, monkeypatch, warnings):
    _delete_first_and_open_the_trash(qtbot, window, monkeypatch)
    window.menus.empty_trash.trigger()
    settle(window)
    window.undo_stack.undo()
    assert "deleted permanently" in warnings[0]
    assert "no memory with id" not in warnings[0]
    assert window.undo_stack.count() == 0  # the step is gone, not offered again


def test_no_redo_is_offered_for_a_memory_emptied_from_the_trash(
    qtbot, service, window, monkeypatch, warnings
):
    _delete_first_and_open_the_trash(qtbot, window, monkeypatch)
    click_row(qtbot, window, 0)
    window.menus.restore.trigger()
    settle(window)
    window.undo_stack.undo()  # back in the Trash; "Redo Restore" on offer
    settle(window)
    assert window.undo_stack.canRedo()
    assert window.menus.redo.isEnabled()
    window.menus.empty_trash.trigger()
    settle(window)
    assert not window.undo_stack.canRedo()
    assert not window.menus.redo.isEnabled()  # Edit ▸ Redo, Ctrl+Shift+Z: not offered
    assert window.undo_stack.canUndo()  # the delete before it is still offered, and says why
    assert warnings == []


def test_typing_survives_an_agent_removing_the_memory(qtbot, service, window):
    click_row(qtbot, window, 0)
    memory_id = window.detail.memory_id
    window.detail.start_editing()
    editor = window.detail.editor
    editor.content.setPlainText("My careful wording")
    service.remove(memory_id, actor=agent("claude"))
    settle(window)
    assert window.detail.editing
    assert editor.content.toPlainText() == "My careful wording"
    assert "claude" in editor.banner_label.text()
    assert "Trash" in editor.banner_label.text()
    assert editor.restore_save.isVisible()
    qtbot.mouseClick(editor.restore_save, Qt.MouseButton.LeftButton)
    settle(window)
    saved = service.get(memory_id)
    assert (saved["status"], saved["content"]) == ("active", "My careful wording")
    window.undo_stack.undo()  # one step: back in the Trash with the agent's text
    assert service.get(memory_id)["status"] == "deleted"
    assert service.get(memory_id)["content"].startswith("Fact")


def test_restore_and_save_keeps_the_search_the_person_typed(qtbot, service, window):
    qtbot.keyClicks(window.browser.search, "fact")
    qtbot.waitUntil(lambda: "match" in window.browser.summary.text(), timeout=10_000)
    shown = window.browser.model.rowCount()
    click_row(qtbot, window, 0)
    memory_id = window.detail.memory_id
    window.detail.start_editing()
    window.detail.editor.content.setPlainText("Fact, in my careful wording")
    service.remove(memory_id, actor=agent("claude"))
    settle(window)
    qtbot.mouseClick(window.detail.editor.restore_save, Qt.MouseButton.LeftButton)
    settle(window)
    assert window.browser.search.text() == "fact"
    qtbot.waitUntil(lambda: window.browser.model.rowCount() == shown, timeout=10_000)
    assert window.detail.memory_id == memory_id
    assert not window.detail.editing


def test_typing_survives_a_purge_and_can_be_saved_as_new(qtbot, service, window):
    click_row(qtbot, window, 0)
    memory_id = window.detail.memory_id
    window.detail.start_editing()
    window.detail.editor.content.setPlainText("Worth keeping")
    service.remove(memory_id, actor=agent("claude"))
    service.purge(memory_id)
    settle(window)
    editor = window.detail.editor
    assert "deleted permanently" in editor.banner_label.text()
    assert not editor.restore_save.isVisible()
    qtbot.mouseClick(editor.save_new, Qt.MouseButton.LeftButton)
    settle(window)
    assert [h["content"] for h in service.search("worth keeping")["hits"]] == ["Worth keeping"]


def test_following_a_link_makes_it_the_current_memory_of_its_view(qtbot, service, window):
    old_id = shown_ids(window)[0]
    new = service.correct(old_id, "Fact: the build takes one minute now")
    settle(window)
    window.open_memory(new["id"])
    window.detail._on_anchor_clicked(QUrl(f"memory:{old_id}"))
    settle(window)
    assert window.sidebar.current_key == "inactive"
    assert window.selected_ids() == [old_id]
    assert window.detail.memory_id == old_id
    qtbot.keyClick(window.browser.table, Qt.Key.Key_Delete)
    settle(window)
    assert service.get(old_id)["status"] == "deleted"  # Del acted on what the panel showed
    assert service.get(new["id"])["status"] == "active"


def test_switching_view_clears_a_panel_showing_a_memory_not_in_it(qtbot, window):
    click_row(qtbot, window, 0)
    assert window.detail.memory_id
    window.sidebar.select_key("trash")
    settle(window)
    assert window.detail.memory_id == ""
    assert not window.detail.edit_button.isEnabled()
    assert not window.menus.empty_trash.isEnabled()  # nothing in the Trash


def test_the_persons_search_is_no_agent_recall(qtbot, service, window):
    qtbot.keyClicks(window.browser.search, "build")
    qtbot.waitUntil(lambda: len(service.retrieval_log(limit=5)) == 1, timeout=3000)
    assert all(m["recall_count"] == 0 for m in service.list_memories(limit=100))


def test_the_agent_chip_offers_the_agents_that_wrote(qtbot, service, window):
    service.add("from an agent", actor=agent("claude-code"))
    settle(window)
    window.stats.request()
    settle(window)
    assert ("claude-code", "claude-code") in window.browser.chips._choices("agent")


def test_a_projects_memory_moved_to_the_identity_is_asked_about_first(
    qtbot, service, window, monkeypatch
):
    """A window tryout: Move to Layer ▸ L0 put one project's rule into every agent's identity
    in every project, without a word."""
    from memdesk.ui import memory_actions

    asked = []
    monkeypatch.setattr(memory_actions, "confirm", lambda _p, _t, text, *a: asked.append(text))
    rule = service.add("Deploys of acme go through Argo", project="acme")
    settle(window)
    window.browser.table.find_and_select(rule["id"])
    window.menus.move["L0"].trigger()
    settle(window)
    assert "belongs to the project acme" in asked[0]
    assert service.get(rule["id"])["layer"] == "L1"  # not asked to go on: nothing moved
