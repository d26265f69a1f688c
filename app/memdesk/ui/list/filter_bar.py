"""Filter chips above the list: layer, kind, source, agent, project, tag and date range.

Each chip is a small drop-down button; a chip that is set shows its value and is tinted.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMenu, QToolButton, QWidget
from superqt import QFlowLayout

from memdesk.core.clock import format_time
from memdesk.core.rules import KINDS, LAYER_NAMES, SOURCES
from memdesk.ui.stats_loader import StatsLoader

CHIPS = ("layer", "kind", "source", "agent", "project", "tag", "since")
TITLES = {
    "layer": "Layer",
    "kind": "Kind",
    "source": "Source",
    "agent": "Agent",
    "project": "Project",
    "tag": "Tag",
    "since": "Date",
}
PERIODS = (
    ("Updated in the last 24 hours", 1),
    ("Updated in the last 7 days", 7),
    ("Updated in the last 30 days", 30),
    ("Updated in the last year", 365),
)
CHOICES_SHOWN = 25
CHIP_STYLE = """
QToolButton { border: 1px solid palette(mid); border-radius: 11px; padding: 2px 10px; }
QToolButton:hover { border-color: palette(highlight); }
QToolButton:focus { border: 2px solid palette(highlight); }
QToolButton[active="true"] { background: palette(highlight); color: palette(highlighted-text);
                             border-color: palette(highlight); }
QToolButton::menu-indicator { image: none; width: 0px; }
"""


class FilterBar(QWidget):
    """A row of chips. `filters_changed(dict)` carries the service filters that are set."""

    filters_changed = Signal(dict)

    def __init__(self, stats: StatsLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stats = stats
        self._values: dict[str, tuple[Any, str]] = {}  # chip -> (filter value, label)
        self._chips: dict[str, QToolButton] = {}
        # The chips wrap onto a second row in a narrow window, rather than widening it.
        layout = QFlowLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(6)
        layout.setVerticalSpacing(4)
        for name in CHIPS:
            chip = QToolButton(self)
            chip.setObjectName(f"chip_{name}")
            chip.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            chip.setStyleSheet(CHIP_STYLE)
            menu = QMenu(chip)
            menu.aboutToShow.connect(lambda n=name, m=menu: self._fill_menu(n, m))
            chip.setMenu(menu)
            layout.addWidget(chip)
            self._chips[name] = chip
        self._clear_button = QToolButton(self)
        self._clear_button.setText("Clear filters")
        self._clear_button.setAutoRaise(True)
        self._clear_button.clicked.connect(self.clear)
        layout.addWidget(self._clear_button)
        self._update_chips()

    def filters(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, (value, _label) in self._values.items():
            if name == "tag":
                out["tags"] = [value]
            elif isinstance(value, dict):  # a date range, by update or creation
                out.update(value)
            else:
                out[name] = value
        return out

    def value(self, name: str) -> Any:
        """What a chip is set to (None: not set)."""
        return self._values.get(name, (None, ""))[0]

    def set_value(self, name: str, value: Any, label: str | None = None) -> None:
        """Set a chip (None clears it) and announce the new filters."""
        self.show_value(name, value, label)
        self.filters_changed.emit(self.filters())

    def show_value(self, name: str, value: Any, label: str | None = None) -> None:
        """Set a chip (None clears it) without announcing it (the caller reloads)."""
        if value is None:
            self._values.pop(name, None)
        else:
            self._values[name] = (value, label or str(value))
        self._update_chips()

    @Slot()
    def clear(self) -> None:
        if self._values:
            self.reset()
            self.filters_changed.emit(self.filters())

    def reset(self) -> None:
        """Clear every chip without announcing it (the caller reloads once)."""
        self._values.clear()
        self._update_chips()

    def _update_chips(self) -> None:
        for name, chip in self._chips.items():
            value = self._values.get(name)
            chip.setText(f"{TITLES[name]}: {value[1]}  ✕" if value else f"{TITLES[name]}  ▾")
            chip.setProperty("active", value is not None)
            chip.style().unpolish(chip)
            chip.style().polish(chip)
        self._clear_button.setVisible(bool(self._values))

    def _fill_menu(self, name: str, menu: QMenu) -> None:
        """Menus are filled when opened, so project and tag choices are always current."""
        menu.clear()
        if name in self._values:
            menu.addAction(f"Any {TITLES[name].lower()}", lambda: self.set_value(name, None))
            menu.addSeparator()
        for value, label in self._choices(name):
            action = QAction(label, menu)
            action.triggered.connect(lambda _=False, v=value, la=label: self.set_value(name, v, la))
            menu.addAction(action)
        if name in ("agent", "project", "tag"):
            menu.addAction("Other…", lambda: self._ask(name))

    def _choices(self, name: str) -> list[tuple[Any, str]]:
        if name == "layer":
            return [(key, f"{key} {title}") for key, title in LAYER_NAMES.items()]
        if name == "kind":
            return [(k, k) for k in KINDS]
        if name == "source":
            return [(s, s) for s in SOURCES]
        if name == "since":
            # On the date the list shows (Updated): on the creation date, "Last 7 days" showed
            # rows dated a year ago and hid those edited today. (A range drawn on the
            # Timeline, which draws creation dates, is on those: `set_time_range`.)
            now = datetime.now(UTC)
            return [
                ({"changed_since": format_time(now - timedelta(days=d))}, label)
                for label, d in PERIODS
            ]
        if name in ("project", "tag", "agent"):
            counts = self._stats.latest.get(name + "s", {})
            ranked = sorted(counts, key=lambda k: -counts[k])[:CHOICES_SHOWN]
            return [(k, k) for k in ranked]
        return []

    def _ask(self, name: str) -> None:
        text, ok = QInputDialog.getText(self, TITLES[name], f"Show only this {name}:")
        if ok and text.strip():
            self.set_value(name, text.strip())
