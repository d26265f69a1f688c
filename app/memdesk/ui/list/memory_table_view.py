"""The memory list widget: a table over MemoryTableModel that keeps its place on refresh
and highlights the words of the current search."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QModelIndex, Qt, Signal, Slot
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QPainter,
    QPalette,
    QResizeEvent,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from memdesk.core.search.retrieval import terms
from memdesk.ui.list.memory_table_model import (
    COL_CONTENT,
    COL_UPDATED,
    ID_ROLE,
    PAGE_SIZE,
    RELEVANCE,
    SORT_KEYS,
    MemoryTableModel,
)

SUFFIXES = ("ing", "ies", "ed", "es", "ly", "s")


def _stem(word: str) -> str:
    """A crude stem, enough to mark the forms the search's Porter stemmer also matched."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


HIGHLIGHT_STYLE = "background-color: rgba(255, 196, 0, 110); font-weight: 600"


def highlight_html(text: str, query: str) -> str:
    """`text` as HTML with the words that match `query` (as search matches them) marked."""
    words = terms(query)
    if not words:
        return html.escape(text)
    # Search stems words (Porter): "test" finds "Tests" and "testing", so mark those too.
    stems = sorted({_stem(w) for w in words}, key=len, reverse=True)
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, stems)) + r")\w*", re.IGNORECASE)
    out, last = [], 0
    for match in pattern.finditer(text):
        out.append(html.escape(text[last : match.start()]))
        out.append(f'<span style="{HIGHLIGHT_STYLE}">{html.escape(match.group(0))}</span>')
        last = match.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


class _HighlightDelegate(QStyledItemDelegate):
    """Paints the content column as rich text with the search words marked."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        model = index.model()
        query = getattr(model, "query", "")
        if index.column() != COL_CONTENT or not query:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text, opt.text = opt.text, ""
        widget = opt.widget
        style = widget.style() if widget else None
        if style is None:
            super().paint(painter, option, index)
            return
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(opt.font)
        doc.setHtml(highlight_html(text, query))
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        context = QAbstractTextDocumentLayout.PaintContext()
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(role))
        painter.save()
        painter.setClipRect(rect)
        painter.translate(rect.left() + 2, rect.top() + (rect.height() - doc.size().height()) / 2)
        doc.documentLayout().draw(painter, context)
        painter.restore()


CONTENT_SHARE = 0.45  # of the list's width, kept for the content column
MIN_COLUMN = 36


class MemoryTableView(QTableView):
    """Multi-select list of memories. `current_changed(id)` says which one to show in detail
    ("" when none)."""

    current_changed = Signal(str)

    def __init__(self, model: MemoryTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self._model = model
        self.widths_restored = False  # the person's saved widths are kept on first show
        # Only the content column is highlighted; the others keep Qt's own (C++) delegate,
        # which paints them without a call into Python per cell.
        self.setItemDelegateForColumn(COL_CONTENT, _HighlightDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
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
        self.setSortingEnabled(True)
        for column, width in enumerate((0, 40, 78, 110, 80, 90, 124, 58)):
            if width:
                self.setColumnWidth(column, width)
        self.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        model.reload_ready.connect(self._on_reload_ready)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        """Content is what a person reads: when the list gets narrow, the other columns
        give up room (down to a minimum) before the content column does."""
        super().resizeEvent(event)
        narrower = 0 < event.size().width() < event.oldSize().width()
        if narrower or (event.oldSize().width() < 0 and not self.widths_restored):
            self._fit_columns()

    def _fit_columns(self) -> None:
        room = self.viewport().width()
        others = [c for c in range(self._model.columnCount()) if c != COL_CONTENT]
        taken = sum(self.columnWidth(c) for c in others)
        if taken and room - taken < CONTENT_SHARE * room:
            scale = (1 - CONTENT_SHARE) * room / taken
            for column in others:
                self.setColumnWidth(column, max(MIN_COLUMN, int(self.columnWidth(column) * scale)))

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

    def refresh_keeping_place(self) -> None:
        """Reload the model in the background; the fresh rows replace the shown ones without
        losing the selection, the current row or the scroll (`_on_reload_ready`)."""
        top = max(0, self.rowAt(0))
        bottom = self.rowAt(self.viewport().height() - 1)
        bottom = self._model.rowCount() - 1 if bottom < 0 else bottom
        # The current row's page too, so the current memory is found again off screen.
        self._model.reload_in_background((top, bottom, self.currentIndex().row()))

    @Slot()
    def _on_reload_ready(self) -> None:
        current = self.current_id()
        selected = self.selected_ids()
        scroll = self.verticalScrollBar().value()
        self.blockSignals(True)
        try:
            self._model.apply_reload()
            self.verticalScrollBar().setValue(scroll)
            self._reselect(selected, current)
        finally:
            self.blockSignals(False)
        if self.current_id() != current:
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
        if not self.signalsBlocked():
            self.current_changed.emit(self.current_id())
