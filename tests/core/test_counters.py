"""A memory's counters stay whole numbers an export carries back: an import once took a
recall count at SQLite's largest integer, the next search made it a REAL, and from then on
the store's own export did not import nor its backups restore, while `check` said healthy
(red team 41)."""

from __future__ import annotations

import json
import sqlite3
import uuid
from contextlib import closing

import pytest

from memdesk.core import MemoryService, ValidationError, agent
from memdesk.store import MAX_COUNT, migrations


def _export_with(service, **counts) -> str:
    """An export of one new memory, its counts set as a crafted file could."""
    service.add("Deploys go out on Thursdays")
    [record] = json.loads(service.export("json"))["memories"]
    record.update(id=str(uuid.uuid4()), content="The staging db listens on port 5433", **counts)
    return json.dumps({**json.loads(service.export("json")), "memories": [record]})


@pytest.mark.parametrize("field", ["recall_count", "reinforce_count"])
def test_an_import_of_a_count_past_its_bound_is_refused_and_changes_nothing(service, dump, field):
    text = _export_with(service, **{field: 2**63 - 1})
    before = dump()
    with pytest.raises(ValidationError) as caught:
        service.import_json(text)
    assert f"{field} 9223372036854775807 is outside 0..{MAX_COUNT:,}" in caught.value.message
    assert dump() == before


def test_a_count_at_its_bound_stays_a_whole_number_the_export_carries_back(service):
    counts = {"recall_count": MAX_COUNT, "reinforce_count": MAX_COUNT}
    service.import_json(_export_with(service, source="agent", agent="claude", **counts))
    [found] = service.search("staging port", actor=agent("claude"))["hits"]
    service.add("The staging db listens on port 5433", actor=agent("claude"))  # restated
    memory = service.get(found["id"])
    assert (memory["recall_count"], memory["reinforce_count"]) == (MAX_COUNT, MAX_COUNT)
    service.import_json(service.export("json"))  # the store's own export reads back


def test_a_count_an_older_memdesk_took_too_far_is_brought_within_bounds(db_path):
    old = MemoryService.open(db_path)
    memory = old.add("The staging database listens on port 5433")
    old.close()
    with closing(sqlite3.connect(db_path)) as plain:
        plain.execute(
            "UPDATE memory SET recall_count = 9.3e18, reinforce_count = -4, version = version"
        )
        step = migrations.MIGRATIONS.index(migrations._v17_counters_bounded)
        plain.execute(f"PRAGMA user_version = {step}")
        plain.commit()
    again = MemoryService.open(db_path)
    try:
        found = again.get(memory["id"])
        assert (found["recall_count"], found["reinforce_count"]) == (MAX_COUNT, 0)
        again.import_json(again.export("json"))  # its own export reads back
    finally:
        again.close()
