"""The status bar tells the person when agent hooks failed (they fail open, silently)."""

from __future__ import annotations

from memdesk.api import hook_failures
from memdesk.ui.status_bar import StatusBar


def test_failed_hook_runs_show_with_their_reason(qtbot, tmp_path):
    db = tmp_path / "m.db"
    bar = StatusBar(db)
    qtbot.addWidget(bar)
    assert bar.hook_problems.isHidden()
    hook_failures.note(db, "SessionStart", "memdesk is not running")
    hook_failures.note(db, "UserPromptSubmit", "the database is locked")
    bar._on_check_failures()
    assert not bar.hook_problems.isHidden()
    assert bar.hook_problems.text() == "⚠ 2 hook failures"
    assert "the database is locked" in bar.hook_problems.toolTip()
    assert "memdesk doctor" in bar.hook_problems.toolTip()
    hook_failures.clear(db)
    bar._on_check_failures()
    assert bar.hook_problems.isHidden()


def test_an_agent_over_its_write_budget_is_named(qtbot, service, monkeypatch):
    import pytest

    from memdesk.core import agent
    from memdesk.core.errors import TooMany
    from memdesk.core.review.write_budget import WriteBudgets

    monkeypatch.setattr(service.rooms.controls, "_budgets", WriteBudgets(writes_per_minute=2))
    bar = StatusBar(service.path, over_budget=service.over_budget)
    qtbot.addWidget(bar)
    assert bar.flooding.isHidden()
    flood = agent("looping-bot")
    service.admit(flood, writes=True, memories=2)
    with pytest.raises(TooMany):
        service.admit(flood, writes=True)
    bar._on_check_failures()
    assert bar.flooding.text() == "⚠ looping-bot: over the write budget"
    assert "View ▸ Agents" in bar.flooding.toolTip()
