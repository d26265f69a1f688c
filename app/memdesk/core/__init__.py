"""The memory service: the rules of memory, retrieval, export and import. No Qt."""

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
]
