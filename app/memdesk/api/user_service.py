"""`memdesk service install|remove`: `memdesk serve` started at login, so hooks and MCP never
have to start it. A systemd user unit where the person's systemd runs one (`systemctl --user`
answers), else an XDG autostart entry. The window takes the database over from it when it opens
(as from any serve) and starts the unit again when it closes (`hand_back`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

UNIT = "memdesk.service"
AUTOSTART = "memdesk-serve.desktop"
Runner = Callable[[list[str]], int]


def config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")


def unit_path() -> Path:
    return config_home() / "systemd" / "user" / UNIT


def autostart_path() -> Path:
    return config_home() / "autostart" / AUTOSTART


def _argv(command: list[str], db: Path) -> list[str]:
    return [*command, "serve", "--db", str(db)]


def command_line(argv: list[str]) -> str:
    """A command line as systemd and desktop entries read it: words with spaces in quotes."""
    return " ".join(f'"{w}"' if any(c.isspace() for c in w) else w for w in argv)


def unit_text(command: list[str], db: Path) -> str:
    return (
        "[Unit]\n"
        "Description=memdesk: long-term memory for AI agents, served on its local socket\n"
        "\n"
        "[Service]\n"
        "Type=simple\n"
        f"ExecStart={command_line(_argv(command, db))}\n"
        # A crash is restarted; a handover to the window (exit 0) is not: the window starts
        # the unit again when it closes.
        "Restart=on-failure\n"
        "RestartSec=5\n"
        "\n"
        "[Install]\n"
        "WantedBy=default.target\n"
    )


def desktop_text(command: list[str], db: Path) -> str:
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Name=memdesk (serving agents)\n"
        "Comment=Long-term memory for AI agents, served on its local socket\n"
        f"Exec={command_line(_argv(command, db))}\n"
        "Terminal=false\n"
        "NoDisplay=true\n"
        "X-GNOME-Autostart-enabled=true\n"
    )


def _run(argv: list[str]) -> int:
    try:
        return subprocess.run(argv, capture_output=True, timeout=15, check=False).returncode
    except (OSError, subprocess.TimeoutExpired):
        return 1


def has_systemd(run: Runner = _run) -> bool:
    """Whether the person's own systemd answers (not in every container or desktop)."""
    return shutil.which("systemctl") is not None and run(["systemctl", "--user", "status"]) in (
        0,
        3,  # "not all units are running": systemd answered
    )


def install(command: list[str], db: Path, run: Runner = _run) -> str:
    """Write the unit (and enable and start it) or the autostart entry; says what it did."""
    if has_systemd(run):
        path = unit_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(unit_text(command, db), encoding="utf-8")
        run(["systemctl", "--user", "daemon-reload"])
        if run(["systemctl", "--user", "enable", "--now", UNIT]) != 0:
            return f"wrote {path}; systemd did not start it: see `systemctl --user status {UNIT}`"
        return f"wrote {path}; memdesk serve runs now and at every login (systemd user unit)"
    path = autostart_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(desktop_text(command, db), encoding="utf-8")
    return (
        f"wrote {path}; memdesk serve starts at your next login (no systemd user session here). "
        "Until then, `memdesk serve &` or the window serves agents"
    )


def remove(run: Runner = _run) -> str:
    done = []
    if unit_path().exists():
        run(["systemctl", "--user", "disable", "--now", UNIT])
        unit_path().unlink()
        run(["systemctl", "--user", "daemon-reload"])
        done.append(str(unit_path()))
    if autostart_path().exists():
        autostart_path().unlink()
        done.append(str(autostart_path()))
    if not done:
        return "memdesk serve was not set to start at login; nothing to remove"
    return f"removed {', '.join(done)}; memdesk serve no longer starts at login"


def installed() -> bool:
    return unit_path().exists() or autostart_path().exists()


def hand_back(db: Path, run: Runner = _run) -> bool:
    """After the window on `db` closes: the unit serves it to agents again (False: there is no
    unit for this database, or it did not start)."""
    path = unit_path()
    serves_db = f" --db {command_line([str(db)])}"
    if not path.exists() or serves_db not in path.read_text(encoding="utf-8"):
        return False
    return run(["systemctl", "--user", "start", UNIT]) == 0
