"""The memory list widget: a table over MemoryTableModel that keeps its place on refresh
and highlights the words of the current search."""

from __future__ import annotations

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QRect,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QCursor, QPainter, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from memdesk.ui.list.list_query import PAGE_SIZE, RELEVANCE
from memdesk.ui.list.marking import drawn_ranges, marked_spans
from memdesk.ui.list.memory_table_model import (
    COL_CONTENT,
    COL_UPDATED,
    HEADERS,
    ID_ROLE,
    SHORT_HEADERS,
    SORT_KEYS,
    MemoryTableModel,
)

# A highlighter pen over the words: translucent, so the text under it stays readable.
HIGHLIGHT = QColor(255, 196, 0, 110)


class _HighlightDelegate(QStyledItemDelegate):
    """Paints the content column as Qt paints any cell, then marks the search words on it.
    Laying each cell out as rich text instead cost 0.5 ms a cell, and every keystroke
    repainted the rows shown with a new query: 30 ms of a frozen window per keystroke."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        query = getattr(index.model(), "query", "")
        widget = option.widget
        if not query or widget is None:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = widget.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        # Where QCommonStyle draws an item's text: inset by the focus margin, elided to fit.
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        rect = rect.adjusted(margin, 0, -margin, 0)
        metrics = opt.fontMetrics
        shown = metrics.elidedText(opt.text, opt.textElideMode, rect.width())
        top = rect.top() + (rect.height() - metrics.height()) // 2
        painter.save()
        painter.setClipRect(rect)
        spans = marked_spans(shown, query)
        for left, right in drawn_ranges(shown, spans, opt.font, opt.direction):
            width = round(right) - round(left)
            painter.fillRect(
                QRect(rect.left() + round(left), top, width, metrics.height()), HIGHLIGHT
            )
        painter.restore()


CONTENT_SHARE = 0.45  # of the list's width, kept for the content column
MIN_COLUMN = 36
CELL_PADDING = 12  # a cell's margins around its text
# Every column but the content's (which stretches), in pixels, as first shown.
DEFAULT_WIDTHS = {1: 40, 2: 78, 3: 110, 4: 80, 5: 90, 6: 124, 7: 58}


class MemoryTableView(QTableView):
    """Multi-select list of memories. `current_changed(id)` says which one to show in detail
    ("" when none)."""

    current_changed = Signal(str)

    def __init__(self, model: MemoryTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self._model = model
        self._next: tuple[str, int] | None = None  # where the person's delete left them
        # Said over an empty list: an empty Trash or a search with no match showed a bare grid
        self.empty_text = ""
        self._follow = False  # the next reload scrolls to the current row (`refresh_keeping_place`)
        # Only the content column is highlighted; the others keep Qt's own (C++) delegate,
        # which paints them without a call into Python per cell.
        self.setItemDelegateForColumn(COL_CONTENT, _HighlightDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Tab leaves a list of rows (the arrows move in it): cell by cell, 8 columns by
        # hundreds of rows, it never reached the chips or the detail panel
        self.setTabKeyNavigation(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        header = self.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_CONTENT, QHeaderView.ResizeMode.Stretch)
        header.setHighlightSections(False)
        # A narrow column shows the start of its header and "…" (centred, both ends were cut).
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        header.setSortIndicator(COL_UPDATED, Qt.SortOrder.DescendingOrder)
        # A click on a column during a search sorts the hits by it: show the arrow again.
        header.sortIndicatorChanged.connect(lambda *_: header.setSortIndicatorShown(True))
        header.sortIndicatorChanged.connect(lambda *_: self.fit_columns())  # the arrow's room
        self.setSortingEnabled(True)
        # The widths the person wants (the defaults, or what they dragged a column to): a
        # narrow window squeezes the columns below them, a wider one gives them back. Only
        # these are kept between runs (widths squeezed at 1,024 px came back at 1,400).
        self.preferred = dict(DEFAULT_WIDTHS)
        self._fitting = False
        header.sectionResized.connect(self._on_section_resized)
        for column, width in DEFAULT_WIDTHS.items():
            self.setColumnWidth(column, width)
        self.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        model.reload_ready.connect(self._on_reload_ready)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        """Content is what a person reads: when the list gets narrow, the other columns
        give up room (down to a minimum) before the content column does, and take it back
        when it widens."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit_columns()

    def set_preferred(self, widths: dict[int, int]) -> None:
        """The person's widths from an earlier run (columns unknown or absurd are ignored)."""
        for column, width in widths.items():
            if column in DEFAULT_WIDTHS and MIN_COLUMN <= width <= 2000:
                self.preferred[column] = width
        self.fit_columns()

    def fit_columns(self) -> None:
        room = self.viewport().width()
        budget = (1 - CONTENT_SHARE) * room
        least = {column: self._least(column) for column in self.preferred}
        # Columns held at their least take that; the others share what is left of the budget.
        held: set[int] = set()
        scale = 1.0
        for _ in range(len(least)):
            free = sum(w for c, w in self.preferred.items() if c not in held)
            left = budget - sum(least[c] for c in held)
            if room <= 0:  # not laid out yet: nothing to fit to
                return
            scale = max(0.0, min(1.0, left / free)) if free else 0.0
            newly = {c for c, w in self.preferred.items() if c not in held and w * scale < least[c]}
            if not newly:
                break
            held |= newly
        self._fitting = True
        try:
            for column, width in self.preferred.items():
                self.setColumnWidth(column, max(least[column], int(width * scale)))
        finally:
            self._fitting = False
        self._fit_texts()

    def _least(self, column: int) -> int:
        """A column keeps room for its short header, whole; a date, for its day ("20…" told
        nothing; the time may go)."""
        header = self.horizontalHeader().fontMetrics().horizontalAdvance(SHORT_HEADERS[column])
        least = max(MIN_COLUMN, header + self.columnWidth(column) - self._header_room(column))
        if column == COL_UPDATED:
            return max(least, self.fontMetrics().horizontalAdvance("0000-00-00") + CELL_PADDING)
        return least

    def _header_room(self, column: int) -> int:
        """The width its header's text has: the column's, less the margins and, on the sorted
        column, the arrow."""
        header = self.horizontalHeader()
        style = header.style()
        margin = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        room = self.columnWidth(column) - 2 * margin
        if header.isSortIndicatorShown() and header.sortIndicatorSection() == column:
            room -= style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header) + margin
        return room

    def _fit_texts(self) -> None:
        """Short headers where the full ones would be cut ("La…", "Proj…"), and dates without
        their time where it would be ("2026-12-07 …")."""
        words = self.horizontalHeader().fontMetrics()
        short = frozenset(
            column
            for column in self.preferred
            if words.horizontalAdvance(HEADERS[column]) > self._header_room(column)
        )
        whole = self.fontMetrics().horizontalAdvance("0000-00-00 00:00") + CELL_PADDING
        self._model.fit_to_widths(short, self.columnWidth(COL_UPDATED) < whole)

    def _on_section_resized(self, column: int, _old: int, new: int) -> None:
        if not self._fitting and column in self.preferred and new > 0:
            self.preferred[column] = new  # the person dragged it
            self._fit_texts()

    def show_order(self, order: str) -> None:
        """The header's sort arrow for `order`; none for a search's relevance order."""
        header = self.horizontalHeader()
        header.setSortIndicatorShown(order != RELEVANCE)
        if order != RELEVANCE:
            column = SORT_KEYS.index(order.lstrip("-"))
            descending = Qt.SortOrder.DescendingOrder if order.startswith("-") else None
            header.blockSignals(True)
            header.setSortIndicator(column, descending or Qt.SortOrder.AscendingOrder)
            header.blockSignals(False)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().paintEvent(event)
        if self.empty_text and self._model.rowCount() == 0:
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().placeholderText().color())
            painter.drawText(
                self.viewport().rect().adjusted(12, 12, -12, -12),
                Qt.AlignmentFlag.AlignHCenter
                | Qt.AlignmentFlag.AlignTop
                | Qt.TextFlag.TextWordWrap,
                self.empty_text,
            )
            painter.end()

    def current_id(self) -> str:
        index = self.currentIndex()
        if not index.isValid():
            return ""
        return self._model.data(index, ID_ROLE) or ""

    def selected_ids(self) -> list[str]:
        rows = sorted(i.row() for i in self.selectionModel().selectedRows())
        return [rid for r in rows if (rid := self._model.data(self._model.index(r, 0), ID_ROLE))]

    def select_id(self, memory_id: str) -> bool:
        """Select the row of `memory_id` if the list shows it; True when found."""
        row = self._model.row_of(memory_id)
        if row < 0:
            return False
        self.setCurrentIndex(self._model.index(row, 0))
        self.scrollTo(self._model.index(row, 0))
        return True

    def find_and_select(self, memory_id: str, max_rows: int = 20_000) -> bool:
        """`select_id`, loading further pages of the list until it is found (up to
        `max_rows`); True when found."""
        for row in range(0, min(self._model.rowCount(), max_rows), PAGE_SIZE):
            self._model.record(row)
            if self.select_id(memory_id):
                return True
        return False

    def select_after_reload(self, memory_id: str, row: int) -> None:
        """After the person deleted the current rows: `memory_id` (the one below them), else
        the row now at `row`, becomes current once the list shows the change (none was, and
        Down went back to the first row)."""
        self._next = (memory_id, row)

    def id_below(self, row: int) -> str:
        return self._id_at(row + 1) if row + 1 < self._model.rowCount() else ""

    def refresh_keeping_place(self, follow: bool = False) -> None:
        """Reload the model in the background; the fresh rows replace the shown ones without
        losing the selection, the current row or the scroll (`_on_reload_ready`). `follow`:
        the person changed the current memory, and where it moves in the order, the list
        goes with it (retagged, it jumped to the top, out of view, and seemed gone)."""
        self._follow = self._follow or follow
        top = max(0, self.rowAt(0))
        bottom = self.rowAt(self.viewport().height() - 1)
        bottom = self._model.rowCount() - 1 if bottom < 0 else bottom
        # The current memory too, found again off screen however far agents moved it, and,
        # scrolled down, the one at the top of what the person reads (`_on_reload_ready`).
        current = self.currentIndex().row()
        keep = [(self.current_id(), current)]
        if self._holds_rows_in_view():
            keep.append((self._id_at(top), top))
        self._model.reload_in_background((top, bottom, current), keep)

    def _holds_rows_in_view(self) -> bool:
        """Scrolled down, the person reads on where they were: what agents add above moves
        the rows, not what is in view. At the top the newest come into view, but not under
        the pointer: the row aimed at slid away and another memory was restored."""
        if self.verticalScrollBar().value() > 0:
            return True
        return self.viewport().rect().contains(self.viewport().mapFromGlobal(QCursor.pos()))

    def _id_at(self, row: int) -> str:
        return self._model.data(self._model.index(row, 0), ID_ROLE) or "" if row >= 0 else ""

    @Slot()
    def _on_reload_ready(self) -> None:
        current = self.current_id()
        selected = self.selected_ids()
        scroll = self.verticalScrollBar().value()
        top = self.rowAt(0) if self._holds_rows_in_view() else -1
        reading = self._id_at(top)
        self.blockSignals(True)
        scrolls = self.hasAutoScroll()
        self.setAutoScroll(False)  # the current row found again is not scrolled to
        try:
            self._model.apply_reload()
            self._reselect(selected, current)
            if self._next is not None and self._model.row_of(current) < 0:
                below, row = self._next
                found = self._model.row_of(below) if below else -1
                row = found if found >= 0 else min(row, self._model.rowCount() - 1)
                if row >= 0:
                    self.setCurrentIndex(self._model.index(row, 0))
            self._next = None
            self.verticalScrollBar().setValue(scroll)
            moved_to = self._model.row_of(reading) if reading else -1
            if moved_to >= 0 and moved_to != top:
                self.scrollTo(self._model.index(moved_to, 0), self.ScrollHint.PositionAtTop)
            if self._follow and self.currentIndex().isValid():
                self.scrollTo(self.currentIndex(), self.ScrollHint.EnsureVisible)
            self._follow = False
        finally:
            self.setAutoScroll(scrolls)
            self.blockSignals(False)
        # Still in this list but moved further than a refresh follows: the detail panel keeps
        # it, and an edit there, rather than going blank under the person.
        if self.current_id() != current and (self.current_id() or self._model.left_list()):
            self.current_changed.emit(self.current_id())

    def _reselect(self, selected: list[str], current: str) -> None:
        selection = QItemSelection()
        for memory_id in selected:
            row = self._model.row_of(memory_id)
            if row >= 0:
                last = self._model.index(row, self._model.columnCount() - 1)
                selection.select(self._model.index(row, 0), last)
        flags = QItemSelectionModel.SelectionFlag
        row = self._model.row_of(current) if current else -1
        if row >= 0:
            self.selectionModel().setCurrentIndex(self._model.index(row, 0), flags.NoUpdate)
        self.selectionModel().select(selection, flags.ClearAndSelect)

    @Slot(QModelIndex, QModelIndex)
    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        # A row made current with nothing selected (the list taking focus, a Stats count
        # opening the Trash) is the one the detail panel shows: it is selected too, so
        # Restore and Delete act on what the person sees rather than staying grey.
        if current.isValid() and not self.selectionModel().hasSelection():
            flags = QItemSelectionModel.SelectionFlag
            self.selectionModel().select(current, flags.ClearAndSelect | flags.Rows)
        if not self.signalsBlocked():
            self.current_changed.emit(self.current_id())
