"""The memory service: the rules of memory, retrieval, export and import. No Qt.

Names are imported on first use: a process that needs one room (the guard's workers, spawned
afresh for a first pull) would otherwise import the whole service, ~0.2 s each.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memdesk.core.actor import SYSTEM, USER, Actor, agent
    from memdesk.core.errors import (
        Busy,
        DiskFull,
        IdentityFull,
        MemdeskError,
        NotAllowed,
        NotFound,
        ReadOnly,
        TooLarge,
        ValidationError,
        VersionConflict,
    )
    from memdesk.core.events import Change
    from memdesk.core.memory.steps import Step
    from memdesk.core.service import MemoryService

_WHERE = {
    **dict.fromkeys(("SYSTEM", "USER", "Actor", "agent"), "memdesk.core.actor"),
    **dict.fromkeys(
        (
            "Busy",
            "DiskFull",
            "IdentityFull",
            "MemdeskError",
            "NotAllowed",
            "NotFound",
            "ReadOnly",
            "TooLarge",
            "ValidationError",
            "VersionConflict",
        ),
        "memdesk.core.errors",
    ),
    "Change": "memdesk.core.events",
    "Step": "memdesk.core.memory.steps",
    "MemoryService": "memdesk.core.service",
}
__all__ = [  # noqa: RUF022 - as _WHERE has them
    "SYSTEM",
    "USER",
    "Actor",
    "agent",
    "Busy",
    "DiskFull",
    "IdentityFull",
    "MemdeskError",
    "NotAllowed",
    "NotFound",
    "ReadOnly",
    "TooLarge",
    "ValidationError",
    "VersionConflict",
    "Change",
    "Step",
    "MemoryService",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'memdesk.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value
