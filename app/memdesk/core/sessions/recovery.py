"""An agent's earlier session that never ended: found at the agent's next start on the same
task (or in the same folder), its work given back in a recovery block and the session archived
as interrupted (`lifecycle.Sessions.session_start`), so what a crashed agent did is not lost
with it. A session whose host process still runs is another window at work, not a crash: it
is left alone.
"""

from __future__ import annotations

import os

import peewee

from memdesk.core.sessions.session_rows import same_opener
from memdesk.store import Observation, Session


def crashed_before(row: Session) -> Session | None:
    """This agent's latest earlier session on the same task (or folder) that never ended
    and left work behind. (Two sessions of one agent on one task at once would read as a
    crash; the other one's later calls still land, and its own end files its summary.)"""
    same = (Session.task == row.task) if row.task else (Session.cwd == row.cwd)
    worked = peewee.fn.EXISTS(Observation.select().where(Observation.session == Session.id))
    candidates = (
        Session.select()
        .where(
            same_opener(row)
            & same
            & (Session.id != row.id)
            & Session.ended_at.is_null()
            & (Session.started_at <= row.started_at)
            & worked
        )
        .order_by(Session.last_seen_at.desc())
        .limit(20)
    )
    return next((s for s in candidates if not _host_alive(s, row)), None)


def _host_alive(other: Session, row: Session) -> bool:
    """Whether `other` is still running in another host process (a second agent window in the
    same folder): its host is known, is not this session's host, and is alive."""
    pid = other.host_pid
    if pid is None or pid == row.host_pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists, owned by someone else: not ours to call dead
    return True
