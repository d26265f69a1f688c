"""The Inbox: everything waiting for the person's decision, one keyboard-first list.

A accepts, E edits and accepts, R (or Delete) rejects with a reason; each acts on every
selected item as one undoable step. Rejected items are one switch away and can be
reconsidered. Find Duplicates turns near-duplicates into merge proposals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, Signal, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QProgressDialog,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService
from memdesk.core.display import quoted_start
from memdesk.ui.detail.markdown_view import SafeBrowser
from memdesk.ui.dialogs import text_dialog
from memdesk.ui.inbox.item_text import TYPE_NAMES, describe, first_line
from memdesk.ui.plain_text import tip

COLUMNS = ("Kind", "What", "Why", "From", "Support", "When")
WORDS = (1, 2)  # What and Why share what the other columns leave
SIDE_SHARES = {0: 0.16, 3: 0.12, 4: 0.08, 5: 0.14}  # of the list's width, at most
# The From list's choice of what session ends heard the person say (what memdesk's line at a
# session start points to): a number, where each agent's choice is its name.
HEARD = 1
# What the person's own doing filed (an add alike an older memory, Find Duplicates): no agent
YOURS = 2
Run = Callable[[str, Callable[[], Any]], Any]

# Items whose answer is yes or no: a notice, a deletion asked about.
_NO_WORDS = ("overrun", "sync_deleted_there", "sync_deleted_here", "sync_deleted_by_team")


class InboxView(QWidget):
    """The items, their full story below, and the decisions. `decided` after each."""

    decided = Signal()
    memory_activated = Signal(str)
    concerns = Signal(str)  # the memory the one item chosen is about ("" for none)
    shown_changed = Signal()

    def __init__(
        self,
        service: MemoryService,
        run: Run,
        report: Callable[[MemdeskError], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._run = run
        self._report = report
        self._items: list[dict[str, Any]] = []
        self._wanted: dict[int, int] = {}  # the side columns' widths for their contents
        self._all: list[dict[str, Any]] = []  # of every writer; `_items` are those shown
        self.show_combo = QComboBox(self)
        self.show_combo.addItem("Waiting for you", "pending")
        self.show_combo.addItem("Rejected", "rejected")
        self.show_combo.currentIndexChanged.connect(self.reload)
        # Whose items: one agent's flood shown apart, to be selected whole and rejected as one
        # step (red team 38: 20 names' 9,739 notes buried the person's items).
        self.from_combo = QComboBox(self)
        self.from_combo.setToolTip(
            "Show the items of everyone, what you were heard saying, or of one agent only"
        )
        self.from_combo.setAccessibleName("From")
        self.from_combo.currentIndexChanged.connect(self._show_from)
        self.find_button = QPushButton("Find &Duplicates…", self)
        self.find_button.setToolTip("Propose merging memories that say the same thing")
        self.find_button.clicked.connect(self.find_duplicates)
        self.note = QLabel(self)  # what the last Find Duplicates found
        top = QHBoxLayout()
        top.addWidget(self.show_combo)
        top.addWidget(self.from_combo)
        top.addWidget(self.note)
        top.addStretch(1)
        top.addWidget(self.find_button)

        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTabKeyNavigation(False)  # Tab goes on to the decisions
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS)):
            mode = QHeaderView.ResizeMode
            header.setSectionResizeMode(
                column, mode.Stretch if column in WORDS else mode.Interactive
            )
        self.table.itemSelectionChanged.connect(self._on_selection)
        self.story = SafeBrowser(self)
        self.story.anchorClicked.connect(lambda url: self.memory_activated.emit(url.path()))
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(self.story)
        split.setSizes([300, 200])

        # The keys on the buttons: they work while the list has the focus (see eventFilter).
        self.accept_button = QPushButton("Accept (A)", self)
        self.edit_button = QPushButton("Edit && Accept… (E)", self)
        self.reject_button = QPushButton("Reject… (R)", self)
        self.reconsider_button = QPushButton("Re&consider", self)
        self.accept_button.clicked.connect(self.accept_selected)
        self.edit_button.clicked.connect(self.edit_and_accept)
        self.reject_button.clicked.connect(self.reject_selected)
        self.reconsider_button.clicked.connect(self.reconsider_selected)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (
            self.reconsider_button,
            self.reject_button,
            self.edit_button,
            self.accept_button,
        ):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self._keys = {
            Qt.Key.Key_A: self.accept_selected,
            Qt.Key.Key_E: self.edit_and_accept,
            Qt.Key.Key_R: self.reject_selected,
            Qt.Key.Key_Delete: self.reject_selected,
        }
        self.table.installEventFilter(self)
        self.reload()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Single keys decide while the list has the focus (plain keys: no modifiers)."""
        if watched is self.table and event.type() == QEvent.Type.KeyPress:
            action = self._keys.get(event.key())
            if action is not None and event.modifiers() == Qt.KeyboardModifier.NoModifier:
                action()
                return True
        return super().eventFilter(watched, event)

    @property
    def showing(self) -> str:
        return self.show_combo.currentData()

    @Slot()
    def reload(self, *, after_decision: bool = False, after_undo: bool = False) -> None:
        """Fill the table again. The selection stays on the items selected, wherever they
        moved (an agent's new item at the top moved another under the person's A key), and
        is cleared when they went; after the person's decision, the row of the item decided
        holds the next one; after an undo, what it brought back is selected (the next item
        stayed selected, and a quick R rejected it instead)."""
        before = {item["key"] for item in self._all}
        try:
            self._all = self._service.inbox(self.showing)
        except MemdeskError as exc:
            self._report(exc)
            return
        self._fill_from()
        self._show_from(after_decision=after_decision)
        back = [item["key"] for item in self._items if item["key"] not in before]
        if after_undo and back:
            self._select_keys(set(back), back[0])
            self._scroll_to_key(back[0])

    def _fill_from(self) -> None:
        """Everyone, then each agent with items, most first; the one chosen stays chosen."""
        chosen = self.from_combo.currentData()
        counts = Counter(item["agent"] for item in self._all if item["agent"])
        self.from_combo.blockSignals(True)
        self.from_combo.clear()
        self.from_combo.addItem(f"From everyone ({len(self._all):,})", None)
        if heard := sum(1 for item in self._all if item.get("heard")):
            self.from_combo.addItem(f"Heard from you ({heard:,})", HEARD)
        for name, count in counts.most_common():
            self.from_combo.addItem(f"From {first_line(name)} ({count:,})", name)
        if yours := sum(1 for item in self._all if not item["agent"]):
            self.from_combo.addItem(f"From you ({yours:,})", YOURS)
        self.from_combo.setCurrentIndex(max(self.from_combo.findData(chosen), 0))
        self.from_combo.blockSignals(False)

    @Slot()
    def _show_from(self, *, after_decision: bool = False) -> None:
        row = self.table.currentRow()
        current = self._items[row]["key"] if 0 <= row < len(self._items) else None
        kept = {item["key"] for item in self.selected()}
        top = self.table.rowAt(0)
        at_top = self._items[top]["key"] if 0 <= top < len(self._items) else None
        chosen = self.from_combo.currentData()
        self._items = [i for i in self._all if _from(i, chosen)]
        self.table.setRowCount(len(self._items))
        for number, item in enumerate(self._items):
            cells = (
                TYPE_NAMES[item["type"]],
                first_line(item["content"]),
                first_line(item["reason"] or _waiting(item) or item["why"]),
                item["agent"] or "you",
                str(item["support"]),
                item["created_at"][:16].replace("T", " "),
            )
            for column, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if column == 1:
                    cell.setToolTip(tip(item["content"]))
                self.table.setItem(number, column, cell)
        if kept and not after_decision:
            self._select_keys(kept, current)
            # where the person scrolled to stays in view: each agent's new item scrolled the
            # list back to the selected one, and the newest items could not be read
            self._scroll_to_key(at_top)
        elif self._items:
            self.select_row(min(max(row, 0), len(self._items) - 1))
        # measured once per fill (a few hundred rows each time): a resize only divides the room
        self._wanted = {
            column: max(
                self.table.sizeHintForColumn(column),
                self.table.horizontalHeader().sectionSizeHint(column),
            )
            for column in SIDE_SHARES
        }
        self._fit_columns()
        self._on_selection()
        self.shown_changed.emit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """What and Why tell the items apart: the other columns take their contents' width
        up to a share of the list, so in a small window those two are not squeezed to "…"
        while "Withheld by the guard" keeps its full width."""
        room = self.table.viewport().width()
        for column, wanted in self._wanted.items():
            share = max(48, int(room * SIDE_SHARES[column]))
            self.table.setColumnWidth(column, min(wanted, share))

    def concerned_id(self) -> str:
        """The memory the one item chosen is about ("" for none, or for several chosen)."""
        chosen = self.selected()
        about = chosen[0]["memories"] if len(chosen) == 1 else []
        return about[0]["id"] if about else ""

    def _select_keys(self, keys: set[Any], current: Any) -> None:
        flags = QItemSelectionModel.SelectionFlag
        selection = self.table.selectionModel()
        selection.clearSelection()
        for number, item in enumerate(self._items):
            if item["key"] in keys:
                index = self.table.model().index(number, 0)
                selection.select(index, flags.Select | flags.Rows)
                if item["key"] == current:
                    selection.setCurrentIndex(index, flags.NoUpdate)

    def _scroll_to_key(self, key: Any) -> None:
        row = next((n for n, item in enumerate(self._items) if item["key"] == key), -1)
        if row >= 0:
            self.table.scrollTo(
                self.table.model().index(row, 0), self.table.ScrollHint.PositionAtTop
            )

    def select_row(self, row: int) -> None:
        # Not QTableView.selectRow: that toggles the row when a modifier key is held.
        flags = QItemSelectionModel.SelectionFlag
        index = self.table.model().index(row, 0)
        self.table.selectionModel().setCurrentIndex(index, flags.ClearAndSelect | flags.Rows)

    def selected(self) -> list[dict[str, Any]]:
        rows = sorted(i.row() for i in self.table.selectionModel().selectedRows())
        return [self._items[r] for r in rows]

    @Slot()
    def accept_selected(self) -> None:
        chosen = self._chosen("pending")
        if chosen:
            keys, shown = [i["key"] for i in chosen], _as_shown(chosen)
            self._decide(
                f"Accept {_count(chosen)}",
                lambda: self._service.accept(keys, as_shown=shown),
            )

    @Slot()
    def edit_and_accept(self) -> None:
        chosen = self._chosen("pending")
        if len(chosen) != 1 or chosen[0]["waits"]:
            return
        (item,) = chosen
        text, ok = text_dialog.ask_text(
            self, "Edit & accept", "Accept it with these words:", item["content"]
        )
        if ok and text.strip():
            keys, shown = [item["key"]], _as_shown(chosen)
            done = self._decide(
                f"Edit & accept {quoted_start(first_line(text))}",
                lambda: self._service.accept(keys, content=text.strip(), as_shown=shown),
            )
            if done is None and text.strip() != item["content"].strip():
                # refused (a stale identity proposal): the words typed were thrown away
                QApplication.clipboard().setText(text.strip())
                self.story.setPlainText(
                    "Not accepted. The words you typed are on the clipboard:\n\n" + text.strip()
                )

    @Slot()
    def reject_selected(self) -> None:
        chosen = self._chosen("pending")
        if not chosen:
            return
        reason, ok = QInputDialog.getText(
            self, "Reject", f"Reject {_count(chosen)}. Why? (optional, kept with it)"
        )
        if ok:
            keys, shown = [i["key"] for i in chosen], _as_shown(chosen)
            self._decide(
                f"Reject {_count(chosen)}",
                lambda: self._service.reject(keys, reason=reason.strip() or None, as_shown=shown),
            )

    @Slot()
    def reconsider_selected(self) -> None:
        chosen = self._chosen("rejected")
        if chosen:
            keys = [i["key"] for i in chosen]
            self._decide(f"Reconsider {_count(chosen)}", lambda: self._service.reconsider(keys))

    @Slot()
    def find_duplicates(self) -> None:
        progress = QProgressDialog("Reading memories…", "Cancel", 0, 100, self)
        progress.setWindowTitle("Find Duplicates")
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(300)

        def step(done: int, total: int) -> bool:
            progress.setMaximum(max(total, 1))
            progress.setValue(done)
            QApplication.processEvents()
            return not progress.wasCanceled()

        try:
            found = self._service.find_duplicates(progress=step)
        except MemdeskError as exc:
            progress.close()
            if exc.code != "cancelled":
                self._report(exc)
            return
        progress.close()
        count = len(found["proposed"])
        self.note.setText(
            f"Read {found['memories']:,} memories: "
            + (f"{count:,} merge proposals added." if count else "no new duplicates.")
        )
        self.show_combo.setCurrentIndex(0)
        self.reload()
        if count:  # show the first of them
            keys = [item["key"] for item in self._items]
            self.select_row(keys.index(found["proposed"][0]))
        self.decided.emit()

    def _chosen(self, showing: str) -> list[dict[str, Any]]:
        return self.selected() if self.showing == showing else []

    def _decide(self, text: str, action: Callable[[], Any]) -> Any:
        """The action's result, None when it was refused (the window said why)."""
        done = self._run(text, action)
        self.reload(after_decision=True)
        self.decided.emit()
        self.table.setFocus()
        return done

    @Slot()
    def _on_selection(self) -> None:
        chosen = self.selected()
        pending = self.showing == "pending"
        self.accept_button.setVisible(pending)
        self.edit_button.setVisible(pending)
        self.reject_button.setVisible(pending)
        self.reconsider_button.setVisible(not pending)
        for button in (self.accept_button, self.reject_button, self.reconsider_button):
            button.setEnabled(bool(chosen))
        # (an item whose memory went to the Trash: its Accept could only fail)
        self.accept_button.setEnabled(any(not item["waits"] for item in chosen))
        self.edit_button.setEnabled(
            len(chosen) == 1 and chosen[0]["type"] not in _NO_WORDS and not chosen[0]["waits"]
        )
        self.concerns.emit(self.concerned_id())
        if len(chosen) == 1:
            self.story.setHtml(describe(chosen[0]))
        elif chosen:
            self.story.setPlainText(f"{len(chosen)} items selected.")
        else:
            self.story.setPlainText("Nothing waits for you." if pending and not self._items else "")


def _as_shown(items: list[dict[str, Any]]) -> dict[str, str]:
    """Each item's words as the person saw them: a background sync may bring newer ones
    before the click, and the decision is then refused rather than applied to words unseen."""
    return {item["key"]: item["content"] for item in items}


def _count(items: list[dict[str, Any]]) -> str:
    """The items decided, as the status bar names them: one by its words."""
    if len(items) == 1:
        return quoted_start(first_line(items[0]["content"]))
    return f"{len(items)} items"


def _waiting(item: dict[str, Any]) -> str | None:
    return f"Waits: {item['waits']}" if item["waits"] else None


def _from(item: dict[str, Any], chosen: Any) -> bool:
    """Whether the From list's choice (everyone, heard, yours or an agent's name) holds it."""
    if chosen is None:
        return True
    if chosen == HEARD:
        return bool(item.get("heard"))
    return not item["agent"] if chosen == YOURS else item["agent"] == chosen
