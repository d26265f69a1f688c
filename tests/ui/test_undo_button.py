"""The toolbar's Undo and Redo buttons read as the Edit menu does: what they would undo."""

from __future__ import annotations

from PySide6.QtCore import Qt

from memdesk.ui.dialogs import text_dialog
from tests.ui.window_helpers import click_row, open_window, settle


def test_the_undo_button_names_the_step_with_its_ellipsis(qtbot, service, tmp_path, monkeypatch):
    """Qt's toolbar label dropped the "…" that says a long name was cut: the button read
    'Undo Correct “The staging database runs Postgres 16 on”', as if that were all."""
    service.add("The staging database runs Postgres 16 on the shared host")
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    click_row(qtbot, window, 0)
    monkeypatch.setattr(text_dialog, "ask_text", lambda *a, **k: ("Staging runs Postgres 17", True))
    window.menus.correct.trigger()
    settle(window)

    button = window.menus.toolbar.widgetForAction(window.menus.undo)
    expected = "Undo Correct “The staging database runs Postgres 16 on…”"
    assert window.menus.undo.text() == expected  # the Edit menu's
    assert button.text() == expected
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    settle(window)
    redo = window.menus.toolbar.widgetForAction(window.menus.redo)
    assert redo.text() == "Redo Correct “The staging database runs Postgres 16 on…”"
    assert button.text() == "Undo"
