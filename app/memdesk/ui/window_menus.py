"""The main window's menus, toolbar and keyboard shortcuts, kept apart from its logic."""

from __future__ import annotations

import html

from PySide6.QtCore import QObject, QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox, QSizePolicy, QToolBar, QWidget

from memdesk import __version__
from memdesk.core.rules import LAYER_NAMES


class WindowMenus(QObject):
    """Builds File / Edit / View / Help and the toolbar; enables actions for the selection.
    `window` is memdesk's MainWindow, typed as the QMainWindow it is so that this module need
    not import the one importing it."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = w = window
        stack = w.undo_stack
        # Qt's own undo actions cannot say in the status bar what they undid: these can
        self.undo = self._action("Undo", None, w.undo_last)
        self.undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo.setEnabled(stack.canUndo())
        stack.canUndoChanged.connect(self.undo.setEnabled)
        stack.undoTextChanged.connect(lambda text: _name(self.undo, f"Undo {text}"))
        self.redo = self._action("Redo", None, w.redo_last)
        self.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo.setEnabled(stack.canRedo())
        stack.canRedoChanged.connect(self.redo.setEnabled)
        stack.redoTextChanged.connect(lambda text: _name(self.redo, f"Redo {text}"))
        self.new = self._action("&New Memory…", "Ctrl+N", w.new_memory)
        self.export = self._action("&Export…", "Ctrl+Shift+E", w.export)
        self.import_ = self._action("&Import…", "Ctrl+Shift+I", w.import_memories)
        self.backups = self._action("&Backups…", None, w.show_backups)
        self.sync = self._action("S&ync…", None, w.show_sync)
        self.sync.setStatusTip("Sync with your other machines or a team through git")
        self.sync_now = self._action("Sync No&w", "Ctrl+Shift+Y", w.sync.sync_now)
        self.keep_serving = self._action(
            "&Keep Serving Agents After Closing", None, w.set_keep_serving
        )
        self.keep_serving.setCheckable(True)
        self.keep_serving.setChecked(w.keep_serving)
        self.keep_serving.setToolTip(
            "When the window closes with agents connected, a background memdesk serve takes "
            "over so they keep working; the next window takes the database back."
        )
        self.quit = self._action("&Quit", "Ctrl+Q", w.close)
        self.edit = self._action("&Edit Memory", "Ctrl+E", w.detail.start_editing)
        self.correct = self._action("&Correct Memory…", "Ctrl+Shift+C", w.correct_current)
        self.delete = self._action("&Delete", "Del", w.delete_selected)
        self.restore = self._action("&Restore", "Ctrl+R", w.restore_selected)
        self.retag = self._action("Re&tag…", "Ctrl+T", w.retag_selected)
        self.set_project = self._action("Set &Project…", "Ctrl+Shift+P", w.set_project_of_selected)
        self.empty_trash = self._action("Empty &Trash…", None, w.empty_trash)
        self.release = self._action("Release to &Agents", None, w.release_selected)
        self.release.setToolTip(
            "Let agents see a memory the injection guard withheld (you read it and it is fine)"
        )
        self.quiet = self._action("Don't Bring &Up Unasked", "Ctrl+Shift+U", w.set_quiet_selected)
        self.quiet.setCheckable(True)
        self.quiet.setToolTip(
            "Leave the selected memories out of what agents are given at session start and with "
            "each prompt; an agent that searches for them still finds them"
        )
        self.identity = self._action("Edit &Identity…", "Ctrl+I", w.edit_identity)
        self.find = self._action("&Find", "Ctrl+F", self._focus_search)
        self.inbox = self._action("In&box", "Ctrl+0", self._open_inbox)
        self.move = {
            layer: self._action(
                f"{layer} {title}", None, lambda _=False, x=layer: w.move_selected(x)
            )
            for layer, title in LAYER_NAMES.items()
        }
        self.agents = self._action("&Agents…", None, w.show_agents)
        self.attach = self._action("A&ttach to an Agent Host…", None, w.show_attach)
        self.injections = self._action("&Injections…", "Ctrl+J", w.show_injections)
        self.injections.setStatusTip("What memdesk gave each agent session's model")
        self.about = self._action("&About memdesk", None, self._show_about)
        self.shortcuts = self._action("&Keyboard Shortcuts", "F1", self._show_shortcuts)
        self._build_menus()
        self._build_toolbar()
        table = w.browser.table
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.customContextMenuRequested.connect(self._show_context_menu)

    def _action(self, text: str, shortcut: str | None, slot: object) -> QAction:
        action = QAction(text, self._window)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        return action

    def _build_menus(self) -> None:
        bar = self._window.menuBar()
        file = bar.addMenu("&File")
        file.addActions([self.new])
        file.addSeparator()
        file.addActions([self.export, self.import_])
        file.addSeparator()
        file.addAction(self.backups)
        file.addActions([self.sync, self.sync_now])
        file.addAction(self.keep_serving)
        file.addSeparator()
        file.addAction(self.quit)
        edit = bar.addMenu("&Edit")
        edit.addActions([self.undo, self.redo])
        edit.addSeparator()
        edit.addActions([self.edit, self.correct, self.delete, self.restore])
        edit.addSeparator()
        edit.addAction(self.retag)
        move = edit.addMenu("&Move to Layer")
        move.addActions(list(self.move.values()))
        self.move_menu = move
        edit.addAction(self.set_project)
        edit.addSeparator()
        edit.addActions([self.release, self.quiet, self.empty_trash, self.identity])
        edit.aboutToShow.connect(self.show_quiet_state)
        self.view_menu = bar.addMenu("&View")
        self.view_menu.addAction(self.find)
        log = self._window.log_dock.toggleViewAction()
        log.setShortcut(QKeySequence("Ctrl+L"))
        self.view_menu.addAction(log)
        self.view_menu.addAction(self.agents)
        self.view_menu.addAction(self.attach)
        self.view_menu.addAction(self.injections)
        self.view_menu.addAction(self.inbox)
        self.view_menu.addSeparator()
        for n, name in enumerate(("List", "Timeline", "Graph", "Stats")):
            switch = self._action(
                name,
                f"Ctrl+{n + 1}",
                lambda _=False, i=n: self._window.choose_view(i),
            )
            self.view_menu.addAction(switch)

        help_menu = bar.addMenu("&Help")
        help_menu.addActions([self.shortcuts, self.about])

    def _show_context_menu(self, position: QPoint) -> None:
        """Right-click on the list: the actions for the selected memories."""
        menu = QMenu(self._window)
        menu.addActions([self.edit, self.correct, self.delete, self.restore])
        menu.addSeparator()
        menu.addAction(self.retag)
        menu.addMenu(self.move_menu)
        menu.addAction(self.set_project)
        self.show_quiet_state()
        menu.addAction(self.quiet)
        table = self._window.browser.table
        menu.popup(table.viewport().mapToGlobal(position))
        self.context_menu = menu

    def _show_about(self) -> None:
        QMessageBox.about(
            self._window,
            "About memdesk",
            f"<b>memdesk {__version__}</b><p>Long-term memory for AI agents that you can see "
            "and correct. Local only: one SQLite database, agents connect over a local "
            f"socket.</p><p>Database: {html.escape(str(self._window.service.path))}</p>",
        )

    def _show_shortcuts(self) -> None:
        """Every shortcut the window's actions have, read from the actions themselves so a
        new one is never missing; Undo and Redo by their own names, not the step they would
        undo now."""
        fixed = {id(self.undo): "Undo", id(self.redo): "Redo"}
        seen: dict[str, str] = {}
        for action in self._window.findChildren(QAction):
            keys = ", ".join(k.toString() for k in action.shortcuts())
            name = fixed.get(id(action)) or action.text().replace("&", "").rstrip("…")
            if keys and name and keys not in seen:
                seen[keys] = name
        rows = "".join(
            f"<tr><td>{html.escape(name)}</td><td><b>{html.escape(keys)}</b></td></tr>"
            for keys, name in sorted(seen.items(), key=lambda item: item[1].casefold())
        )
        extra = (
            "<tr><td>From the search box to the results</td><td><b>Down</b></td></tr>"
            "<tr><td>Save an edit or a new memory</td><td><b>Ctrl+Enter</b></td></tr>"
            "<tr><td>Inbox: accept, edit &amp; accept, reject</td><td><b>A, E, R</b></td></tr>"
        )
        QMessageBox.information(
            self._window, "Keyboard shortcuts", f"<table cellpadding=3>{rows}{extra}</table>"
        )

    def _build_toolbar(self) -> None:
        toolbar = QToolBar("Main", self._window)
        toolbar.setObjectName("main_toolbar")
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        toolbar.addActions([self.new, self.edit, self.delete, self.restore])
        toolbar.addSeparator()
        toolbar.addActions([self.undo, self.redo])
        spacer = QWidget(toolbar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        toolbar.addWidget(spacer)
        toolbar.addAction(self.identity)
        self._window.addToolBar(toolbar)
        self.toolbar = toolbar

    def update_enabled(self, has_selection: bool, in_trash: bool, restorable: bool) -> None:
        for action in (self.retag, self.set_project, self.move_menu.menuAction()):
            action.setEnabled(has_selection and not in_trash)
        self.delete.setEnabled(has_selection and not in_trash)
        self.quiet.setEnabled(has_selection and not in_trash)
        self.release.setEnabled(has_selection and not in_trash)  # with nothing chosen: silent
        self.show_quiet_state()
        self.restore.setEnabled(has_selection and restorable)
        self.restore.setVisible(restorable)
        self.edit.setEnabled(self._window.detail.edit_button.isEnabled())
        self.correct.setEnabled(self._window.detail.edit_button.isEnabled())
        self.empty_trash.setEnabled(in_trash and self._window.sidebar.count_of("trash") > 0)

    def show_quiet_state(self) -> None:
        """Don't Bring Up Unasked is checked when the current memory is kept out."""
        self.quiet.setChecked(not self._window.detail.injected)

    def _open_inbox(self) -> None:
        self._window.open_inbox()

    def _focus_search(self) -> None:
        search = self._window.browser.search
        self._window.view_tabs.setCurrentIndex(0)
        search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        search.selectAll()


def _name(action: QAction, label: str) -> None:
    """The label in the menu and on the toolbar alike: the toolbar's, derived by Qt, dropped
    every "…" and "...", so a step cut short ('Correct “Prefers pytest for…”') read as if
    whole, and a memory's own "..." vanished from its name."""
    action.setText(label.strip())
    action.setIconText(label.strip())
