"""The SQLite store: models, schema migrations and the FTS5 index. Knows nothing of Qt."""

from memdesk.store.bulk import among
from memdesk.store.db import DB, SchemaError, close_database, not_waiting, write_transaction
from memdesk.store.models import (
    MAX_COUNT,
    Forgotten,
    Injection,
    Link,
    Memory,
    MemoryVersion,
    Observation,
    Proposal,
    RetrievalLog,
    Session,
)
from memdesk.store.opening import open_database

__all__ = [
    "MAX_COUNT",
    "among",
    "DB",
    "Forgotten",
    "Injection",
    "Link",
    "Memory",
    "MemoryVersion",
    "Observation",
    "Proposal",
    "RetrievalLog",
    "Session",
    "SchemaError",
    "close_database",
    "open_database",
    "not_waiting",
    "write_transaction",
]
