"""The memory service: the rules of memory, retrieval, export and import. No Qt.

The service and its undo steps are imported on first use: a process that needs one room (the
guard's workers, spawned afresh for a first pull) would otherwise import the whole service,
~0.2 s each.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from memdesk.core.actor import SYSTEM, USER, Actor, agent, host
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
from memdesk.core.giving_way import give_way

if TYPE_CHECKING:
    from memdesk.core.memory.steps import Step
    from memdesk.core.service import MemoryService

_LATER = {"MemoryService": "memdesk.core.service", "Step": "memdesk.core.memory.steps"}

__all__ = [
    "SYSTEM",
    "USER",
    "Actor",
    "Busy",
    "DiskFull",
    "ReadOnly",
    "Change",
    "IdentityFull",
    "MemdeskError",
    "MemoryService",
    "NotAllowed",
    "NotFound",
    "Step",
    "TooLarge",
    "ValidationError",
    "VersionConflict",
    "agent",
    "give_way",
    "host",
]


def __getattr__(name: str) -> Any:
    if name not in _LATER:
        raise AttributeError(f"module 'memdesk.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LATER[name]), name)
    globals()[name] = value
    return value
