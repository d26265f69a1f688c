"""Small helpers shared by the widget tests."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox, QPushButton

from memdesk.ui.dialogs.transfer_job import TransferDialog


def cancel_button(dialog: TransferDialog) -> QPushButton:
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
