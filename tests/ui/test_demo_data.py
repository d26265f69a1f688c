"""load_demo: a believable data set that shows every part of the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from memdesk.ui.list.demo_data import RETIRED, SIZE, load_demo
from tests.ui.window_helpers import open_window, settle


def test_the_demo_fills_every_layer_with_history_and_links(service):
    added = load_demo(service)

    stats = service.stats()
    assert added == SIZE  # the number the first-run panel promises
    assert stats["total"] == added
    assert set(stats["by_layer"]) == {"L0", "L1", "L2"}
    assert set(stats["projects"]) == {"ledger", "trailmap"}
    assert set(stats["by_source"]) == {"user", "agent", "system"}
    assert stats["by_status"]["inactive"] == 2  # the corrected memories
    assert stats["links"] >= 3
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


def test_the_window_loads_the_demo_as_one_step_that_undo_takes_back(qtbot, service, tmp_path):
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    panel = window.empty_state
    assert window.pages.currentWidget() is panel
    assert f"{SIZE} memories" in " ".join(label.text() for label in panel.findChildren(QLabel))

    qtbot.mouseClick(panel.demo_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert service.stats()["total"] == SIZE
    # What the panel promised is what the list shows, with the retired ones said (#31 item 8)
    promise = " ".join(label.text() for label in panel.findChildren(QLabel))
    assert f"({RETIRED} of them corrected since: retired, under Inactive)" in promise
    assert window.browser.model.rowCount() == SIZE - RETIRED
    assert service.count(status="inactive") == RETIRED
    assert window.undo_stack.undoText() == "Load demo data"

    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(window)
    assert service.stats()["total"] == 0
    assert window.pages.currentWidget() is panel
    assert panel.demo_button.isEnabled()  # and it may be loaded again


def test_load_demo_data_comes_before_the_long_mcp_snippet(qtbot, service, tmp_path):
    """#31 item 8: at the default 1,400 x 860 the button sat under the snippet, cut in half."""
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    window.resize(1400, 860)
    settle(window)
    panel = window.empty_state
    button = panel.demo_button.mapTo(panel, panel.demo_button.rect().bottomLeft())
    copy = panel.copy_mcp_button.mapTo(panel, panel.copy_mcp_button.rect().topLeft())
    assert button.y() < copy.y()
    assert not panel.demo_button.visibleRegion().isEmpty()
