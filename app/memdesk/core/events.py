"""Change notifications: how views and subscribed agents learn that memories changed.

Plain callbacks, no Qt: the window and the socket server each adapt them to a Qt signal.
Listeners run after the transaction commits, on the thread that wrote.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    event: str
    id: str
    version: int | None
    by: str
    purged: bool = False

    def to_dict(self) -> dict[str, object]:
        out = asdict(self)
        if not self.purged:
            del out["purged"]
        return out


Listener = Callable[[list[Change]], None]


class ChangeFeed:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Add a listener; returns the function that removes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def publish(self, changes: list[Change]) -> None:
        if not changes:
            return
        for listener in list(self._listeners):
            try:
                listener(changes)
            except Exception:
                # A broken view must not undo or hide a write that has already committed.
                logger.exception("change listener failed")
