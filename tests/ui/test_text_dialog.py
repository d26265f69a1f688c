"""The box for a memory's longer text (Correct, Edit & accept): wraps, grows, Ctrl+Enter."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QPlainTextEdit

from memdesk.ui.dialogs.text_dialog import TextDialog


def test_long_text_wraps_in_a_box_a_memory_fits(qtbot):
    dialog = TextDialog(None, "Correct memory", "The corrected text:", "word " * 200)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.text.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    assert dialog.width() >= 600
    assert dialog.text.horizontalScrollBar().maximum() == 0  # nothing runs off to the right


def test_ctrl_enter_accepts_and_enter_makes_a_new_line(qtbot):
    dialog = TextDialog(None, "Edit & accept", "Accept it with these words:", "first")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.text.moveCursor(dialog.text.textCursor().MoveOperation.End)
    qtbot.keyClick(dialog.text, Qt.Key.Key_Return)
    qtbot.keyClicks(dialog.text, "second")
    assert dialog.result() == 0
    qtbot.keyClick(dialog.text, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.text.toPlainText() == "first\nsecond"


def test_tab_moves_on_and_escape_with_changed_words_asks(qtbot, monkeypatch):
    """A window tryout (stop 90): in Edit & Accept, Tab typed a tab into the text and Escape
    threw the edited words away without a word."""
    from memdesk.ui.dialogs import text_dialog

    asked = []
    monkeypatch.setattr(text_dialog, "confirm", lambda *args: asked.append(args[2]) or False)
    dialog = TextDialog(None, "Edit & accept", "Accept it with these words:", "never unittest")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitActive(dialog)
    dialog.text.setFocus()
    dialog.text.moveCursor(dialog.text.textCursor().MoveOperation.End)
    qtbot.keyClicks(dialog.text, " ever")
    qtbot.keyClick(dialog.text, Qt.Key.Key_Tab)
    assert dialog.text.toPlainText() == "never unittest ever"
    assert not dialog.text.hasFocus()
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Escape)
    assert asked == ["Discard your changes to the text?"]
    assert dialog.isVisible()
    assert dialog.text.toPlainText() == "never unittest ever"


def test_escape_with_the_words_as_given_closes_without_asking(qtbot, monkeypatch):
    from memdesk.ui.dialogs import text_dialog

    monkeypatch.setattr(text_dialog, "confirm", lambda *_: pytest.fail("asked"))
    dialog = TextDialog(None, "Edit & accept", "Accept it with these words:", "as given")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClick(dialog.text, Qt.Key.Key_Escape)
    assert dialog.result() == QDialog.DialogCode.Rejected
    assert not dialog.isVisible()
