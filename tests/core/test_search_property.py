"""Any text a user or agent types is a valid query: search never raises for it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.core import MemoryService, agent

FTS_SYNTAX = [
    '"',
    "'",
    "AND",
    "OR",
    "NOT",
    "NEAR",
    "NEAR(",
    "-",
    "*",
    ":",
    "^",
    "(",
    ")",
    "{",
    "}",
    "+",
    "content:",
    "tags:",
    "rank:",
    "memory_fts",
    "\\",
    "_",
    "\x00",
    "😀",
    "👩‍💻",
    "é",
    "café",
    "日本語",
    "ß",
    "python",
    "deploy",
]

pieces = st.lists(st.sampled_from(FTS_SYNTAX) | st.text(max_size=8), max_size=12)
hostile = st.one_of(
    st.text(),
    pieces.map(" ".join),
    pieces.map("".join),
    # about 10 kB of text: one random chunk repeated
    st.text(min_size=1, max_size=30).map(lambda s: (s * (10_240 // len(s) + 1))[:10_240]),
)


@pytest.fixture(scope="module")
def searchable(tmp_path_factory):
    service = MemoryService.open(tmp_path_factory.mktemp("property") / "memdesk.db")
    service.add("Deploy the python service with docker", tags=["deploy", "python"])
    service.add('Quotes "like this" and NEAR(a b) are plain text', dedup=False)
    service.add("Café au lait ☕ and 日本語 and emoji 😀", layer="L0", dedup=False)
    service.add("Archive: migrated the store", layer="L2", kind="summary", dedup=False)
    yield service
    service.close()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=hostile, include_inactive=st.booleans())
def test_search_never_raises(searchable, query, include_inactive):
    result = searchable.search(query, include_inactive=include_inactive, actor=agent("fuzz"))
    assert isinstance(result["hits"], list)
    for hit in result["hits"]:
        assert isinstance(hit["score"], float)
        assert hit["content"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('"python', "Deploy the python service with docker"),
        ("deploy AND -docker*", "Deploy the python service with docker"),
        ("NEAR(a b)", 'Quotes "like this" and NEAR(a b) are plain text'),
        ("cafe", "Café au lait ☕ and 日本語 and emoji 😀"),
        ("store:", "Archive: migrated the store"),
    ],
)
def test_hostile_queries_still_find_their_words(searchable, query, expected):
    hits = searchable.search(query, record=False)["hits"]
    assert hits[0]["content"] == expected
