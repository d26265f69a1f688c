"""The Timeline's "As of" controls: a moment chosen by the box, its date, the red line on the
plot or Play (which replays how memory grew, from the first memory to now)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pyqtgraph as pg
from PySide6.QtCore import QDateTime, QObject, QTimer, QTimeZone, Signal
from PySide6.QtWidgets import QCheckBox, QDateTimeEdit, QPushButton, QWidget

PLAY_FRAMES = 60  # a replay takes this many steps, each loaded before the next
PLAY_FRAME_MS = 120


class AsOfControls(QObject):
    """`moment_changed(seconds)`: the moment to show (seconds since 1970, UTC), or None for
    now. Play waits while `busy()` (the last moment still loading)."""

    moment_changed = Signal(object)

    def __init__(
        self,
        parent: QWidget,
        plot: pg.PlotWidget,
        first_moment: Callable[[], float | None],
        busy: Callable[[], bool],
    ) -> None:
        super().__init__(parent)
        self._first_moment = first_moment  # the earliest memory's time: where Play starts
        self._busy = busy
        self.box = QCheckBox("As of", parent)
        self.box.setToolTip(
            "Show exactly the memories that were active at a moment, as they were then "
            "(drag the red line to move through time)"
        )
        self.box.toggled.connect(self._on_toggled)
        self.edit = QDateTimeEdit(parent)
        self.edit.setTimeZone(QTimeZone.utc())
        self.edit.setDisplayFormat("yyyy-MM-dd HH:mm 'UTC'")
        self.edit.setDateTime(QDateTime.currentDateTimeUtc())
        self.edit.setEnabled(False)
        self.edit.editingFinished.connect(self._on_edited)
        # A moment the person has not chosen is now: ticked an hour after the Timeline opened,
        # the box showed the store as it was then, without the memories added since.
        self._chosen = False
        self.play = QPushButton("Play", parent)
        self.play.setToolTip("Replay how memory grew, from the first memory to now")
        self.play.setCheckable(True)
        self.play.toggled.connect(self._on_play_toggled)
        self.line = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen("#d62728", width=2))
        self.line.setVisible(False)
        self.line.setZValue(10)  # over the points and the heat map
        self.line.sigPositionChangeFinished.connect(lambda: self.set_moment(self.line.value()))
        plot.addItem(self.line)
        self._timer = QTimer(self, interval=PLAY_FRAME_MS)
        self._timer.timeout.connect(self._play_step)
        self._play_at = self._play_end = self._play_step_s = 0.0

    def set_moment(self, seconds: float | None) -> None:
        """Show the memories active at `seconds` as they were; None: now."""
        self.box.blockSignals(True)
        self.box.setChecked(seconds is not None)
        self.box.blockSignals(False)
        self.edit.setEnabled(seconds is not None)
        self.line.setVisible(seconds is not None)
        self._chosen = seconds is not None
        if seconds is not None:
            self.line.setValue(seconds)
            self.edit.blockSignals(True)
            self.edit.setDateTime(QDateTime.fromSecsSinceEpoch(int(seconds), QTimeZone.utc()))
            self.edit.blockSignals(False)
        self.moment_changed.emit(seconds)

    def _on_toggled(self, on: bool) -> None:
        if not on:
            self.play.setChecked(False)
        elif not self._chosen:
            self.edit.setDateTime(QDateTime.currentDateTimeUtc())
        self.set_moment(self.edit.dateTime().toSecsSinceEpoch() if on else None)

    def _on_edited(self) -> None:
        if self.box.isChecked():
            self.set_moment(self.edit.dateTime().toSecsSinceEpoch())

    def _on_play_toggled(self, on: bool) -> None:
        self.play.setText("Stop" if on else "Play")
        if not on:
            self._timer.stop()
            return
        first = self._first_moment()
        if first is None:
            self.play.setChecked(False)
            return
        self._play_end = datetime.now(UTC).timestamp()
        self._play_step_s = max((self._play_end - first) / PLAY_FRAMES, 60.0)
        self._play_at = first
        self.set_moment(self._play_at)
        self._timer.start()

    def _play_step(self) -> None:
        if self._busy():
            return  # the previous frame is still loading: wait for it
        self._play_at += self._play_step_s
        if self._play_at >= self._play_end:
            self.play.setChecked(False)
            self._play_at = self._play_end
        self.set_moment(self._play_at)
