"""Search: filters, what counts as a recall, and the retrieval log."""

from __future__ import annotations

import pytest

from memdesk.core import ValidationError, agent


@pytest.fixture
def corpus(service):
    made = {
        "flask": service.add(
            "The web app is built with Flask and served by gunicorn",
            project="web",
            task="t1",
            tags=["python", "backend"],
            created_at="2024-01-10",
        ),
        "react": service.add(
            "The web frontend is built with React",
            project="web",
            tags=["javascript"],
            created_at="2024-05-10",
        ),
        "cli": service.add(
            "The command line tool is built with argparse",
            project="tools",
            tags=["python"],
            created_at="2024-03-10",
        ),
        "summary": service.add(
            "Session: built the web deploy pipeline",
            layer="L2",
            kind="summary",
            project="web",
            created_at="2024-06-10",
        ),
    }
    return {name: m["id"] for name, m in made.items()}


def _found(service, corpus, query, **options) -> set[str]:
    by_id = {v: k for k, v in corpus.items()}
    return {by_id[h["id"]] for h in service.search(query, record=False, **options)["hits"]}


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, {"flask", "react", "cli", "summary"}),
        ({"layers": ["L1"]}, {"flask", "react", "cli"}),
        ({"layer": "L2"}, {"summary"}),
        ({"project": "web"}, {"flask", "react", "summary"}),
        ({"task": "t1"}, {"flask"}),
        ({"tags": ["python"]}, {"flask", "cli"}),
        ({"tags": ["python", "backend"]}, {"flask"}),
        ({"since": "2024-03-01"}, {"react", "cli", "summary"}),
        ({"until": "2024-04-01"}, {"flask", "cli"}),
        ({"k": 1}, None),
    ],
)
def test_search_filters(service, corpus, options, expected):
    found = _found(service, corpus, "built", **options)
    if expected is None:
        assert len(found) == 1
    else:
        assert found == expected


def test_a_hit_carries_what_an_agent_needs(service, corpus):
    hit = service.search("gunicorn", record=False)["hits"][0]
    assert hit["id"] == corpus["flask"]
    assert hit["content"].startswith("The web app is built with Flask")
    assert (hit["layer"], hit["kind"], hit["project"], hit["source"]) == (
        "L1",
        "fact",
        "web",
        "user",
    )
    assert hit["tags"] == ["python", "backend"]
    assert hit["created_at"] == "2024-01-10T00:00:00.000Z"
    assert isinstance(hit["score"], float)


def test_tags_are_searchable(service, corpus):
    assert _found(service, corpus, "javascript") == {"react"}


def test_stemming_finds_other_forms_of_a_word(service, corpus):
    assert "flask" in _found(service, corpus, "serving")


def test_the_best_match_comes_first(service, corpus):
    hits = service.search("React frontend", record=False)["hits"]
    assert hits[0]["id"] == corpus["react"]
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


def test_operators_typed_by_a_user_are_plain_words(service, corpus):
    assert "flask" in _found(service, corpus, 'NOT "flask" AND -gunicorn* OR (content: ^flask')


def test_superseded_memories_only_with_include_inactive(service, corpus):
    new = service.correct(corpus["react"], "The web frontend is built with Svelte")
    assert _found(service, {**corpus, "svelte": new["id"]}, "frontend") == {"svelte"}
    assert _found(service, {**corpus, "svelte": new["id"]}, "frontend", include_inactive=True) == {
        "react",
        "svelte",
    }


def test_deleted_memories_are_never_found(service, corpus):
    service.remove(corpus["cli"])
    assert "cli" not in _found(service, corpus, "argparse", include_inactive=True)


def test_an_agents_search_counts_as_a_recall_of_what_it_returned(service, corpus):
    found = service.search("gunicorn", actor=agent("claude"))["hits"]
    assert [h["id"] for h in found] == [corpus["flask"]]
    flask = service.get(corpus["flask"])
    assert flask["recall_count"] == 1
    assert flask["last_recalled_at"] is not None
    assert service.get(corpus["react"])["recall_count"] == 0
    service.search("gunicorn flask", actor=agent("cursor"))
    assert service.get(corpus["flask"])["recall_count"] == 2


def test_the_persons_own_search_is_logged_but_is_no_recall(service, corpus):
    service.search("gunicorn")
    assert service.get(corpus["flask"])["recall_count"] == 0
    assert service.get(corpus["flask"])["last_recalled_at"] is None
    assert [entry["query"] for entry in service.retrieval_log()] == ["gunicorn"]


def test_each_search_is_logged(service, corpus):
    result = service.search("python built", project="web", k=5, actor=agent("claude"))
    log = service.retrieval_log()
    assert len(log) == 1
    entry = log[0]
    assert (entry["client"], entry["query"]) == ("agent:claude", "python built")
    assert entry["filters"]["project"] == "web"
    assert entry["filters"]["statuses"] == ["active"]
    assert entry["results"] == [[h["id"], h["score"]] for h in result["hits"]]
    assert entry["took_ms"] >= 0
    assert entry["at"] >= service.get(corpus["flask"])["updated_at"]


def test_a_search_that_finds_nothing_is_logged_too(service, corpus):
    assert service.search("zeppelin")["hits"] == []
    assert service.retrieval_log()[0]["results"] == []


def test_a_search_with_record_false_writes_nothing(service, corpus, dump):
    before = dump()
    assert service.search("gunicorn", record=False)["hits"]
    assert dump() == before
    assert service.retrieval_log() == []


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"k": 0}, "k"),
        ({"k": 101}, "k"),
        ({"layers": ["L4"]}, "layer"),
        ({"since": "soon"}, "since"),
    ],
)
def test_bad_search_options_name_the_field(service, corpus, options, field):
    with pytest.raises(ValidationError) as caught:
        service.search("built", **options)
    assert caught.value.field == field
    assert service.retrieval_log() == []


@pytest.fixture
def python_notes(service):
    """100 memories that all say "python": the 10 oldest say it most."""
    strong = [{"content": "python " * 10 + f"guide {n}"} for n in range(10)]
    weak = [{"content": f"python tip {n}"} for n in range(90)]
    added = service.add_many(strong + weak, dedup=False)
    return [m["id"] for m in added[:10]], [m["id"] for m in added[-61:]]


def test_a_relevant_old_memory_beats_thousands_of_newer_weak_matches(service):
    old = service.add_many(
        [{"content": "python " * 8 + f"packaging guide {n}"} for n in range(3)], dedup=False
    )
    service.add_many(
        [{"content": f"a tip {n} that mentions python once"} for n in range(6000)], dedup=False
    )
    hits = [h["id"] for h in service.search("python", k=10)["hits"]]
    assert set(hits[:3]) == {m["id"] for m in old}


def test_a_project_search_returns_the_projects_best_when_others_match_better(service):
    service.add_many(
        [{"content": "deploy " * 5 + f"runbook {n}", "project": "big"} for n in range(300)],
        dedup=False,
    )
    side = service.add_many(
        [{"content": "deploy " * 8 + f"side runbook {n}", "project": "side"} for n in range(2)]
        + [{"content": f"side note {n}: deploy on tuesdays", "project": "side"} for n in range(5)],
        dedup=False,
    )
    hits = service.search("deploy", k=10, project="side")["hits"]
    assert {h["id"] for h in hits} == {m["id"] for m in side}
    layered = service.search("deploy", k=10, layers=["L1"], project="side")["hits"]
    assert {h["id"] for h in layered} == {m["id"] for m in side}


def test_a_selective_query_ranks_every_match(service, python_notes):
    strongest, _newest = python_notes
    hits = [h["id"] for h in service.search("python", k=10)["hits"]]
    assert set(hits) == set(strongest)


def test_a_script_that_never_closes_the_service_still_records_its_searches(tmp_path):
    import sqlite3
    import subprocess
    import sys

    db = tmp_path / "script.db"
    script = (
        "from memdesk.core import MemoryService, agent\n"
        f"service = MemoryService.open({str(db)!r})\n"
        "service.add('the release checklist lives in docs/release.md')\n"
        "service.search('release checklist', actor=agent('a'))\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    with sqlite3.connect(db) as con:
        logged = con.execute("SELECT count(*) FROM retrieval_log").fetchone()[0]
        recalled = con.execute("SELECT recall_count FROM memory").fetchone()[0]
    assert (logged, recalled) == (1, 1)


def test_a_filter_few_matches_pass_still_finds_every_one(service, python_notes):
    # Only the first of these ranks among the best "python" notes overall; a project filter
    # must not lose the other two behind the candidates ranked first.
    texts = ["python python python python python python python python python python side"] + [
        f"python is also what the side project's build scripts use, note {n}" for n in range(2)
    ]
    rare = service.add_many([{"content": t, "project": "side"} for t in texts], dedup=False)
    hits = service.search("python", k=10, project="side")["hits"]
    assert {h["id"] for h in hits} == {m["id"] for m in rare}


def test_a_project_search_weighs_words_by_how_rare_they_are_in_the_project(service):
    """ "gazebo" is common in the store but rare in the project, "paint" the other way round:
    within the project, the memory about the gazebo is the best match for both words."""
    service.add_many(
        [{"content": f"the gazebo plan {n}", "project": "other"} for n in range(400)],
        dedup=False,
    )
    gazebo = service.add("The gazebo is old and grey", project="home")
    service.add_many(
        [{"content": f"paint job number {n} done", "project": "home"} for n in range(30)]
        + [{"content": f"home errand {n}", "project": "home"} for n in range(10)],
        dedup=False,
    )
    hits = service.search("gazebo paint", k=5, project="home")["hits"]
    assert hits[0]["id"] == gazebo["id"]


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("guni", ["flask"]),  # the word being typed is a prefix
        ("flask guni", ["flask"]),
        ("gunicorn", ["flask"]),
        ("guni ", []),  # a space ends it: a whole word again, and there is none
        ("gu", []),  # two letters would match too much of a big store: a word
    ],
)
def test_the_word_being_typed_matches_as_a_prefix(service, corpus, typed, found):
    hits = service.search(typed, typing=True)["hits"]
    assert [h["id"] for h in hits] == [corpus[name] for name in found]


def test_without_typing_a_partial_word_is_not_a_prefix(service, corpus):
    assert service.search("guni")["hits"] == []


def test_a_hits_score_says_how_it_ranked_even_for_words_every_memory_holds(service):
    """BM25 of words most memories hold is tiny: rounded to four places, every hit a red team
    saw read 0.0."""
    for n in range(3):
        service.add(f"install packages with the tool, note {n}")
    hits = service.search("install packages")["hits"]
    assert all(h["score"] > 0 for h in hits)


@pytest.mark.parametrize(
    "query", ["release before 9999-12-31", "since 0001-01-01", "on Dec 31 9999", "Dec 9999"]
)
def test_a_date_at_the_end_of_the_calendar_is_searched_not_an_internal_error(service, query):
    """A red team's prompt naming 9999-12-31 failed every search, context and prompt hook with
    an OverflowError."""
    service.add("the release checklist lives in RELEASE.md")
    hits = service.search(query)["hits"]
    assert isinstance(hits, list)
    assert service.build_context(query, actor=agent("claude"))["text"] is not None


def test_the_retrieval_log_keeps_the_newest_searches_and_short_queries(service, monkeypatch):
    """An agent's 4 KB searches, no write budget applying, grew the file 140 MB a minute."""
    from memdesk.core.search import recall

    monkeypatch.setattr(recall, "LOG_KEEP", 50)
    claude = agent("claude")
    for n in range(120):
        service.search(f"query {n} " + "x" * 4000, actor=claude)
    service.flush_recalls()
    log = service.retrieval_log(limit=1000)
    assert len(log) == 50
    assert log[0]["query"].startswith("query 119 ")
    assert all(len(entry["query"]) <= recall.LOG_QUERY_CHARS for entry in log)


def test_stats_name_the_most_used_tags_and_count_the_rest(service, monkeypatch):
    """Agents' 512,000 distinct tags made a 32 MB answer: past what the server sends, the
    person's `memdesk stats` failed."""
    from memdesk.core.views import stats

    monkeypatch.setattr(stats, "TOP_TAGS", 200)

    service.add_many(
        [{"content": f"note {n}", "tags": [f"t{n}a", f"t{n}b", "common"]} for n in range(150)],
        actor=agent("tagger"),
        dedup=False,
    )
    counted = service.stats()
    assert len(counted["tags"]) == stats.TOP_TAGS
    assert next(iter(counted["tags"].items())) == ("common", 150)
    assert counted["more_tags"] == 301 - stats.TOP_TAGS
