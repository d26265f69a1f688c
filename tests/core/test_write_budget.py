"""An agent's write budget: a burst is fine, a flood is refused with the reason, the person is
told; the person's own writes have no budget."""

from __future__ import annotations

import pytest

from memdesk.core import agent
from memdesk.core.errors import TooMany, ValidationError
from memdesk.core.review.write_budget import WriteBudgets

CLAUDE = agent("claude-code")


def test_a_flood_is_refused_with_when_to_retry_and_the_person_is_told(service, monkeypatch):
    monkeypatch.setattr(service.rooms.controls, "_budgets", WriteBudgets(writes_per_minute=60))
    for _ in range(60):  # a burst the size of the budget is fine
        service.admit(CLAUDE, writes=True)
    with pytest.raises(TooMany, match="over its write budget of 60 memories a minute; retry in"):
        service.admit(CLAUDE, writes=True)
    service.admit(agent("cursor"), writes=True)  # another agent has its own budget
    service.admit(CLAUDE, writes=False)  # reads are not budgeted
    [overrun] = service.over_budget()
    assert (overrun.agent, overrun.refused) == ("claude-code", 1)


def test_a_batch_over_the_byte_budget_is_refused_whole(service, monkeypatch):
    monkeypatch.setattr(service.rooms.controls, "_budgets", WriteBudgets(bytes_per_minute=1000))
    service.admit(CLAUDE, writes=True, memories=5, size=600)
    with pytest.raises(TooMany, match="a minute; retry in"):
        service.admit(CLAUDE, writes=True, memories=5, size=600)
    service.admit(CLAUDE, writes=True, memories=5, size=300)  # nothing was taken before


def test_the_persons_writes_have_no_budget(service, monkeypatch):
    monkeypatch.setattr(service.rooms.controls, "_budgets", WriteBudgets(writes_per_minute=1))
    from memdesk.core import USER

    for _ in range(10):
        service.admit(USER, writes=True)
    assert service.over_budget() == []


def test_the_inbox_gets_one_notice_per_overrun_not_one_per_refusal(service, monkeypatch):
    monkeypatch.setattr(service.rooms.controls, "_budgets", WriteBudgets(writes_per_minute=1))
    service.admit(CLAUDE, writes=True)
    for _ in range(5):
        with pytest.raises(TooMany):
            service.admit(CLAUDE, writes=True)
    [notice] = service.inbox()
    assert (notice["type"], notice["agent"]) == ("overrun", "claude-code")
    assert "went over its write budget" in notice["content"]
    assert "32 MiB a minute" in notice["why"]
    with pytest.raises(ValidationError, match="no words to edit"):
        service.accept([notice["key"]], content="something")
    service.accept([notice["key"]])  # seen: it leaves the Inbox and stores nothing
    assert service.inbox() == []
    assert service.count() == 0
    with pytest.raises(TooMany):  # a later overrun is a new notice
        service.admit(CLAUDE, writes=True)
    assert [item["type"] for item in service.inbox()] == ["overrun"]


def test_many_agent_names_share_one_budget_kept_by_name_for_the_person():
    """#33 item 6: the budget was per self-declared name: 68 names wrote 129,200 memories in
    30 s without a refusal."""
    budgets = WriteBudgets(writes_per_minute=100, bytes_per_minute=10**9)
    refused = []
    for n in range(68):
        try:
            budgets.charge(f"flood-{n:02d}", 20, 100)
        except TooMany as exc:
            refused.append(exc.message)
    assert len(refused) == 68 - 40  # together 8 times what one agent may write: 800 memories
    assert "all agents together are over their shared write budget of 800 memories" in refused[0]
    # the names are the person's to see: an agent that ran the budget down was told every
    # agent writing that minute, those that write only privately too
    assert "flood-00" not in refused[0]
    assert budgets.sharing[:2] == ["flood-00", "flood-01"]
    assert len(budgets.sharing) == 68
    budgets.charge("flood-00", 0, 0)  # nothing taken from its own budget by the refusals


def test_the_person_is_told_which_names_shared_the_budget_an_agent_is_not(service):
    quiet = agent("quiet-private-writer")
    service.admit(quiet, writes=True)
    refused = None
    for n in range(200):
        try:
            service.admit(agent(f"flood-{n:03d}"), writes=True, memories=500)
        except TooMany as exc:
            refused = exc.message
            break
    assert refused is not None
    assert "shared write budget" in refused
    assert "quiet-private-writer" not in refused
    notices = [i for i in service.inbox() if i["type"] == "overrun"]
    assert any("quiet-private-writer" in n["content"] for n in notices)
