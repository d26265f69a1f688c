"""A version taken by sync keeps, in this machine's history, who made it, why and when: it
read "sync by system (from origin, written by ada@desktop)" at the time this machine synced,
and the editor's reason was gone (sync tryout, stop 91, #5). So do the versions another
machine made between two syncs of this one, each checked as the newest is."""

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


def _laptop_and_desktop(machines, *contents):
    machines.run("laptop", lambda s: s.sync_init(str(machines.remote), writer="ada@laptop"))
    memories = [machines.run("laptop", lambda s, c=c: s.add(c)) for c in contents]
    machines.sync("laptop")
    machines.run("desktop", lambda s: s.sync_init(str(machines.remote), writer="ada@desktop"))
    machines.sync("desktop")
    return [m["id"] for m in memories]


def _kept(entries):
    return [
        (e["version"], e["content"], e["change"], e["by"], e["reason"], e["at"]) for e in entries
    ]


def test_the_versions_another_machine_made_between_two_syncs_are_kept(machines, monkeypatch):
    """A sync tryout: the desktop edited two memories three times each, syncing each time,
    while the laptop was off; the laptop's history went from the first version to the last,
    the ones between (their words, who made them, why and when) gone."""
    from memdesk.core.sync import git

    ids = _laptop_and_desktop(machines, "Prefers pytest", "Deploys on Fridays")
    for n in range(3):
        for memory_id in ids:
            words = f"{'Prefers pytest' if memory_id == ids[0] else 'Deploys on day'} {n}"
            machines.run(
                "desktop", lambda s, i=memory_id, w=words: s.update(i, content=w, reason=w)
            )
        machines.sync("desktop")
    logs = []
    written = git.Mirror.written
    monkeypatch.setattr(git.Mirror, "written", lambda *a: logs.append(a) or written(*a))

    machines.sync("laptop")

    assert len(logs) == 1  # one git log for the sync, not one per memory
    for memory_id in ids:
        made = machines.run("desktop", lambda s, i=memory_id: s.history(i))
        taken = machines.run("laptop", lambda s, i=memory_id: s.history(i))
        assert [e["version"] for e in taken] == [1, 2, 3, 4]
        assert _kept(taken[1:]) == [
            (v, content, "sync", "ada@desktop", reason, at)
            for v, content, _change, _by, reason, at in _kept(made[1:])
        ]
    assert machines.shared("laptop") == machines.shared("desktop")  # numbered apart, in order
    assert machines.sync("laptop")[0]["sent"] == 0


def _pushed_version(machines, memory_id, version, content, writer, at):
    """A version of the memory pushed to the remote by hand, in its own commit."""
    from tests.core.sync.test_sync_untrusted import _file

    (path,) = [p for p in machines.tree() if memory_id in p]
    text = _file(memory_id, content, version=str(version), writer=f'"{writer}"', updated=f'"{at}"')
    machines.push_files({path: text})


def test_a_version_between_that_the_guard_withholds_or_that_claims_this_machine_is_not_kept(
    machines,
):
    """The versions between are checked as the newest is: a token in one would have been
    kept readable in the history, where no flag holds it back; words this machine never held
    in its name would have been shown there as its own."""
    [memory_id] = _laptop_and_desktop(machines, "Prefers pytest")
    machines.run("desktop", lambda s: s.update(memory_id, content="Prefers pytest 9", reason=WHY))
    machines.sync("desktop")
    token = "ghp_" + "a1B2c3D4e5" * 4
    _pushed_version(
        machines, memory_id, 3, f"CI token {token}", "ada@desktop", "2026-11-21T10:00:00.000Z"
    )
    _pushed_version(
        machines, memory_id, 4, "Prefers unittest", "ada@laptop", "2026-11-22T10:00:00.000Z"
    )
    _pushed_version(
        machines, memory_id, 5, "Prefers pytest 10", "ada@desktop", "2026-11-23T10:00:00.000Z"
    )

    machines.sync("laptop")

    taken = machines.run("laptop", lambda s: s.history(memory_id))
    assert [(e["version"], e["content"]) for e in taken] == [
        (1, "Prefers pytest"), (2, "Prefers pytest 9"), (5, "Prefers pytest 10")
    ]  # fmt: skip
    assert (taken[1]["by"], taken[1]["reason"]) == ("ada@desktop", WHY)
    assert token not in str(taken)
    assert machines.run("laptop", lambda s: s.get(memory_id))["flag"] == []


def test_the_versions_between_are_read_within_the_syncs_budget(machines, monkeypatch):
    """The bytes one sync reads are bounded (#33 item 3): the versions between count in it,
    newest first, and what does not fit is left out of the history, which still goes up."""
    from memdesk.core.sync import sides

    [memory_id] = _laptop_and_desktop(machines, "Prefers pytest")
    for n in range(1, 5):
        machines.run("desktop", lambda s, n=n: s.update(memory_id, content=f"Prefers pytest {n}"))
        machines.sync("desktop")
    (size,) = [len(t.encode()) for p, t in machines.tree().items() if memory_id in p]
    # the newest, the version last agreed (read to compare), and one more
    monkeypatch.setattr(sides, "TAKE_BYTES", 3 * size + 20)

    machines.sync("laptop")

    taken = machines.run("laptop", lambda s: s.history(memory_id))
    assert [(e["version"], e["content"]) for e in taken] == [
        (1, "Prefers pytest"), (4, "Prefers pytest 3"), (5, "Prefers pytest 4")
    ]  # fmt: skip


def test_a_team_remotes_version_between_in_the_name_of_the_persons_machine_is_not_kept(
    machines, tmp_path
):
    """A teammate's versions between are the teammate's history; one in the name of the
    person's other machine could be anyone's words: nothing vouches for a version once a
    newer one replaced it."""
    from tests.core.sync.test_sync_team import _forge, _team_of_two_machines_and_bo

    team, _rule = _team_of_two_machines_and_bo(machines, tmp_path)
    note = machines.run("bo", lambda s: s.add("acme's staging is db-2.", project="acme"))
    for name in ("bo", "ana"):
        machines.run(name, lambda s: s.sync())
    machines.run("bo", lambda s: s.update(note["id"], content="acme's staging is db-3."))
    machines.run("bo", lambda s: s.sync())
    _forge(machines, team, note["id"], content="acme's staging is db-4.", writer="ana2@home")
    machines.run("bo", lambda s: s.sync())
    machines.run("bo", lambda s: s.update(note["id"], content="acme's staging is db-5."))
    machines.run("bo", lambda s: s.sync())

    machines.run("ana", lambda s: s.sync())

    taken = machines.run("ana", lambda s: s.history(note["id"]))
    assert [(e["version"], e["content"], e["by"]) for e in taken] == [
        (1, "acme's staging is db-2.", "user"),
        (2, "acme's staging is db-3.", "bo@work"),
        (4, "acme's staging is db-5.", "bo@work"),
    ]
