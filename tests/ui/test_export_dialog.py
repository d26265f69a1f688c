"""ExportDialog: choose format, scope and file; the export runs in the background."""

from __future__ import annotations

import json
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from memdesk.ui.dialogs.export_dialog import ExportDialog
from tests.ui.helpers import cancel_button


@pytest.fixture
def memories(service):
    ids = [service.add(f"note {n}: prefers topic {n * 7}", dedup=False)["id"] for n in range(6)]
    service.add("the archive summary of session one", layer="L2", kind="summary")
    service.remove(ids[0])
    return ids


def _dialog(qtbot, service, path, **kwargs):
    dialog = ExportDialog(service, **kwargs)
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(path))
    return dialog


def _export(qtbot, dialog):
    with qtbot.waitSignal(dialog.exported, timeout=5000) as blocker:
        qtbot.mouseClick(dialog.action_button, Qt.MouseButton.LeftButton)
    return blocker.args


def test_all_memories_go_to_a_json_file_including_the_trash(qtbot, service, memories, tmp_path):
    target = tmp_path / "out.json"
    dialog = _dialog(qtbot, service, target)
    assert dialog.scope_buttons["all"].isChecked()
    assert dialog.scope_buttons["all"].text() == "All memories, retired and Trash included (7)"

    path, count = _export(qtbot, dialog)

    assert (path, count) == (str(target), 7)
    document = json.loads(target.read_text(encoding="utf-8"))
    assert len(document["memories"]) == 7
    assert dialog.result() == ExportDialog.DialogCode.Accepted
    assert not (tmp_path / "out.json.part").exists()


def test_the_selection_is_offered_first_and_only_it_is_exported(qtbot, service, memories, tmp_path):
    target = tmp_path / "picked.json"
    dialog = _dialog(qtbot, service, target, ids=memories[1:3])
    assert dialog.scope_buttons["selection"].isChecked()
    assert dialog.scope_buttons["selection"].text() == "The selection (2)"
    assert not dialog.scope_buttons["filter"].isEnabled()

    _export(qtbot, dialog)

    exported = json.loads(target.read_text(encoding="utf-8"))["memories"]
    assert sorted(m["id"] for m in exported) == sorted(memories[1:3])


def test_markdown_of_the_current_filter(qtbot, service, memories, tmp_path):
    dialog = _dialog(qtbot, service, tmp_path / "archive.json", filters={"layer": "L2"})
    assert dialog.scope_buttons["filter"].text() == "The memories the list shows (1)"
    dialog.format_buttons["markdown"].click()
    assert dialog.path_edit.text().endswith("archive.md")

    _export(qtbot, dialog)

    text = (tmp_path / "archive.md").read_text(encoding="utf-8")
    assert "the archive summary of session one" in text
    assert "note 3" not in text


def test_choose_uses_the_save_dialog(qtbot, service, tmp_path, monkeypatch):
    chosen = tmp_path / "picked-here.json"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *args: (str(chosen), "JSON (*.json)")
    )
    dialog = _dialog(qtbot, service, tmp_path / "x.json")
    qtbot.mouseClick(dialog.choose_button, Qt.MouseButton.LeftButton)
    assert dialog.path_edit.text() == str(chosen)


def test_a_missing_folder_is_reported_and_nothing_runs(qtbot, service, tmp_path):
    dialog = _dialog(qtbot, service, tmp_path / "nowhere" / "out.json")
    qtbot.mouseClick(dialog.action_button, Qt.MouseButton.LeftButton)
    assert "does not exist" in dialog.status.text()
    assert not dialog.is_busy()
    assert dialog.result() != ExportDialog.DialogCode.Accepted


def test_cancel_during_export_writes_no_file_and_keeps_the_dialog(
    qtbot, service, memories, tmp_path
):
    target = tmp_path / "cancelled.json"
    dialog = _dialog(qtbot, service, target)
    dialog.show()
    real_export, cancel_pressed = service.export, threading.Event()

    def export_after_cancel(fmt, *, progress, **filters):
        cancel_pressed.wait(5)  # hold the worker so Cancel lands while it is busy
        return real_export(fmt, progress=progress, **filters)

    service.export = export_after_cancel
    qtbot.mouseClick(dialog.action_button, Qt.MouseButton.LeftButton)
    assert dialog.is_busy()
    assert not dialog.form.isEnabled()
    qtbot.mouseClick(cancel_button(dialog), Qt.MouseButton.LeftButton)
    cancel_pressed.set()
    qtbot.waitUntil(lambda: not dialog.is_busy() and dialog.form.isEnabled(), timeout=5000)

    assert dialog.status.text() == "Cancelled. Nothing was written."
    assert not target.exists()
    assert dialog.isVisible()
    assert dialog.action_button.isEnabled()


def test_one_selected_row_does_not_make_the_selection_the_default(qtbot, service, memories):
    one = ExportDialog(service, ids=[service.list_memories()[0]["id"]], filters={})
    qtbot.addWidget(one)
    assert one.scope_buttons["filter"].isChecked()
    two = ExportDialog(service, ids=[m["id"] for m in service.list_memories()[:2]], filters={})
    qtbot.addWidget(two)
    assert two.scope_buttons["selection"].isChecked()


def test_an_existing_file_is_replaced_only_when_the_person_says_so(
    qtbot, service, memories, tmp_path, monkeypatch
):
    target = tmp_path / "out.json"
    target.write_text("keep me")
    dialog = _dialog(qtbot, service, target)
    monkeypatch.setattr(dialog, "confirm_overwrite", lambda _path: False)
    dialog.action_button.click()
    assert target.read_text() == "keep me"
    assert not dialog.is_busy()


def test_enter_exports_as_the_dialog_opens(qtbot, service, memories, tmp_path):
    """A window tryout: focus started on Cancel, so Enter closed the dialog, nothing exported."""
    target = tmp_path / "out.json"
    dialog = _dialog(qtbot, service, target)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() is dialog.path_edit
    with qtbot.waitSignal(dialog.exported, timeout=5000):
        qtbot.keyClick(dialog.path_edit, Qt.Key.Key_Return)
    assert target.exists()


def test_export_from_the_inbox_counts_what_it_writes(
    qtbot, service, memories, tmp_path, monkeypatch
):
    """With the Inbox in front, the dialog offered the hidden list's count ("the memories the
    list shows (5)") as if it were what the person was looking at."""
    from tests.ui.window_helpers import open_window

    window = open_window(qtbot, service, tmp_path / "settings.ini")
    window.open_inbox()
    opened = []
    monkeypatch.setattr(ExportDialog, "exec", lambda dialog: opened.append(dialog) or 0)
    window.menus.export.trigger()
    dialog = opened[0]
    assert not dialog.scope_buttons["filter"].isEnabled()
    chosen = next(b for b in dialog.scope_buttons.values() if b.isChecked())
    assert chosen.text() == "All memories, retired and Trash included (7)"
    dialog.path_edit.setText(str(tmp_path / "inbox.json"))
    assert _export(qtbot, dialog)[1] == 7
