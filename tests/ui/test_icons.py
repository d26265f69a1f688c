"""The application icon is found from the installed package and draws at every size."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor

from memdesk.ui.icons import PNG_NAME, SVG_NAME, app_icon, asset_path

REPO_RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def test_the_icon_draws_at_small_and_large_sizes(qapp):
    icon = app_icon()
    assert not icon.isNull()
    for size in (16, 32, 64, 256):
        image = icon.pixmap(size, size).toImage()
        assert image.width() == size
        # The middle of the tile is painted (the layer stack), not transparent.
        assert image.pixelColor(size // 2, size // 2).alpha() == 255
        assert image.pixelColor(size // 2, size // 2) != QColor(0, 0, 0)


@pytest.mark.parametrize("name", [SVG_NAME, PNG_NAME])
def test_the_packaged_copy_matches_resources(name):
    assert asset_path(name).read_bytes() == (REPO_RESOURCES / name).read_bytes()
