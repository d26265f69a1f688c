"""The prompt block for an agent, and session summaries for the archive."""

from __future__ import annotations

import pytest

from memdesk.core import SYSTEM, ValidationError, agent
from memdesk.core.search import concepts


@pytest.fixture
def knowledge(service):
    service.set_identity("I am Ana. I prefer short answers.")
    texts = [f"Deploy step {n}: run the deploy script in region {n} {'x' * 200}" for n in range(12)]
    ids = [service.add(text, dedup=False)["id"] for text in texts]
    service.add("Deploy summary in the archive", layer="L2", actor=SYSTEM)
    return ids


def test_the_block_has_identity_first_then_relevant_memories(service, knowledge):
    block = service.build_context("deploy", k=3)
    text = block["text"]
    assert text.startswith("<memory-context>\n## Identity\nI am Ana. I prefer short answers.\n")
    assert text.endswith("</memory-context>")
    assert text.index("## Identity") < text.index("## Relevant memories")
    assert len(block["ids"]) == 3
    for memory_id in block["ids"]:
        assert service.get(memory_id)["content"] in text
    assert "archive" not in text  # L2 is not knowledge
    assert block["size"] == len(text)


def test_the_block_without_identity_or_hits(service):
    block = service.build_context("anything")
    assert block == {
        "text": "<memory-context>\n</memory-context>",
        "ids": [],
        "size": len("<memory-context>\n</memory-context>"),
    }


@pytest.mark.parametrize("budget", [200, 300, 700, 1500, 4000])
def test_the_block_never_exceeds_its_budget_and_never_cuts_a_memory(service, knowledge, budget):
    block = service.build_context("deploy", k=12, budget_chars=budget)
    assert len(block["text"]) <= budget
    assert block["size"] == len(block["text"])
    for memory_id in block["ids"]:
        assert service.get(memory_id)["content"] in block["text"]
    # nothing was left out that would still have fitted
    room = budget - len(block["text"])
    heading = 0 if block["ids"] else len("## Relevant memories\n")
    for memory_id in set(knowledge) - set(block["ids"]):
        m = service.get(memory_id)
        line = f"- [{m['kind']}, {m['created_at'][:10]}] {m['content']}\n"
        assert len(line) + heading > room


def test_a_budget_too_small_for_the_identity_is_a_clear_error(service):
    service.set_identity("I am Ana. " * 60)
    with pytest.raises(ValidationError, match="too small for the identity") as caught:
        service.build_context("deploy", budget_chars=300)
    assert caught.value.field == "budget_chars"
    assert "use at least" in caught.value.message


def test_a_budget_below_the_minimum_is_refused(service):
    with pytest.raises(ValidationError) as caught:
        service.build_context("deploy", budget_chars=50)
    assert caught.value.field == "budget_chars"


def test_the_block_can_be_limited_to_a_project(service):
    mine = service.add("Deploy with ansible", project="mine")
    service.add("Deploy with ansible and terraform", project="theirs")
    assert service.build_context("deploy", project="mine")["ids"] == [mine["id"]]


def test_archive_session_writes_a_sectioned_summary_to_l2(service):
    summary = service.archive_session(
        what="Refactored the store.",
        decisions=["Use WAL", "  "],
        files=["store/db.py", "store/fts.py"],
        unfinished=[],
        commits=["abc1234"],
        project="memdesk",
        task="issue-3",
    )
    assert summary["content"] == (
        "Refactored the store.\n\n"
        "Decisions:\n- Use WAL\n\n"
        "Files:\n- store/db.py\n- store/fts.py\n\n"
        "Commits:\n- abc1234"
    )
    assert (summary["layer"], summary["kind"], summary["tags"]) == ("L2", "summary", ["session"])
    assert (summary["project"], summary["task"], summary["source"]) == (
        "memdesk",
        "issue-3",
        "system",
    )


def test_two_identical_sessions_are_two_summaries(service):
    first = service.archive_session(what="Daily sync", actor=agent("claude"))
    second = service.archive_session(what="Daily sync", actor=agent("claude"))
    assert first["id"] != second["id"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"what": "  "}, "what"), ({"what": "x", "decisions": "not a list"}, "decisions")],
)
def test_archive_session_names_a_bad_field(service, dump, fields, field):
    before = dump()
    with pytest.raises(ValidationError) as caught:
        service.archive_session(**fields)
    assert caught.value.field == field
    assert dump() == before


@pytest.mark.parametrize(
    ("content", "only_by_keyword"),
    [
        ("Migrations use UPDATE … RETURNING, never a read then a write.", True),
        ("The notes are updated weekly; UPDATE statements go through the ORM.", False),
        ("The changelog is updated on every release.", False),
    ],
)
def test_a_hit_matched_only_by_an_sql_keyword_is_told_apart(content, only_by_keyword):
    """Porter stemming makes "UPDATE" of "updated": such a hit says nothing of the prompt."""
    assert concepts.only_by_sql_keyword(content, "who updated the release notes") is only_by_keyword


@pytest.mark.parametrize(
    "prompt",
    [
        "can you do a heatmap of weekly occupancy by ward for Q3",
        "add a chart to the dashboard of remakes per week",
        "plot the loss curves for both runs",
    ],
)
def test_a_chart_asked_for_brings_the_persons_colour_rule(service, prompt):
    """A colour-blind person's rule shares no word with the charts they ask for: it came to
    the agent only when it fitted the session start's briefing."""
    rule = service.add(
        "The user is red-green colourblind, so use colourblind-safe palettes.", kind="preference"
    )
    service.add("Deploys go out on Tuesdays after the standup.")
    assert rule["id"] in service.build_context(prompt, actor=agent("claude-code"))["ids"]
