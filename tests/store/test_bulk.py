"""Many memories inserted at once: in their order, searchable, all or none."""

from __future__ import annotations

import pytest

from memdesk.store.bulk import insert_rows


def test_many_added_at_once_keep_their_order_and_are_found(service):
    added = service.add_many(
        [{"content": f"Okapi note number {n}", "tags": ["zoo"]} for n in range(30)], dedup=False
    )
    rows = service.database.execute_sql("SELECT uuid FROM memory ORDER BY id").fetchall()
    assert [r[0] for r in rows] == [m["id"] for m in added]
    hits = service.search("okapi", k=50, record=False)["hits"]
    assert len(hits) == 30
    assert service.check() == []


def test_a_failed_bulk_insert_leaves_nothing(service):
    when = "2026-01-01T00:00:00.000Z"
    columns = ("uuid", "layer", "kind", "content", "source", "created_at", "updated_at")
    good = ("a" * 36, "L1", "fact", "Tapirs swim", "user", when, when)
    bad = ("b" * 36, "L9", "fact", "Tapirs dive", "user", when, when)
    with pytest.raises(Exception, match="CHECK"), service.database.atomic():
        insert_rows(service.database, "memory", columns, [good, bad])
    assert service.search("tapirs", record=False)["hits"] == []
    assert service.check() == []
    # the staging table does not outlive the call: the next bulk insert starts clean
    insert_rows(service.database, "memory", columns, [good])
    assert len(service.search("tapirs", record=False)["hits"]) == 1


def test_or_ignore_leaves_out_a_row_that_breaks_a_unique_constraint(service):
    first, second, third = service.add_many(
        [{"content": f"Quokka note {n}"} for n in range(3)], dedup=False
    )
    ids = dict(service.database.execute_sql("SELECT uuid, id FROM memory").fetchall())
    a, b, c = ids[first["id"]], ids[second["id"]], ids[third["id"]]
    when = "2026-01-01T00:00:00.000Z"
    columns = ("src_id", "dst_id", "relation", "created_at")
    rows = [(a, b, "related", when), (a, b, "related", when), (a, c, "related", when)]
    with service.database.atomic():
        insert_rows(service.database, "link", columns, rows, or_ignore=True)
    links = service.database.execute_sql("SELECT src_id, dst_id FROM link ORDER BY id").fetchall()
    assert links == [(a, b), (a, c)]
