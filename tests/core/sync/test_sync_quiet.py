"""A sync that found nothing to do is not worked out again while neither side moves (a
`memdesk sync` with nothing to do: 1.4 s at 20,000 memories, bench/sync.py). Whatever changes
here afterwards, however it is made, is sent by the next sync."""

from __future__ import annotations

import pytest

CHANGES = {
    "edited": lambda s, ids: s.update(ids[0], content="The VPN is Tailscale now."),
    "tagged": lambda s, ids: s.update(ids[0], tags=["network"]),
    "linked": lambda s, ids: s.link(ids[0], ids[1], "related"),
    "in the Trash": lambda s, ids: s.remove(ids[0]),
    "deleted for good": lambda s, ids: (s.remove(ids[0]), s.purge(ids[0])),
    "added": lambda s, ids: s.add("Backups run nightly at 02:00 UTC."),
}


def _quiet(machines) -> list[dict]:
    """Sync a and b until neither has anything to do, twice over."""
    results = []
    for _ in range(3):
        results = machines.sync("a", "b")
    return results


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_after_a_quiet_sync_is_sent(machines, change):
    ids = [
        machines.run("a", lambda s, t=text: s.add(t)["id"])
        for text in ("The VPN is WireGuard.", "Staging lives at staging.example.com.")
    ]
    machines.init("a", "b")
    assert [r["sent"] + r["taken"] for r in _quiet(machines)] == [0, 0]
    machines.run("a", lambda s: CHANGES[change](s, ids))
    sent = machines.sync("a")[0]["sent"]
    machines.sync("b")
    assert sent >= 1
    if change == "deleted for good":  # gone here, in the Trash there
        assert machines.run("b", lambda s: s.get(ids[0])["status"]) == "deleted"
    else:
        assert machines.shared("a") == machines.shared("b")


def test_the_persons_answer_to_a_disagreement_counts_as_a_change(machines):
    """Held back while the person is asked: rejecting the other machine's version changes
    no memory here, and still decides what the next sync sends."""
    memory = machines.run("a", lambda s: s.add("Releases go out on Tuesdays."))
    machines.init("a", "b")
    _quiet(machines)
    machines.run("a", lambda s: s.update(memory["id"], content="Releases go out on Mondays."))
    machines.run("b", lambda s: s.update(memory["id"], content="Releases go out on Fridays."))
    machines.sync("b", "a", "a", "a")  # quiet again while the question waits
    [asked] = [i for i in machines.run("a", lambda s: s.inbox()) if i["type"] == "sync_disagree"]
    machines.run("a", lambda s: s.reject([asked["key"]]))
    machines.sync("a", "b")
    assert machines.run("b", lambda s: s.get(memory["id"])["content"]).endswith("Mondays.")


def test_letting_a_project_sync_again_counts_as_a_change(machines):
    machines.run("a", lambda s: s.add("Deploys go through Argo.", project="web"))
    machines.init("a", "b")
    machines.run("a", lambda s: s.sync_local("web"))
    _quiet(machines)
    assert machines.shared("b") == {}
    machines.run("a", lambda s: s.sync_local("web", local=False))
    assert machines.sync("a")[0]["sent"] == 1
    machines.sync("b")
    assert machines.shared("a") == machines.shared("b") != {}


def test_every_column_a_sync_reads_is_counted(tmp_path):
    """A change the store's count missed would leave a sync quiet while there is something
    to send: each column render reads, changed in SQL, changes the digest; a recall (which
    agents make on every search) does not."""
    from memdesk.core import MemoryService
    from memdesk.core.sync import local
    from memdesk.core.sync.config import Remote
    from memdesk.store import Memory

    service = MemoryService.open(tmp_path / "m.db")
    try:
        first = service.add("The VPN is WireGuard.")["id"]
        second = service.add("Staging lives at staging.example.com.")["id"]
        remote = Remote("origin", str(tmp_path / "r.git"))
        database = Memory._meta.database

        def digest() -> str:
            return local.state(remote, set(), "me@here", set())

        seen = {digest()}
        for column in local._COLUMNS:
            database.execute_sql(f"UPDATE memory SET {column} = {column} WHERE uuid = ?", (first,))
            seen.add(digest())
        assert len(seen) == len(local._COLUMNS) + 1
        service.link(first, second, "related")
        service.remove(second)
        service.purge(second)
        assert len(seen | {digest()}) == len(seen) + 1
        before = digest()
        database.execute_sql("UPDATE memory SET recall_count = recall_count + 1")
        assert digest() == before
    finally:
        service.close()
