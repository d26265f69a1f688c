"""The box for a memory's longer text (Correct, Edit & accept): wraps, grows, Ctrl+Enter."""

from __future__ import annotations

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
