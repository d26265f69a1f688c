"""Peewee models: the shape of a memory, its past versions, links and the retrieval log.

The tables themselves are created by numbered migrations (`migrations.py`), not from these
classes, so a model edit can never silently change an existing user's schema.
"""

from __future__ import annotations

import peewee

from memdesk.store.db import DB


class BaseModel(peewee.Model):
    class Meta:
        database = DB
        legacy_table_names = False
        # Saving only changed fields keeps the FTS update trigger from re-indexing a row
        # whose text did not change (a status flip, a counter).
        only_save_dirty = True


# What a memory's counters hold at most: far past a lifetime of searches, and far from
# SQLite's largest integer, where one more search made the count a REAL that no export
# could carry back (red team 41).
MAX_COUNT = 1_000_000_000_000


class Memory(BaseModel):
    # The integer key is the FTS rowid; a bare rowid could be renumbered by VACUUM.
    id = peewee.AutoField()
    uuid = peewee.TextField(unique=True)
    layer = peewee.TextField()
    kind = peewee.TextField()
    content = peewee.TextField()
    source = peewee.TextField()
    agent = peewee.TextField(null=True)
    status = peewee.TextField(default="active")
    created_at = peewee.TextField()
    updated_at = peewee.TextField()
    project = peewee.TextField(null=True)
    task = peewee.TextField(null=True)
    tags = peewee.TextField(default="[]")  # JSON array of strings
    importance = peewee.FloatField(default=0.5)
    recall_count = peewee.IntegerField(default=0)
    last_recalled_at = peewee.TextField(null=True)
    reinforce_count = peewee.IntegerField(default=0)
    version = peewee.IntegerField(default=1)
    supersedes = peewee.TextField(null=True)  # uuid of the memory this one corrected
    # Derived search text (e.g. neighbouring turns of the same task); indexed, never shown.
    context = peewee.TextField(default="")
    visibility = peewee.TextField(default="shared")  # shared | private (to `agent`)
    # Why agents may not see it yet (JSON list): the injection guard's reasons, or that its
    # writer was unsure; the person clears it in the inbox. NULL: nothing withheld.
    flag = peewee.TextField(null=True)
    confidence = peewee.FloatField(null=True)  # the writer's own, when it gave one
    inject = peewee.BooleanField(default=True)  # False: the person said "don't bring this up"
    writer = peewee.TextField(null=True)  # person@machine, for a memory that came through sync

    class Meta:
        table_name = "memory"


class MemoryVersion(BaseModel):
    """One row per change: the full state the memory had *before* the change, and the change."""

    id = peewee.AutoField()
    memory = peewee.ForeignKeyField(Memory, backref="versions", on_delete="CASCADE")
    version = peewee.IntegerField()  # the version number of `state`
    state = peewee.TextField()  # JSON snapshot of the memory at that version
    changed_by = peewee.TextField()
    changed_at = peewee.TextField()
    change = peewee.TextField()  # update | correct | remove | restore | revert | import
    reason = peewee.TextField(null=True)

    class Meta:
        table_name = "memory_version"


class Link(BaseModel):
    id = peewee.AutoField()
    src = peewee.ForeignKeyField(Memory, backref="links_out", on_delete="CASCADE")
    dst = peewee.ForeignKeyField(Memory, backref="links_in", on_delete="CASCADE")
    relation = peewee.TextField()
    created_at = peewee.TextField()

    class Meta:
        table_name = "link"


class RetrievalLog(BaseModel):
    id = peewee.AutoField()
    at = peewee.TextField()
    client = peewee.TextField(null=True)
    query = peewee.TextField()
    filters = peewee.TextField(default="{}")  # JSON
    results = peewee.TextField(default="[]")  # JSON [[uuid, score], ...]
    took_ms = peewee.FloatField()

    class Meta:
        table_name = "retrieval_log"


class Session(BaseModel):
    """One agent session (the host's id): its place, when it was seen, how it ended."""

    id = peewee.TextField(primary_key=True)
    agent = peewee.TextField()
    project = peewee.TextField(null=True)
    task = peewee.TextField(null=True)
    cwd = peewee.TextField(null=True)
    started_at = peewee.TextField()
    last_seen_at = peewee.TextField()
    ended_at = peewee.TextField(null=True)  # None: still running, or crashed
    summary = peewee.TextField(null=True)  # uuid of its L2 summary
    host_pid = peewee.IntegerField(null=True)  # the agent host's process, when a hook knew it
    by_host = peewee.BooleanField(default=False)  # opened by a host's hooks, not an agent

    class Meta:
        table_name = "session"


class Injection(BaseModel):
    """What memdesk gave a session's model at one event: the memories, and its size."""

    id = peewee.AutoField()
    session = peewee.ForeignKeyField(Session, backref="injections", on_delete="CASCADE")
    at = peewee.TextField()
    event = peewee.TextField()  # start | prompt
    memories = peewee.TextField(default="[]")  # JSON uuids, in the order given
    chars = peewee.IntegerField()

    class Meta:
        table_name = "injection"


class Observation(BaseModel):
    """What one tool call left behind, as an extractor read it."""

    id = peewee.AutoField()
    session = peewee.ForeignKeyField(Session, backref="observations", on_delete="CASCADE")
    at = peewee.TextField()
    tool = peewee.TextField()
    kind = peewee.TextField()  # edit | write | read | command | search | todo | delegate | other
    importance = peewee.IntegerField()
    text = peewee.TextField()
    path = peewee.TextField(null=True)
    failed = peewee.BooleanField(default=False)

    class Meta:
        table_name = "observation"


class Proposal(BaseModel):
    """Something awaiting the person's decision: a memory a session end found but was not
    sure enough to store (kind: the memory's kind), sharing a private memory ("promote"), an
    update of an older memory ("update") or a merge of duplicates ("merge")."""

    id = peewee.AutoField()
    created_at = peewee.TextField()
    session_id = peewee.TextField(null=True)
    agent = peewee.TextField(null=True)
    kind = peewee.TextField()
    content = peewee.TextField()
    why = peewee.TextField()
    status = peewee.TextField(default="pending")
    memory = peewee.TextField(null=True)  # uuid once accepted
    subject = peewee.TextField(null=True)  # JSON uuids it concerns (update: new, old)
    support = peewee.IntegerField(default=1)  # sessions, agents or memories behind it
    reason = peewee.TextField(null=True)  # why the person rejected it
    decided_at = peewee.TextField(null=True)
    project = peewee.TextField(null=True)  # where a session end heard it: its memory's project

    class Meta:
        table_name = "proposal"


class Forgotten(BaseModel):
    """A memory the person deleted for good: only its id, version and when, so that a sync
    can tell the other machines (their copy goes to their Trash)."""

    uuid = peewee.TextField(primary_key=True)
    version = peewee.IntegerField()
    at = peewee.TextField()

    class Meta:
        table_name = "forgotten"
