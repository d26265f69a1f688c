"""Projects a machine moved to a team remote, announced in the person's own remote.

Once one machine syncs a project with a team remote, that project stops going to the
person's own remote (one repository per memory), and the person's other machines kept the
old text while both said "sent 0, took 0" (#34 item 2). Each machine writes which projects it
syncs through which team remote into `teams.json` of its own remote, under its writer's name;
a machine that does not sync those projects with a team says so at each sync and in `sync
status`, with the command that joins it (unless the person removed that team remote there:
their choice was questioned again at every sync). The file is the remote's, so it is read as
untrusted: small, plain names and addresses only, anything else ignored.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from memdesk.core.sync.config import Config, Remote
from memdesk.core.sync.files import remote_object

TEAMS = "teams.json"
MAX_BYTES = 64 * 1024
_PLAIN = re.compile(r"[^\x00-\x1f\x7f]{1,500}")


def announced(data: bytes | None) -> dict[str, dict[str, str]]:
    """{writer: {project: team remote}} from the file's bytes; what is not that shape is
    left out."""
    found = remote_object(data, MAX_BYTES)
    out: dict[str, dict[str, str]] = {}
    for writer, projects in found.items():
        if not (_plain(writer) and isinstance(projects, dict)):
            continue
        kept = {p: url for p, url in projects.items() if _plain(p) and _plain(url)}
        if kept:
            out[writer] = kept
    return out


def with_mine(current: dict[str, dict[str, str]], config: Config) -> dict[str, dict[str, str]]:
    """The announcements with this machine's own brought up to date."""
    mine = {
        project: _without_secrets(remote.url)
        for remote in config.remotes
        if remote.projects is not None
        for project in remote.projects
    }
    out = {w: p for w, p in current.items() if w != config.writer}
    if mine:
        out[config.writer] = mine
    return out


def text(announcements: dict[str, dict[str, str]]) -> bytes | None:
    if not announcements:
        return None
    return (json.dumps(announcements, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def notices(announcements: dict[str, dict[str, str]], config: Config) -> list[str]:
    """What this machine should be told: projects another machine of the person's syncs with
    a team remote that this one does not. An announcement by a writer not confirmed as the
    person's machine is not followed, and its address not repeated: anyone who can push to
    the remote had memdesk print the command that sent a project to their repository."""
    here = {p for r in config.remotes if r.projects is not None for p in r.projects}
    said, told, left = [], set(), config.left_teams
    for writer, projects in sorted(announcements.items()):
        if writer == config.writer:
            continue
        if writer not in config.own_writers:
            said.append(
                f"{writer}, which is not one of your machines here, says project(s) "
                f"{', '.join(sorted(projects))} sync through a team remote; not followed. "
                f"If {writer} is yours: {trust_command(writer)}"
            )
            continue
        for project, url in sorted(projects.items()):
            # (nor of a team remote the person removed here: they chose not to sync with it)
            if project not in here and (project, url) not in told and left.get(project) != url:
                told.add((project, url))  # once, however many machines say so
                said.append(
                    f"project {project} syncs through a team remote on {writer} ({url}), not "
                    f"through this one: its changes there do not reach this machine. Join it: "
                    # quoted for a shell: the file is the remote's, and the person pastes this
                    f"memdesk sync init {shlex.quote(url)} --project {shlex.quote(project)}"
                )
    return said


def leave(config: Config, remote: Remote) -> None:
    """Note in `config` that the person removed the team remote `remote` here: the other
    machines' announcements of it are no longer told (the caller saves it)."""
    for project in remote.projects or []:
        config.left_teams[project] = _without_secrets(remote.url)


def of_machines(
    announcements: dict[str, dict[str, str]], config: Config
) -> dict[str, dict[str, str]]:
    """The announcements of the person's confirmed machines (this one's included)."""
    mine = {config.writer, *config.own_writers}
    return {writer: projects for writer, projects in announcements.items() if writer in mine}


def trust_command(writer: str) -> str:
    return f"memdesk sync trust {shlex.quote(writer)}"  # a name may hold spaces or a #


def is_own(remote: Remote) -> bool:
    return remote.projects is None


def _plain(value: Any) -> bool:
    return isinstance(value, str) and _PLAIN.fullmatch(value) is not None


def _without_secrets(url: str) -> str:
    """A remote's address without a user's password or token in it."""
    parts = urlsplit(url)
    if parts.scheme and "@" in parts.netloc:
        return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))
    return url
