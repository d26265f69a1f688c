"""The search index health check: it must notice an index left out of sync, and rebuild fixes it."""

from __future__ import annotations

import pytest

from memdesk.store import fts


def _hits(service, query: str) -> list[str]:
    return [h["id"] for h in service.search(query, record=False)["hits"]]


def test_a_healthy_database_has_no_problems(service):
    service.add("Zebras are striped", tags=["animals"])
    assert service.check() == []


def _drop_from_index(service, memory_id: str) -> None:
    """The index forgets a memory that is still in the table (as a crash mid-sync could)."""
    columns = ", ".join(fts.FTS_COLUMNS)
    service.database.execute_sql(
        f"INSERT INTO memory_fts(memory_fts, rowid, {columns}) "
        f"SELECT 'delete', id, {columns} FROM memory WHERE uuid = ?",
        (memory_id,),
    )


def _edit_behind_the_triggers(service, memory_id: str) -> None:
    """The table changes while the sync triggers are missing."""
    service.database.execute_sql("DROP TRIGGER memory_fts_au")
    service.database.execute_sql(
        "UPDATE memory SET content = 'Quokkas are friendly' WHERE uuid = ?", (memory_id,)
    )


@pytest.mark.parametrize("damage", [_drop_from_index, _edit_behind_the_triggers])
def test_check_catches_an_index_out_of_sync_and_rebuild_fixes_it(service, damage):
    kept = service.add("Zebras are striped", tags=["animals"])
    service.add("Giraffes are tall", tags=["animals"], dedup=False)
    damage(service, kept["id"])
    expected = "Quokkas" if damage is _edit_behind_the_triggers else "Zebras"
    assert kept["id"] not in _hits(service, expected)

    problems = service.check()
    assert "search index out of sync" in problems[0]
    assert all("rebuild" in problem for problem in problems)  # a lost trigger is named too

    service.rebuild_index()
    assert service.check() == []
    assert _hits(service, expected) == [kept["id"]]


def test_check_catches_an_index_whose_lookup_table_was_emptied(service):
    """FTS5's own integrity-check passes it; every search then misses most memories."""
    words = " ".join(f"filler{n}" for n in range(60))  # long rows: segments of many pages
    service.add_many([{"content": f"note n{n} {words}"} for n in range(1500)], dedup=False)
    service.database.execute_sql("DELETE FROM memory_fts_idx")
    missed = [n for n in range(0, 1500, 50) if not _hits(service, f"n{n}")]
    assert missed  # what the person and agents would see: memories searches never find
    problems = service.check()
    assert problems
    assert "a search does not find memory" in problems[0]
    service.rebuild_index()
    assert service.check() == []
    assert all(_hits(service, f"n{n}") for n in missed)
