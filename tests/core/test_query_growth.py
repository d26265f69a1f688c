"""Every query the window, the CLI or an agent can start stays linear in the store.

A plan that looked fine on a small file counted links with two `IN (all ids)` lists that SQLite
crossed into N x N probes: 0.1 s at 1,000 memories, 1,006 s at 100,000, and the window never
opened. Timing that in a test is flaky; SQLite's own work is not. Each operation runs on a
store of N and of 4N memories (as many links, a tenth as many versions) and the VM
instructions it took are compared: linear work grows ~4x, quadratic ~16x. Every statement
run on the larger store is also read with EXPLAIN QUERY PLAN for a full scan inside a loop.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memdesk.core import MemoryService, agent

SMALL, LARGE = 400, 1600
GROWTH_LIMIT = 8.0  # x4 data: linear 4, n log n ~5, quadratic 16
TICK = 10  # the progress handler is called every TICK VM instructions of a statement
FLOOR_TICKS = 5000  # below 50,000 instructions on the larger store nothing can hang
AGENT = agent("claude-code")
# Tables whose size does not grow with the store (a row per agent, per setting, per remote).
BOUNDED = {"setting", "agent_mode", "schema_version", "sync_remote", "sqlite_master"}

# Work on one memory, or on the person's profile, must not grow with the store at all.
CONSTANT = {
    "get",
    "history",
    "update",
    "link",
    "unlink",
    "remove",
    "restore",
    "revert",
    "injected",
    "identity",
    "list first page",
    "list a project",
}
CONSTANT_LIMIT = 2.0

Operation = Callable[[MemoryService, list[str]], object]


def _session(service: MemoryService, ids: list[str]) -> None:
    service.session_start("s-probe", actor=AGENT, project="web", cwd="/tmp")
    service.session_prompt("s-probe", "how do we deploy the web app", actor=AGENT)
    service.observe("s-probe", "Bash", {"command": "pytest -q"}, "ok", actor=AGENT)
    service.working_memory("s-probe", actor=AGENT)
    service.session_end(
        "s-probe", actor=AGENT, transcript=[{"role": "user", "content": "I prefer uv."}]
    )


OPERATIONS: dict[str, Operation] = {
    "stats (person)": lambda s, ids: s.stats(),
    "stats (agent)": lambda s, ids: s.stats(actor=AGENT),
    "dashboard": lambda s, ids: s.dashboard(),
    "timeline": lambda s, ids: s.timeline(),
    "graph": lambda s, ids: s.graph(),
    "list first page": lambda s, ids: s.list_memories(limit=100),
    "list last page": lambda s, ids: s.list_memories(offset=len(ids) - 50, limit=50),
    "list by content": lambda s, ids: s.list_memories(order="content", limit=100),
    "list a project": lambda s, ids: s.list_memories(project="web", limit=100),
    "count": lambda s, ids: s.count(),
    "count a tag": lambda s, ids: s.count(tags=["deploy"]),
    "search": lambda s, ids: s.search("deploy cache", k=20),
    "search as typed": lambda s, ids: s.search("depl", typing=True, record=False),
    "search (agent)": lambda s, ids: s.search("deploy", actor=AGENT),
    "context": lambda s, ids: s.build_context("deploy the web app", project="web"),
    "get": lambda s, ids: s.get(ids[len(ids) // 2]),
    "history": lambda s, ids: s.history(ids[0]),
    "as of": lambda s, ids: s.as_of("2026-01-01T00:00:00Z"),
    "inbox": lambda s, ids: s.inbox(),
    "inbox count": lambda s, ids: s.inbox_count(),
    "proposals": lambda s, ids: s.proposals(),
    "injections": lambda s, ids: s.injections(),
    "injected": lambda s, ids: s.injected(ids[1]),
    "retrieval log": lambda s, ids: s.retrieval_log(),
    "agents": lambda s, ids: s.agents(),
    "identity": lambda s, ids: s.identity(),
    "sync status": lambda s, ids: s.sync_status(),
    "export markdown": lambda s, ids: s.export("markdown"),
    "check": lambda s, ids: s.check(),
    "add": lambda s, ids: s.add("deploy the web app with the blue pipeline, note 99"),
    "add (agent)": lambda s, ids: s.add("cache sharding runs nightly", actor=AGENT),
    "update": lambda s, ids: s.update(ids[2], content="edited deploy note"),
    "link": lambda s, ids: s.link(ids[3], ids[4]),
    "unlink": lambda s, ids: s.unlink(ids[3], ids[4]),
    "remove": lambda s, ids: s.remove(ids[5]),
    "restore": lambda s, ids: s.restore(ids[5]),
    "revert": lambda s, ids: s.revert(ids[2], 1),
    "session lifecycle": _session,
    "find duplicates": lambda s, ids: s.find_duplicates(),
}

WORDS = (
    "deploy cache sharding pipeline web api docker pytest socket timeout index query release "
    "branch review merge lint format schema migration"
).split()


def _build(path: Path, count: int) -> tuple[MemoryService, list[str]]:
    rng = random.Random(count)
    service = MemoryService.open(path)
    items = [
        {
            "content": " ".join(rng.choices(WORDS, k=8)) + f" note {n}",
            "tags": rng.sample(WORDS[:6], 2),
            "project": rng.choice(["web", "api", None]),
        }
        for n in range(count)
    ]
    ids = [m["id"] for m in service.add_many(items, dedup=False)]
    for memory_id in ids[: count // 10]:
        service.update(memory_id, content=f"revised {memory_id[:6]} deploy note")
    for n in range(count // 20):
        service.search(rng.choice(WORDS), actor=AGENT)
        service.add(f"deploy note {n} reworded with number {n + 1}", actor=AGENT)
    for n in range(count // 40):  # sessions, prompts and tool calls grow with use too
        session = f"s{n}"
        service.session_start(session, actor=AGENT, project="web")
        service.session_prompt(session, f"{rng.choice(WORDS)} {rng.choice(WORDS)}", actor=AGENT)
        service.observe(session, "Bash", {"command": f"pytest -k {n}"}, "ok", actor=AGENT)
    service.close()
    raw = sqlite3.connect(path)
    with raw:
        raw.executemany(
            "INSERT OR IGNORE INTO link (src_id, dst_id, relation, created_at) "
            "VALUES (?, ?, 'related', '2026-01-01T00:00:00Z')",
            [(rng.randint(1, count), rng.randint(1, count)) for _ in range(count)],
        )
    raw.close()
    return MemoryService.open(path), ids


@contextmanager
def _counting(service: MemoryService, statements: set[str]) -> Iterator[list[int]]:
    ticks = [0]

    def tick() -> int:
        ticks[0] += 1
        return 0

    connection = service.database.connection()
    connection.set_progress_handler(tick, TICK)
    connection.set_trace_callback(statements.add)
    try:
        yield ticks
    finally:
        connection.set_progress_handler(None, TICK)
        connection.set_trace_callback(None)


def _costs(tmp_path: Path, count: int, statements: set[str]) -> dict[str, int]:
    service, ids = _build(tmp_path / f"store{count}.db", count)
    costs = {}
    try:
        for name, operation in OPERATIONS.items():
            service.flush_recalls()
            with _counting(service, statements) as ticks:
                operation(service, ids)
                service.flush_recalls()
            costs[name] = ticks[0]
    finally:
        service.close()
    return costs


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> tuple[dict[str, int], dict[str, int], set[str], Path]:
    folder = tmp_path_factory.mktemp("growth")
    statements: set[str] = set()
    small = _costs(folder, SMALL, set())
    large = _costs(folder, LARGE, statements)
    return small, large, statements, folder / f"store{LARGE}.db"


def test_no_operation_grows_faster_than_the_store(measured):
    small, large, _, _ = measured
    grown = {
        name: round(large[name] / max(small[name], 1), 1)
        for name in OPERATIONS
        if large[name] > FLOOR_TICKS and large[name] > GROWTH_LIMIT * small[name]
    }
    assert grown == {}, f"work grew more than {GROWTH_LIMIT}x for 4x the store: {grown}"


def test_work_on_one_memory_does_not_grow_with_the_store(measured):
    small, large, _, _ = measured
    grown = {
        name: (small[name], large[name])
        for name in CONSTANT
        if large[name] > CONSTANT_LIMIT * max(small[name], 10)
    }
    assert grown == {}, f"instructions (in tens) at {SMALL} and {LARGE} memories: {grown}"


def loop_scans(plan: list[tuple[int, int, int, str]]) -> list[str]:
    """Full scans that run once per row of an outer loop: an inner table of a join, or a
    scan inside a correlated subquery."""
    rows = {row_id: (parent, detail) for row_id, parent, _, detail in plan}
    found = []
    seen_loop: set[int] = set()  # parents that already have a loop before this row
    for _, parent, _, detail in plan:
        is_loop = detail.startswith(("SCAN ", "SEARCH "))
        if detail.startswith("SCAN ") and _real_table(detail):
            inner_join = parent in seen_loop
            if inner_join or _correlated(rows, parent):
                found.append(detail)
        if is_loop:
            seen_loop.add(parent)
    return found


def _real_table(detail: str) -> bool:
    if "VIRTUAL TABLE" in detail or "CONSTANT ROW" in detail:
        return False
    table = detail.split()[1]
    return table not in BOUNDED


def _correlated(rows: dict[int, tuple[int, str]], parent: int) -> bool:
    while parent in rows:
        parent, detail = rows[parent]
        if detail.startswith("CORRELATED"):
            return True
    return False


def test_no_statement_scans_a_table_inside_a_loop(measured):
    *_, statements, path = measured
    connection = sqlite3.connect(path)
    scans = {}
    for sql in statements:
        if not re.match(r"\s*(SELECT|WITH|UPDATE|DELETE|INSERT)", sql, re.IGNORECASE):
            continue
        try:
            plan = connection.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
        except sqlite3.Error:  # a statement of a temporary table or function gone since
            continue
        if found := loop_scans(plan):
            scans[sql[:300]] = found
    connection.close()
    assert scans == {}


def test_the_scan_finder_sees_a_join_scanning_its_inner_table():
    plan = [(2, 0, 0, "SCAN link"), (5, 0, 0, "SCAN memory")]
    assert loop_scans(plan) == ["SCAN memory"]
    by_key = "SEARCH memory USING INTEGER PRIMARY KEY (rowid=?)"
    assert loop_scans([(2, 0, 0, "SCAN link"), (5, 0, 0, by_key)]) == []
    correlated = [(2, 0, 0, "SCAN link"), (4, 2, 0, "CORRELATED SCALAR SUBQUERY 1")]
    assert loop_scans([*correlated, (6, 4, 0, "SCAN memory_version")]) == ["SCAN memory_version"]
