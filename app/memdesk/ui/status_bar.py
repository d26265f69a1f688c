"""The status bar: which database, where agents connect, how many are connected, counts."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from PySide6.QtWidgets import QLabel, QStatusBar, QWidget


class StatusBar(QStatusBar):
    """Permanent labels on the right; transient messages (e.g. "Undone") on the left."""

    def __init__(self, db_path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.counts = QLabel(self)
        self.agents = QLabel(self)
        self.socket = QLabel(self)
        self.database = QLabel(self)
        self.database.setText(f"Database: {_home_relative(db_path)}")
        self.database.setToolTip(str(db_path))
        for label in (self.counts, self.agents, self.socket, self.database):
            label.setContentsMargins(8, 0, 8, 0)
            self.addPermanentWidget(label)
        self.set_socket(None)
        self.set_agents(0)

    def set_socket(self, path: str | None) -> None:
        self.socket.setText(f"Socket: {_home_relative(Path(path))}" if path else "Socket: off")
        self.socket.setToolTip(
            f"Agents connect at {path}" if path else "Agents cannot connect (no socket server)"
        )

    def set_agents(self, count: int) -> None:
        self.agents.setText(f"{count} agent{'s' if count != 1 else ''} connected")

    def set_agent_names(self, names: list[str], modes: dict[str, str] | None = None) -> None:
        """Which agents are connected: the first few by name, every one in the tooltip; a
        paused or read-only one says so."""
        modes = modes or {}
        count = Counter(names)
        listed = [
            (f"{name} ×{n}" if n > 1 else name)
            + (f" ({modes[name].replace('_', '-')})" if name in modes else "")
            for name, n in sorted(count.items())
        ]
        shown = ", ".join(listed[:3]) + (f" +{len(listed) - 3}" if len(listed) > 3 else "")
        self.agents.setText(f"{len(names)} connected: {shown}" if names else "0 agents connected")
        self.agents.setToolTip("\n".join(listed) or "No agent is connected")

    def set_counts(self, shown: int, active: int) -> None:
        self.counts.setText(f"{shown:,} shown · {active:,} active")


def _home_relative(path: Path) -> str:
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)
