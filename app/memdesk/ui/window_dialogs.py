"""The dialogs the window opens from its menus, and what it does with their answers."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Slot

from memdesk.api import naming
from memdesk.ui.agents.agents_dialog import AgentsDialog
from memdesk.ui.agents.attach_dialog import AttachDialog
from memdesk.ui.agents.injections_dialog import InjectionsDialog
from memdesk.ui.dialogs.backups_dialog import BackupsDialog
from memdesk.ui.dialogs.export_dialog import ExportDialog
from memdesk.ui.dialogs.identity_editor import IdentityEditor
from memdesk.ui.dialogs.import_dialog import ImportDialog
from memdesk.ui.sync.sync_dialog import SyncDialog
from memdesk.ui.undo_commands import push

MESSAGE_MS = 10_000  # how long the outcome of a dialog's work stays in the status bar


class WindowDialogs:
    """Mixin of MainWindow (its service, undo stack, change hub, status bar and errors)."""

    @Slot()
    def edit_identity(self) -> None:
        editor = IdentityEditor(self.service, self)
        if not editor.exec():
            return
        if editor.step is None:
            self.status.showMessage("Identity unchanged: nothing to save", MESSAGE_MS)
            return
        push(self.undo_stack, self.service, "Edit identity", editor.step, self.show_error)
        self.hub.flush()
        profile = self.service.identity()
        self.status.showMessage(
            f"Identity saved ({profile['size']:,} of {profile['limit']:,} characters); every agent "
            "session gets it from now on. Undo: Ctrl+Z",
            MESSAGE_MS,
        )

    @Slot()
    def export(self) -> None:
        found = self.browser.model.hit_ids()
        shown = self.browser.filters() if found is None else {"ids": found, "status": None}
        if self.pages.currentWidget() is self.inbox:
            # The list is not in front: offered by its count, "the memories the list shows"
            # read as what the Inbox shows, and the file held something else.
            shown = None
        dialog = ExportDialog(self.service, self.selected_ids(), shown, self)
        dialog.exported.connect(
            lambda path, count: self.status.showMessage(
                f"Exported {count:,} memories to {path}", MESSAGE_MS
            )
        )
        dialog.exec()

    @Slot()
    def show_agents(self) -> None:
        AgentsDialog(self.service, self.undo_stack, self.show_error, self).exec()
        self.show_agent_names(self.agent_names)

    @Slot()
    def show_sync(self) -> None:
        SyncDialog(self.service, self.sync, self).exec()

    @Slot()
    def show_attach(self) -> None:
        db = Path(self.service.path)
        socket = naming.chosen_socket(db, self.socket_path) if self.socket_path else None
        AttachDialog(db, self, socket=socket).exec()

    @Slot()
    def show_injections(self) -> None:
        """Modeless: a memory double-clicked there opens here, beside it."""
        dialog = InjectionsDialog(self.service, self)
        dialog.memory_activated.connect(self.open_memory)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        self.injections_dialog = dialog

    @Slot()
    def show_backups(self) -> None:
        dialog = BackupsDialog(self.service, self.show_error, self)
        if dialog.exec() and dialog.restored is not None:
            self.hub.flush()
            before = dialog.restored["before"]["name"]
            self.status.showMessage(f"Restored; the state before is kept as {before}", MESSAGE_MS)

    @Slot()
    def import_memories(self) -> None:
        dialog = ImportDialog(self.service, self)
        if dialog.exec() and dialog.applied is not None and dialog.step is not None:
            done = dialog.applied
            text = f"Import ({done['added']:,} added, {done['changed']:,} changed)"
            push(self.undo_stack, self.service, text, dialog.step, self.show_error)
            self.hub.flush()
            self.status.showMessage(
                f"Imported: {done['added']:,} added, {done['changed']:,} changed", MESSAGE_MS
            )
