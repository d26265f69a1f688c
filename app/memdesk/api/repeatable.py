"""Which methods a client may send again after a lost connection, without asking.

Its own small module: the Qt-free client (and the hooks, which run on every prompt) import it
without the method table's dataclasses.
"""

from __future__ import annotations

# Repeating one of these after a lost connection cannot store anything twice (a search only
# bumps recall counters), so a client may resend it to the next server without asking.
SAFE_TO_REPEAT = frozenset(
    {
        "system.ping",
        "system.describe",
        "system.hello",
        "system.show",
        "system.backups",
        "memory.get",
        "memory.history",
        "memory.list",
        "memory.count",
        "memory.search",
        "identity.get",
        "context.build",
        "events.subscribe",
        "events.unsubscribe",
        "stats",
        "export",
        "working_memory",
        "agents.list",
        "proposals.list",
    }
)
