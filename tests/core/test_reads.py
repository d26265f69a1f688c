"""Listing and counting memories: every filter, paging and sort order."""

from __future__ import annotations

import itertools

import pytest

from memdesk.core import SYSTEM, USER, ValidationError, agent
from memdesk.core.memory.reads import timeline_code
from memdesk.core.rules import KINDS


@pytest.fixture
def memories(service):
    """Six memories with distinct layers, kinds, sources, projects, tags, dates and states."""
    m = {
        "identity": service.add(
            "I prefer tabs over spaces",
            layer="L0",
            kind="preference",
            tags=["style"],
            created_at="2023-12-01",
            importance=0.9,
        ),
        "web_fact": service.add(
            "The web app uses Flask",
            project="web",
            task="t1",
            tags=["python", "web"],
            created_at="2024-01-10",
            importance=0.2,
        ),
        "web_decision": service.add(
            "We chose Postgres for the web app",
            kind="decision",
            project="web",
            tags=["python"],
            created_at="2024-03-01T00:00:00Z",
            actor=agent("claude"),
        ),
        "archive": service.add(
            "Session summary: migrated the API",
            layer="L2",
            kind="summary",
            project="api",
            created_at="2024-06-01",
            actor=SYSTEM,
        ),
        "deleted": service.add("An abandoned idea", created_at="2024-02-01"),
        "old": service.add("The office is in Berlin", created_at="2024-04-01"),
    }
    service.remove(m["deleted"]["id"])
    m["new"] = service.correct(m["old"]["id"], "The office is in Munich", created_at="2024-05-01")
    return {name: memory["id"] for name, memory in m.items()}


def _names(service, memories, **filters) -> set[str]:
    by_id = {v: k for k, v in memories.items()}
    found = {by_id[m["id"]] for m in service.list_memories(**filters)}
    assert service.count(**filters) == len(found)
    return found


ACTIVE = {"identity", "web_fact", "web_decision", "archive", "new"}


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({}, ACTIVE),
        ({"layer": "L1"}, {"web_fact", "web_decision", "new"}),
        ({"layers": ["L0", "L2"]}, {"identity", "archive"}),
        ({"project": "web"}, {"web_fact", "web_decision"}),
        ({"task": "t1"}, {"web_fact"}),
        ({"tags": ["python"]}, {"web_fact", "web_decision"}),
        ({"tags": ["python", "web"]}, {"web_fact"}),
        ({"tags": ["python", "style"]}, set()),
        ({"kind": "decision"}, {"web_decision"}),
        ({"kind": ["preference", "summary"]}, {"identity", "archive"}),
        ({"source": "agent"}, {"web_decision"}),
        ({"source": "system"}, {"archive"}),
        ({"agent": "claude"}, {"web_decision"}),
        ({"status": "deleted"}, {"deleted"}),
        ({"status": "inactive"}, {"old"}),
        ({"status": ["active", "deleted"]}, ACTIVE | {"deleted"}),
        ({"status": None}, ACTIVE | {"deleted", "old"}),
        ({"since": "2024-03-01"}, {"web_decision", "archive", "new"}),
        ({"until": "2024-03-01T00:00:00Z"}, {"identity", "web_fact", "web_decision"}),
        ({"since": "2024-01-01", "until": "2024-04-30"}, {"web_fact", "web_decision"}),
        (
            {"since": "2024-01-01", "until": "2024-04-30", "status": None},
            {"web_fact", "web_decision", "deleted", "old"},
        ),
        ({"layer": "L1", "project": "web", "kind": "fact"}, {"web_fact"}),
    ],
)
def test_filters(service, memories, filters, expected):
    assert _names(service, memories, **filters) == expected


def test_filter_by_ids(service, memories):
    wanted = [memories["web_fact"], memories["archive"], memories["deleted"]]
    assert _names(service, memories, ids=wanted) == {"web_fact", "archive"}
    assert _names(service, memories, ids=wanted, status=None) == {
        "web_fact",
        "archive",
        "deleted",
    }


def test_order_and_paging(service, memories):
    oldest_first = [m["id"] for m in service.list_memories(order="created_at", status=None)]
    assert oldest_first[:3] == [memories["identity"], memories["web_fact"], memories["deleted"]]
    newest_first = [m["id"] for m in service.list_memories(order="-created_at", status=None)]
    assert newest_first == oldest_first[::-1]

    page = service.list_memories(order="created_at", status=None, offset=2, limit=3)
    assert [m["id"] for m in page] == oldest_first[2:5]
    assert service.list_memories(order="created_at", offset=100) == []


def test_order_by_importance_descending(service, memories):
    ranked = [m["id"] for m in service.list_memories(order="-importance")]
    assert ranked[0] == memories["identity"]
    assert ranked[-1] == memories["web_fact"]


def test_default_order_is_latest_change_first(service, memories):
    service.update(memories["web_fact"], content="The web app uses Flask 3")
    assert service.list_memories()[0]["id"] == memories["web_fact"]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"order": "colour"}, "order"),
        ({"order": "-id; DROP TABLE memory"}, "order"),
        ({"limit": 0}, "limit"),
        ({"offset": -1}, "offset"),
        ({"layer": "L7"}, "layer"),
        ({"status": "gone"}, "status"),
        ({"kind": "opinion"}, "kind"),
        ({"source": "robot"}, "source"),
        ({"since": "last week"}, "since"),
        ({"until": "2024-13-45"}, "until"),
        ({"tags": "python"}, "tags"),
        ({"ids": "not-a-list"}, "ids"),
    ],
)
def test_bad_list_options_are_refused_naming_the_field(service, memories, options, field):
    with pytest.raises(ValidationError) as caught:
        service.list_memories(**options)
    assert caught.value.field == field
    assert field in caught.value.message


def test_until_a_bare_date_includes_that_whole_day(service):
    service.add("written on the first of March", created_at="2024-03-01T18:30:00Z")
    service.add("written the day after", created_at="2024-03-02T08:00:00Z")
    listed = service.list_memories(until="2024-03-01")
    assert [m["content"] for m in listed] == ["written on the first of March"]


def test_times_ago_and_changes_since(service):
    from datetime import UTC, datetime, timedelta

    old = service.add("written ten days ago", created_at=datetime.now(UTC) - timedelta(days=10))
    fresh = service.add("written just now")
    edited = service.add("old but edited today", created_at=datetime.now(UTC) - timedelta(days=9))
    service.update(edited["id"], content="old but edited today, really")

    def ids(**filters):
        return {m["id"] for m in service.list_memories(**filters)}

    assert ids(since="7d") == {fresh["id"]}
    assert ids(since="2w") == {old["id"], fresh["id"], edited["id"]}
    assert ids(until="168h") == {old["id"], edited["id"]}
    # An edit is a change; so is a backdated memory entering memdesk now.
    assert edited["id"] not in ids(since="1h")
    assert ids(changed_since="1h") == {old["id"], fresh["id"], edited["id"]}
    assert service.count(changed_since="30m", since="1h") == 1


def test_status_all_means_any_status(service):
    kept = service.add("kept")
    gone = service.add("gone")
    service.remove(gone["id"])
    assert {m["id"] for m in service.list_memories(status="all")} == {kept["id"], gone["id"]}


@pytest.mark.parametrize("value", ["7x", "d7", "-3d", "seven days"])
def test_a_bad_time_ago_says_what_is_allowed(service, value):
    with pytest.raises(ValidationError, match="30m, 24h, 7d or 2w"):
        service.list_memories(since=value)


def test_the_dashboards_activity_figures(service):
    from datetime import UTC, datetime, timedelta

    service.add("today one")
    service.add("today two")
    service.add("long ago", created_at="2020-01-01T00:00:00Z")
    week_ago = datetime.now(UTC) - timedelta(days=7)
    service.add("last week, not recalled yet", created_at=week_ago.isoformat())
    service.search("today", actor=agent("claude-code"))
    service.search("today")  # the person's own search is no recall
    figures = service.dashboard(days=7)
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert figures["days"][-1] == today
    assert len(figures["days"]) == 7
    assert figures["added"][-1] == 2
    assert sum(figures["added"]) == 2
    assert figures["recalled"][-1] == 2
    assert figures["latency_ms"]["searches"] == 2
    stale = figures["prune_candidates"]  # old and never recalled; a new one is not stale yet
    assert [m["content"] for m in stale["oldest"]] == ["long ago"]
    assert stale["days"] == 156
    assert {m["content"] for m in figures["most_recalled"]} == {"today one", "today two"}


def test_words_sort_as_a_person_reads_them_whatever_their_case(service):
    for text in ("banana", "Apple", "cherry", "apricot"):
        service.add(text, dedup=False, project=text.upper() if text == "cherry" else text)
    assert [m["content"] for m in service.list_memories(order="content")] == [
        "Apple",
        "apricot",
        "banana",
        "cherry",
    ]
    assert [m["project"] for m in service.list_memories(order="-project")] == [
        "CHERRY",
        "banana",
        "apricot",
        "Apple",
    ]


def test_the_timeline_reads_edits_in_proportion_to_edits_not_to_the_store(service):
    # Asked memory by memory, the edits cost a probe of the version index for every memory
    # in the store (35-90 ms of the Timeline's load at 100,000 memories for 10,000 edits).
    ids = [m["id"] for m in service.add_many([{"content": f"note {n}"} for n in range(2000)])]
    service.update(ids[7], content="note seven, edited")
    service.update(ids[1500], content="note 1500, edited")
    statements: list[str] = []
    ticks: dict[str, int] = {}

    def tick() -> int:
        if statements:
            ticks[statements[-1]] = ticks.get(statements[-1], 0) + 1
        return 0

    connection = service.database.connection()
    connection.set_trace_callback(statements.append)
    connection.set_progress_handler(tick, 10)
    try:
        columns = service.timeline()
    finally:
        connection.set_progress_handler(None, 10)
        connection.set_trace_callback(None)
    assert sorted(edit[0] for edit in columns["edits"]) == sorted([ids[7], ids[1500]])
    assert list(columns["t"]) == sorted(columns["t"])  # oldest first
    edits_work = [n for sql, n in ticks.items() if "memory_version" in sql]
    assert edits_work, ticks
    assert max(edits_work) < 100, ticks  # in tens of VM instructions


def test_the_timeline_codes_layer_writer_and_kind_as_its_python_twin_does(service):
    # SQL computes the code the Timeline draws from; As-of recomputes it in Python.
    written = {}
    added = service.add("an agent's note", actor=agent("tester"))
    written[added["id"]] = timeline_code("L1", "agent", "fact")
    for layer, kind in itertools.product(("L1", "L2"), KINDS):
        for source, actor in (("user", USER), ("system", SYSTEM)):
            added = service.add(f"{layer} {kind} {source}", layer=layer, kind=kind, actor=actor)
            written[added["id"]] = timeline_code(layer, source, kind)
    columns = service.timeline()
    drawn = dict(zip(columns["id"], columns["code"], strict=True))
    assert {i: drawn[i] for i in written} == written
    assert len(set(written.values())) == len(written)  # no two combinations share a code
