"""The application icon.

The icon ships inside the package (`memdesk/ui/assets/`, declared as package data) so it is
found however memdesk is installed. `resources/` at the repository root holds the same files
as the source of truth for packaging (PyInstaller, .desktop); a test keeps the two identical.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon

SVG_NAME = "memdesk.svg"
PNG_NAME = "memdesk-256.png"


def asset_path(name: str) -> Path:
    """A file in the package's assets folder (memdesk is installed as plain files, not a zip)."""
    return Path(str(resources.files("memdesk.ui") / "assets" / name))


def app_icon() -> QIcon:
    """The memdesk icon: the SVG for any size, the 256 px PNG if SVG support is missing."""
    icon = QIcon(str(asset_path(SVG_NAME)))
    icon.addFile(str(asset_path(PNG_NAME)), QSize(256, 256))
    return icon
