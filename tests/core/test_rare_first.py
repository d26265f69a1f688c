"""Rare words first: what is ranked is ranked exactly as a full BM25 ranking would."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.core.search import frequency, rare_first, retrieval
from memdesk.core.search.filters import Filters

# Word i is held by about 0.8 / (i + 1) of the memories: one word in most, a long tail.
VOCABULARY = [f"word{chr(97 + i)}" for i in range(12)]


@pytest.fixture
def skewed(service):
    rng = random.Random(7)
    items = []
    for n in range(600):
        words = [w for i, w in enumerate(VOCABULARY) if rng.random() < 0.8 / (i + 1)]
        filler = " ".join(rng.choices(["alpha", "beta", "gamma"], k=rng.randint(0, 6)))
        items.append({"content": f"{' '.join(words * rng.randint(1, 2))} {filler} {n}"})
    service.add_many(items, dedup=False)
    return service


def _rank(match: str, n: int) -> list[tuple]:
    return retrieval._prefetched(match, Filters(), retrieval.WEIGHTS, n)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=5, unique=True),
    limit=st.integers(1, 40),
)
def test_the_memories_holding_a_rare_word_are_ranked_by_every_word(
    skewed, monkeypatch, words, limit
):
    monkeypatch.setattr(rare_first, "BUDGET", 60)
    got = rare_first.ranked(words, limit, _rank, retrieval._quoted)
    everything = _rank(retrieval._quoted(words), 10**6)
    parts = rare_first.split(words, frequency.Counts())
    if parts is not None:
        holders = {row[0] for row in _rank(retrieval._quoted(parts[0]), 10**6)}
        if len(holders) >= limit:  # fewer, and the others complete an exact ranking
            everything = [row for row in everything if row[0] in holders]
    # Words in most of the store are left out: their IDF is 1e-6, so scores move by less.
    assert [row[-1] for row in got] == pytest.approx(
        [row[-1] for row in everything[:limit]], abs=1e-4
    )


def test_common_words_still_order_the_memories_holding_a_rare_one(service, monkeypatch):
    monkeypatch.setattr(rare_first, "BUDGET", 100)
    service.add_many(
        [{"content": f"the weather report for the coast, day {n}"} for n in range(120)]
        + [{"content": f"the tide table for the coast, day {n}"} for n in range(900)],
        dedup=False,
    )
    # Ranked by "glacier" alone, the shorter memory would come first.
    both = service.add("Glacier weather turns fast: check the weather")
    rare = service.add("The glacier trip is booked for May")
    split = rare_first.split(["glacier", "weather"], frequency.Counts())
    assert split == (["glacier"], ["weather"])
    hits = service.search("glacier weather", k=5)["hits"]
    assert [h["id"] for h in hits[:2]] == [both["id"], rare["id"]]
    # Two rare-word holders cannot fill the page: the best common-word holders follow.
    assert [h["content"].startswith("the weather report") for h in hits[2:]] == [True] * 3


def test_a_small_store_is_never_split(service):
    service.add_many([{"content": f"the weather report, day {n}"} for n in range(50)])
    assert rare_first.split(["glacier", "weather"], frequency.Counts()) is None


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(st.sampled_from(VOCABULARY[:6]), min_size=2, max_size=4, unique=True),
    limit=st.integers(1, 60),
)
def test_the_memories_holding_every_word_are_taken_only_when_they_are_the_best(
    skewed, monkeypatch, words, limit
):
    monkeypatch.setattr(rare_first, "BUDGET", 60)
    every = rare_first._holding_every_word(words, limit, _rank, 0.0, frequency.Counts())
    if every is not None:
        best = _rank(retrieval._quoted(words), limit)
        assert [row[-1] for row in every] == pytest.approx([row[-1] for row in best], abs=1e-9)


def test_the_person_typing_two_words_sees_memories_holding_both(service):
    """A search box narrows: with enough memories holding both words, short memories saying
    one of them over and over no longer push them off the list (they would by BM25 alone)."""
    filler = "along the shore with the usual notes about tides and boats and gulls"
    service.add_many(
        [{"content": f"coast {filler} {n}"} for n in range(200)]
        + [{"content": f"coast weather {filler} {n}"} for n in range(30)]
        + [{"content": f"weather weather weather {n}"} for n in range(10)],
        dedup=False,
    )
    typed = service.search("coast weath", k=10, typing=True)["hits"]
    assert len(typed) == 10
    assert all("coast weather" in h["content"] for h in typed)
    # an agent's question is not typing: the best of either word, as before
    asked = service.search("coast weather", k=10)["hits"]
    assert any(h["content"].startswith("weather weather") for h in asked)


def test_a_few_letters_held_by_many_memories_show_their_newest_holders(service, monkeypatch):
    """'pyt' in a store where a great many memories hold a word it begins: the newest
    holders come first, ranked among themselves, without scoring every holder."""
    monkeypatch.setattr(rare_first, "BUDGET", 20)
    service.add_many([{"content": f"python note {n}"} for n in range(80)], dedup=False)
    service.add_many([{"content": f"other note {n}"} for n in range(20)], dedup=False)
    newest = service.add("pytest runs the python suite")
    hits = service.search("pyt", k=5, typing=True)["hits"]
    assert newest["id"] in [h["id"] for h in hits]
    assert all(h["content"].startswith(("python", "pytest")) for h in hits)
    scored: list[str] = []
    real = retrieval._prefetched
    monkeypatch.setattr(retrieval, "_prefetched", lambda *a: scored.append(a[0]) or real(*a))
    service.search("pyt", k=5, typing=True)
    assert scored == []  # no query ranked every holder by BM25


def test_few_holding_both_typed_words_come_first_then_the_newest_holders(service, monkeypatch):
    """Two typed words that few memories hold together, one of them held by many: those
    holding both lead, the newest holders of either fill the page, and no query ranks every
    holder of the broad word."""
    monkeypatch.setattr(rare_first, "BUDGET", 20)
    both = service.add("pytest cache directory lives in .pytest_cache")
    service.add_many([{"content": f"pytest note {n}"} for n in range(60)], dedup=False)
    ranked_all: list[str] = []
    real = retrieval._prefetched
    monkeypatch.setattr(retrieval, "_prefetched", lambda *a: ranked_all.append(a[0]) or real(*a))
    hits = service.search("pytest cac", k=5, typing=True)["hits"]
    assert hits[0]["id"] == both["id"]
    assert [h["content"] for h in hits[1:]] == [f"pytest note {n}" for n in (59, 58, 57, 56)]
    assert all(" AND " in match for match in ranked_all)  # only the narrow query was ranked
