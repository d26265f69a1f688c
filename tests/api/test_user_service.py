"""`memdesk service install|remove`: serve at login through a systemd user unit (checked by
systemd-analyze where it is installed), else an XDG autostart entry; the window hands back."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memdesk.api import user_service

DB = Path("/home/sam/My Data/memdesk.db")


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


class Systemctl:
    """systemctl --user as a recording stand-in: answers, or has no user session."""

    def __init__(self, answers: bool) -> None:
        self.answers, self.calls = answers, []

    def __call__(self, argv: list[str]) -> int:
        self.calls.append(argv[2:])
        return 0 if self.answers else 1


def test_with_systemd_a_user_unit_is_written_enabled_and_started(config_home, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    systemctl = Systemctl(answers=True)
    said = user_service.install(["/opt/memdesk/bin/memdesk"], DB, run=systemctl)
    unit = (config_home / "systemd" / "user" / "memdesk.service").read_text()
    assert 'ExecStart=/opt/memdesk/bin/memdesk serve --db "/home/sam/My Data/memdesk.db"' in unit
    assert "WantedBy=default.target" in unit
    assert ["enable", "--now", "memdesk.service"] in systemctl.calls
    assert "at every login" in said
    assert user_service.installed()

    assert user_service.hand_back(DB, run=systemctl)  # the window closes: the unit serves
    assert systemctl.calls[-1] == ["start", "memdesk.service"]
    assert not user_service.hand_back(Path("/elsewhere.db"), run=systemctl)

    said = user_service.remove(run=systemctl)
    assert ["disable", "--now", "memdesk.service"] in systemctl.calls
    assert not user_service.installed()
    assert "no longer starts" in said
    assert "nothing to remove" in user_service.remove(run=systemctl)


def test_without_a_systemd_user_session_an_autostart_entry(config_home, monkeypatch):
    systemctl = Systemctl(answers=False)
    said = user_service.install(["/opt/memdesk/bin/memdesk"], DB, run=systemctl)
    entry = (config_home / "autostart" / "memdesk-serve.desktop").read_text()
    assert 'Exec=/opt/memdesk/bin/memdesk serve --db "/home/sam/My Data/memdesk.db"' in entry
    assert "next login" in said
    assert not user_service.hand_back(DB, run=systemctl)  # no unit to hand back to
    user_service.remove(run=systemctl)
    assert not user_service.installed()


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    unit = tmp_path / "memdesk.service"
    unit.write_text(user_service.unit_text([sys.executable, "-m", "memdesk"], tmp_path / "m.db"))
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    problems = [line for line in done.stderr.splitlines() if "memdesk.service" in line]
    assert done.returncode == 0, done.stderr
    assert problems == []


def test_desktop_install_puts_memdesk_in_the_menu_and_remove_takes_it_out(
    run, tmp_path, monkeypatch
):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    code, out, _ = run("desktop", "install", db=None)
    assert code == 0
    entry = (tmp_path / "share" / "applications" / "memdesk.desktop").read_text()
    program = next(line for line in entry.splitlines() if line.startswith("Exec="))[5:]
    assert Path(program.split()[0].strip('"')).is_absolute()
    icons = tmp_path / "share" / "icons" / "hicolor"
    assert (icons / "scalable" / "apps" / "memdesk.svg").read_bytes().lstrip().startswith(b"<")
    assert (icons / "256x256" / "apps" / "memdesk.png").read_bytes()[:4] == b"\x89PNG"
    if shutil.which("desktop-file-validate"):
        checked = subprocess.run(
            ["desktop-file-validate", str(tmp_path / "share" / "applications" / "memdesk.desktop")],
            capture_output=True,
            text=True,
            check=False,
        )
        assert checked.returncode == 0, checked.stdout
    code, out, _ = run("desktop", "remove", db=None)
    assert code == 0
    assert not list((tmp_path / "share").rglob("memdesk*"))
