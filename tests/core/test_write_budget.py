"""An agent's write budget: a burst is fine, a flood is refused with the reason, the person is
told; the person's own writes have no budget."""

from __future__ import annotations

import pytest

from memdesk.core import agent
from memdesk.core.errors import TooMany
from memdesk.core.write_budget import WriteBudgets

CLAUDE = agent("claude-code")


def test_a_flood_is_refused_with_when_to_retry_and_the_person_is_told(service, monkeypatch):
    monkeypatch.setattr(service, "_budgets", WriteBudgets(writes_per_minute=60))
    for _ in range(60):  # a burst the size of the budget is fine
        service.admit(CLAUDE, writes=True)
    with pytest.raises(TooMany, match="over its write budget of 60 memories a minute; retry in"):
        service.admit(CLAUDE, writes=True)
    service.admit(agent("cursor"), writes=True)  # another agent has its own budget
    service.admit(CLAUDE, writes=False)  # reads are not budgeted
    [overrun] = service.over_budget()
    assert (overrun.agent, overrun.refused) == ("claude-code", 1)


def test_a_batch_over_the_byte_budget_is_refused_whole(service, monkeypatch):
    monkeypatch.setattr(service, "_budgets", WriteBudgets(bytes_per_minute=1000))
    service.admit(CLAUDE, writes=True, memories=5, size=600)
    with pytest.raises(TooMany, match="a minute; retry in"):
        service.admit(CLAUDE, writes=True, memories=5, size=600)
    service.admit(CLAUDE, writes=True, memories=5, size=300)  # nothing was taken before


def test_the_persons_writes_have_no_budget(service, monkeypatch):
    monkeypatch.setattr(service, "_budgets", WriteBudgets(writes_per_minute=1))
    from memdesk.core import USER

    for _ in range(10):
        service.admit(USER, writes=True)
    assert service.over_budget() == []
