"""Recorded steps: each action is all or nothing; undo and redo put back exactly what it did."""

from __future__ import annotations

import json

import pytest

from memdesk.core import SYSTEM, IdentityFull, MemoryService, VersionConflict
from memdesk.core.memory.steps import capture


def states(service: MemoryService) -> dict[str, dict]:
    """Every memory's undoable state (fields, status, links), by id."""
    ids = [m["id"] for m in service.list_memories(status=None, limit=10_000)]
    return capture(ids)


def roundtrip(service: MemoryService, action):
    """Run `action` recorded; check undo returns every memory to before and redo to after."""
    start = states(service)
    result, step = service.record(action)
    end = states(service)
    service.apply_step(step, undo=True)
    assert states(service) == start
    service.apply_step(step, undo=False)
    assert states(service) == end
    return result, step


def test_bulk_move_into_a_nearly_full_identity_changes_nothing(service):
    service.add("x" * 900, layer="L0")
    ids = [service.add(f"fact number {n} " + "y" * 20, dedup=False)["id"] for n in range(21)]
    before = states(service)
    with pytest.raises(IdentityFull) as refused:
        service.update_many(ids, {"layer": "L0"})
    assert "these 21 hold" in refused.value.message
    assert "Nothing was changed" in refused.value.message
    assert states(service) == before


def test_bulk_delete_and_restore_are_one_undoable_step(service):
    ids = [service.add(f"note {n}", dedup=False)["id"] for n in range(5)]
    roundtrip(service, lambda: service.remove_many(ids))
    assert service.count() == 0
    roundtrip(service, lambda: service.restore_many(ids))
    assert service.count() == 5


def test_a_bad_id_in_a_bulk_delete_deletes_nothing(service):
    ids = [service.add(f"note {n}", dedup=False)["id"] for n in range(3)]
    with pytest.raises(Exception, match="no memory with id"):
        service.remove_many([*ids, "ffffffff-0000-0000-0000-000000000000"])
    assert service.count() == 3


def test_undo_of_an_addition_removes_it_and_redo_brings_it_back_the_same(service):
    added, step = roundtrip(service, lambda: service.add("Prefers tabs", tags=["style"]))
    again = service.get(added["id"])
    assert (again["content"], again["tags"], again["created_at"]) == (
        "Prefers tabs",
        ["style"],
        added["created_at"],
    )
    service.apply_step(step, undo=True)
    assert service.count(status=None) == 0


def test_undo_of_a_correction_brings_back_the_original_and_drops_the_link(service):
    old = service.add("The API listens on 8080")
    new, _step = roundtrip(service, lambda: service.correct(old["id"], "The API listens on 9090"))
    assert service.get(old["id"])["status"] == "inactive"
    assert [link["id"] for link in service.get(new["id"])["links"]] == [old["id"]]


def test_a_step_is_refused_whole_when_a_memory_changed_since(service):
    a = service.add("first note")
    b = service.add("second note")
    _result, step = service.record(lambda: service.update_many([a["id"], b["id"]], {"tags": ["x"]}))
    service.update(b["id"], tags=["synced"], actor=SYSTEM)  # a sync, say
    with pytest.raises(VersionConflict, match="“second note” was changed since"):
        service.apply_step(step, undo=True)
    assert service.get(a["id"])["tags"] == ["x"]  # nothing half-undone


def test_a_change_to_another_field_does_not_block_undo(service):
    memory = service.add("note")
    _result, step = service.record(lambda: service.update(memory["id"], tags=["x"]))
    service.update(memory["id"], importance=0.9, actor=SYSTEM)
    service.apply_step(step, undo=True)
    assert (service.get(memory["id"])["tags"], service.get(memory["id"])["importance"]) == (
        [],
        0.9,
    )


def test_undo_after_empty_trash_says_why_it_cannot(service):
    memory = service.add("short-lived note")
    _result, step = service.record(lambda: service.remove(memory["id"]))
    service.empty_trash()
    with pytest.raises(VersionConflict, match="deleted permanently since"):
        service.apply_step(step, undo=True)


def test_restore_returns_a_corrected_memory_to_retired_not_to_active(service):
    old = service.add("The API listens on 8080")
    new = service.correct(old["id"], "The API listens on 9090")
    service.remove(old["id"])
    assert service.restore(old["id"])["status"] == "inactive"
    hits = [h["id"] for h in service.search("API listens")["hits"]]
    assert hits == [new["id"]]
    # From the Inactive view, restoring a retired memory still means "make it active".
    assert service.restore(old["id"])["status"] == "active"


def test_undo_of_an_import_reverts_what_it_changed_not_only_what_it_added(service, tmp_path):
    kept = service.add("The deploy runs on Fridays")
    document = json.loads(service.export("json"))
    document["memories"][0]["content"] = "The deploy runs on Mondays"
    fresh = {**document["memories"][0], "id": "2f1c3b8e-7d6a-4c5b-9e8f-0a1b2c3d4e5f"}
    fresh["content"] = "A new fact from the file"
    document["memories"].append(fresh)
    summary, _step = roundtrip(service, lambda: service.import_json(json.dumps(document)))
    assert (summary["added"], summary["changed"]) == (1, 1)
    assert service.get(kept["id"])["content"] == "The deploy runs on Mondays"


def test_identity_save_keeps_each_entry_its_author_and_history(service):
    name = service.add("Name: Ada", layer="L0")
    rule = service.add("Never push to main", layer="L0", actor=SYSTEM)
    shell = service.add("Uses zsh", layer="L0")
    text = service.identity()["text"].replace("Name: Ada", "Name: Ada Lovelace")
    _saved, step = roundtrip(service, lambda: service.set_identity(text.replace("\nUses zsh", "")))
    assert service.get(name["id"])["content"] == "Name: Ada Lovelace"
    assert service.get(name["id"])["version"] > 1
    untouched = service.get(rule["id"])
    assert (untouched["status"], untouched["source"], untouched["version"]) == (
        "active",
        "system",
        1,
    )
    assert service.get(shell["id"])["status"] == "deleted"  # the person removed its line
    service.apply_step(step, undo=True)
    assert service.identity()["ids"] == [name["id"], rule["id"], shell["id"]]


def test_a_purged_neighbour_does_not_block_undo_of_an_unrelated_link_change(service):
    # Found by the window's state machine: A was purged (its link to B went with it), and
    # undoing B's correction must only care about the link that correction added.
    a = service.add("The port is 8080")
    b = service.correct(a["id"], "The port is 9090")
    c, step = service.record(lambda: service.correct(b["id"], "The port is 9191"))
    service.remove(a["id"])
    service.empty_trash()
    service.apply_step(step, undo=True)
    assert service.get(b["id"])["status"] == "active"
    assert service.count(status=None) == 1
    service.apply_step(step, undo=False)
    assert [link["id"] for link in service.get(c["id"])["links"]] == [b["id"]]


def test_undo_puts_back_whose_words_a_memory_holds(service):
    """Undoing the acceptance of an agent's correction put the rule back in its project but
    left the agent's words marked as the person's (the window showed writer "user")."""
    from memdesk.core import agent

    rule = service.add("Never use npm here; use pnpm", project="web")
    fixed = service.correct(rule["id"], "Never use npm here; use pnpm 9", actor=agent("evil"))
    [item] = [i for i in service.inbox() if i["type"] == "update"]
    _result, step = service.record(lambda: service.accept([item["key"]]))
    service.apply_step(step, undo=True)
    back = service.get(fixed["id"])
    assert (back["source"], back["agent"]) == ("agent", "evil")
    assert service.get(rule["id"])["status"] == "active"
    service.apply_step(step, undo=False)
    assert service.get(fixed["id"])["source"] == "user"
    note = service.add("The cache is warmed at boot", actor=agent("evil"))
    roundtrip(service, lambda: service.update(note["id"], content="The cache is warmed at 06:00"))


def test_undoing_a_step_never_brings_back_a_memory_it_only_touched_and_was_purged_since(service):
    """The window's state machine: two memories moved into the identity, one of them there
    already (the step touched it, changed none of its fields); that one was deleted and
    purged (Empty Trash); undoing the move put the purged memory back."""
    already = service.add("Rules: keep it short and plain", layer="L0")
    moved = service.add("alpha alpha")
    _, step = service.record(
        lambda: service.update_many([already["id"], moved["id"]], {"layer": "L0"})
    )
    assert already["id"] in step.ids
    service.remove(already["id"])
    service.empty_trash()
    service.apply_step(step, undo=True)
    assert [m["id"] for m in service.list_memories(status=None)] == [moved["id"]]
