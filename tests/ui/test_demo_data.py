"""load_demo: a believable data set that shows every part of the window."""

from __future__ import annotations

from memdesk.ui.list.demo_data import load_demo


def test_the_demo_fills_every_layer_with_history_links_and_searches(service):
    added = load_demo(service)

    stats = service.stats()
    assert 35 <= added <= 45
    assert stats["total"] == added
    assert set(stats["by_layer"]) == {"L0", "L1", "L2"}
    assert set(stats["projects"]) == {"ledger", "trailmap"}
    assert set(stats["by_source"]) == {"user", "agent", "system"}
    assert stats["by_status"]["inactive"] == 2  # the corrected memories
    assert stats["links"] >= 3
    assert stats["searches"] == 3
    assert service.identity()["size"] <= service.identity()["limit"]


def test_corrections_keep_the_old_text_and_point_to_it(service):
    load_demo(service)

    corrected = service.list_memories(project="ledger", tags=["architecture"])
    stack = next(m for m in corrected if "Hetzner" in m["content"])
    old = service.get(stack["supersedes"])
    assert "Fly.io" in old["content"]
    assert old["status"] == "inactive"
    assert {"id": old["id"], "relation": "supersedes", "direction": "out"} in service.get(
        stack["id"]
    )["links"]


def test_an_edited_memory_has_a_history(service):
    load_demo(service)

    [tests] = [m for m in service.list_memories(tags=["testing"]) if "pytest --cov" in m["content"]]
    assert len(service.history(tests["id"])) == 2
