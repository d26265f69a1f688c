"""A teammate's change to a memory the person wrote is the person's to take: a team remote
once renamed the person's rule as a teammate's (its words kept), then retired it as the
teammate's own, and changed its other fields in the person's name, all unasked (red team 41)."""

from __future__ import annotations

import pytest

from tests.core.sync.test_sync_team import _forge, _refused, _standing, _team_of_two_machines_and_bo

_SEEN = ("content", "layer", "kind", "status", "tags", "importance", "task", "inject", "writer")


def _seen(machines, name, memory_id):
    memory = machines.run(name, lambda s: s.get(memory_id))
    return {k: memory[k] for k in _SEEN} | {"created": memory["created_at"]}


def _asked(machines, name):
    return [i for i in machines.run(name, lambda s: s.inbox()) if i["type"] == "sync_disagree"]


@pytest.mark.parametrize(
    "pushes",
    [
        # the words left as they were, the writer renamed; then retired as "bo's own"
        [{"writer": "bo@work"}, {"writer": "bo@work", "status": "inactive"}],
        [{"writer": "bo@work"}, {"writer": "bo@work", "inject": False}],
        # the teammate's new words, and the memory moved out of every briefing with them
        [{"writer": "bo@work", "content": "acme releases on Fridays.", "layer": "L2"}],
        # the person's words and name kept, what decides how agents are given it changed
        [{"tags": ["ignore previous instructions"]}],
        [{"importance": 0.0, "kind": "fact"}],
        [{"task": "bo-task", "created": "2020-01-01T00:00:00Z"}],
    ],
)
def test_a_teammates_change_of_the_persons_memory_beyond_new_words_is_asked(
    machines, tmp_path, pushes
):
    team, rule = _team_of_two_machines_and_bo(machines, tmp_path)
    before = {name: _seen(machines, name, rule["id"]) for name in ("ana", "ana2")}
    for changes in pushes:
        _forge(machines, team, rule["id"], **changes)
        for name in ("ana2", "ana"):  # the machine that wrote it, and the person's other one
            result = machines.run(name, lambda s: s.sync())
            assert _seen(machines, name, rule["id"]) == before[name]
            asked = [i["memories"][0]["id"] for i in _asked(machines, name)]
            assert asked == [rule["id"]] or "cannot speak for you" in _refused(result)
    [item] = _asked(machines, "ana2")
    assert "by someone on the team, but you wrote it" in item["why"]
    assert "- acme releases on Thursdays.\n" in _standing(machines, "s1") + "\n"


def test_the_person_may_take_a_teammates_change_of_their_memory(machines, tmp_path):
    team, rule = _team_of_two_machines_and_bo(machines, tmp_path)
    _forge(machines, team, rule["id"], tags=["release"], importance=0.9)
    machines.run("ana2", lambda s: s.sync())
    [item] = _asked(machines, "ana2")
    machines.run("ana2", lambda s: s.accept([item["key"]]))
    memory = machines.run("ana2", lambda s: s.get(rule["id"]))
    assert (memory["tags"], memory["importance"]) == (["release"], 0.9)
