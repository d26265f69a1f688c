"""A version taken by sync keeps, in this machine's history, who made it, why and when: it
read "sync by system (from origin, written by ada@desktop)" at the time this machine synced,
and the editor's reason was gone (sync tryout, stop 91, #5)."""

from __future__ import annotations

WHY = "clarified after the March incident"


def test_an_edit_taken_by_sync_keeps_its_writer_reason_and_time(machines):
    machines.run("laptop", lambda s: s.sync_init(str(machines.remote), writer="ada@laptop"))
    memory = machines.run("laptop", lambda s: s.add("Prefers pytest over unittest"))
    machines.sync("laptop")
    machines.run("desktop", lambda s: s.sync_init(str(machines.remote), writer="ada@desktop"))
    machines.sync("desktop")
    words = "Prefers pytest with hypothesis"
    machines.run("desktop", lambda s: s.update(memory["id"], content=words, reason=WHY))
    machines.sync("desktop", "laptop")

    made = machines.run("desktop", lambda s: s.history(memory["id"]))[-1]
    taken = machines.run("laptop", lambda s: s.history(memory["id"]))
    assert (taken[-1]["change"], taken[-1]["by"]) == ("sync", "ada@desktop")
    assert (taken[-1]["reason"], taken[-1]["at"]) == (WHY, made["at"])
    assert [sorted(entry) for entry in taken] == [sorted(taken[-1])] * len(taken)
    # the file says why; one that has no reason says nothing of it (as files always were)
    (text,) = [t for p, t in machines.tree().items() if memory["id"] in p]
    assert f'reason: "{WHY}"\n' in text
    machines.run("desktop", lambda s: s.update(memory["id"], tags=["testing"]))
    machines.sync("desktop")
    (text,) = [t for p, t in machines.tree().items() if memory["id"] in p]
    assert "reason:" not in text
    assert machines.sync("laptop")[0]["sent"] == 0
    assert machines.shared("laptop") == machines.shared("desktop")
