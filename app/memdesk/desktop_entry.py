"""`memdesk desktop install|remove`: memdesk in the desktop's application menu (an XDG desktop
entry running this memdesk by absolute path, and its icon), and out of it again."""

from __future__ import annotations

import os
import shlex
from importlib import resources
from pathlib import Path

from memdesk.api import user_service

ENTRY = "memdesk.desktop"
ICONS = (("scalable", "memdesk.svg"), ("256x256", "memdesk-256.png"))


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def entry_text(command: str) -> str:
    exec_line = user_service.command_line(shlex.split(command))
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Name=memdesk\n"
        "GenericName=Memory manager for AI agents\n"
        "Comment=See and correct what your AI agents remember\n"
        f"Exec={exec_line}\n"
        "Icon=memdesk\n"
        "Terminal=false\n"
        "Categories=Development;Utility;\n"
        "Keywords=AI;agent;memory;MCP;\n"
        "StartupWMClass=memdesk\n"
    )


def _files() -> list[Path]:
    icons = data_home() / "icons" / "hicolor"
    return [
        data_home() / "applications" / ENTRY,
        *(icons / size / "apps" / ("memdesk" + Path(name).suffix) for size, name in ICONS),
    ]


def install(command: str) -> list[Path]:
    entry, *icons = _files()
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(entry_text(command), encoding="utf-8")
    assets = resources.files("memdesk.ui") / "assets"
    for (_size, name), path in zip(ICONS, icons, strict=True):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((assets / name).read_bytes())
    return [entry, *icons]


def remove() -> list[Path]:
    gone = [path for path in _files() if path.exists()]
    for path in gone:
        path.unlink()
    return gone
