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
    assert len(problems) == 1
    assert "search index out of sync" in problems[0]
    assert "rebuild" in problems[0]

    service.rebuild_index()
    assert service.check() == []
    assert _hits(service, expected) == [kept["id"]]
