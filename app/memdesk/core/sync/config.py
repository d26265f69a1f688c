"""Where a database syncs to: its remotes, kept in a folder beside the database with one bare
git mirror per remote and what its last sync did.

A remote either takes every shared memory except those of projects another remote claims
(the person's own, "mine"), or only the projects it names (a team's). The identity profile
goes only to a remote of the first kind: it is the person's, not the team's. A project marked
local goes to no remote at all.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import secrets
import socket
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memdesk.core import validate
from memdesk.core.errors import NotFound, ValidationError
from memdesk.core.sync import local_remote

EVERY_MINUTES = 10
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
_BRANCH = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_./-]{0,99}$")


@dataclass
class Remote:
    name: str
    url: str
    branch: str = "main"
    projects: list[str] | None = None  # None: everything no team remote claims

    def takes(self, project: str | None, layer: str, excluded: set[str]) -> bool:
        if self.projects is None:
            return project not in excluded
        return layer != "L0" and project in self.projects and project not in excluded


def default_writer() -> str:
    """user@host and a few random characters, kept in the config from `sync init` on: two
    machines may well share user@host (containers, a team's identical laptops), and a
    teammate's words then read as this machine's, which counts them the person's own."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        user = "someone"
    # (as a name may be: a login or a host with other characters would make this machine's
    # own files refused elsewhere)
    name = validate.as_name(f"{user}@{socket.gethostname() or 'localhost'}", "-")
    return f"{name}#{secrets.token_hex(2)}"


@dataclass
class Config:
    remotes: list[Remote] = field(default_factory=list)
    every_minutes: int = EVERY_MINUTES
    writer: str = field(default_factory=default_writer)  # who this machine's memories are by
    local: list[str] = field(default_factory=list)  # projects that never leave this machine
    # The person's other machines: the writers already in the person's own remote when this
    # machine joined it, and those the person confirmed since (`sync trust`). The rest are
    # someone else's words: anyone who can push to that remote can name a new writer.
    own_writers: list[str] = field(default_factory=list)
    # Writers met in the person's own remote since, not confirmed: shown as theirs, and told.
    met_writers: list[str] = field(default_factory=list)
    # Whether this machine has joined the person's own remote: writers are taken as its
    # machines at that first sync only.
    joined: bool = False
    # Team remotes the person removed here (`sync remove`), by project: their addresses. The
    # person's other machines still announce them, and the note to join was repeated at
    # every sync after the person chose to leave.
    left_teams: dict[str, str] = field(default_factory=dict)

    def excluded(self, remote: Remote) -> set[str]:
        """Projects `remote` does not take: those kept on this machine, and for the person's
        own remote those a team remote takes."""
        teams = [r.projects for r in self.remotes if r is not remote and r.projects is not None]
        return {project for projects in teams for project in projects} | set(self.local)

    def remote(self, name: str | None) -> Remote:
        if not self.remotes:
            raise NotFound(
                "sync is not set up for this database; run `memdesk sync init REMOTE` first",
                field="remote",
            )
        if name is None:
            return self.remotes[0]
        for remote in self.remotes:
            if remote.name == name:
                return remote
        names = ", ".join(r.name for r in self.remotes)
        raise NotFound(f"no sync remote named {name!r}; there are: {names}", field="remote")


def folder(database: Path) -> Path:
    return database.with_name(database.name + ".sync")


def private_folder(database: Path) -> Path:
    """The sync folder, made the person's alone: it holds a copy of every synced memory and
    the remotes' addresses (a token in one too). Made with the umask, another local user read
    the identity profile from it when the database was outside the data folder."""
    path = folder(database)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.chmod(0o700)
    return path


def mirror_path(database: Path, remote: Remote) -> Path:
    return folder(database) / f"{remote.name}.git"


def load(database: Path) -> Config:
    path = folder(database) / "config.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Config()
    left = data.get("left_teams")
    return Config(
        remotes=[Remote(**r) for r in data.get("remotes", [])],
        every_minutes=int(data.get("every_minutes", EVERY_MINUTES)),
        # a name set before names were checked, as one goes out now
        writer=validate.as_name(str(data.get("writer") or ""), "-") or default_writer(),
        local=list(data.get("local", [])),
        own_writers=[w for w in data.get("own_writers", []) if isinstance(w, str)],
        met_writers=[w for w in data.get("met_writers", []) if isinstance(w, str)],
        # a file from before it was noted: a machine that met anyone had joined
        joined=data.get("joined", bool(data.get("own_writers") or data.get("met_writers"))) is True,
        left_teams={p: url for p, url in left.items() if isinstance(url, str)}
        if isinstance(left, dict)
        else {},
    )


def save(database: Path, config: Config) -> None:
    _write_json(private_folder(database) / "config.json", asdict(config))


def last_result(database: Path, remote: Remote) -> dict[str, Any] | None:
    try:
        return json.loads((folder(database) / f"{remote.name}.last.json").read_text("utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def forget_result(database: Path, remote: Remote) -> None:
    (folder(database) / f"{remote.name}.last.json").unlink(missing_ok=True)
    save_quiet(database, remote, None)


def save_result(database: Path, remote: Remote, result: dict[str, Any]) -> None:
    _write_json(private_folder(database) / f"{remote.name}.last.json", result)


def quiet(database: Path, remote: Remote) -> dict[str, Any] | None:
    """The commit and local state at which the last sync with `remote` found nothing to do,
    and what it said."""
    try:
        found = json.loads((folder(database) / f"{remote.name}.quiet.json").read_text("utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    return (
        found if isinstance(found, dict) and {"commit", "local", "result"} <= found.keys() else None
    )


def save_quiet(database: Path, remote: Remote, found: dict[str, Any] | None) -> None:
    if found is None:
        (folder(database) / f"{remote.name}.quiet.json").unlink(missing_ok=True)
    else:
        _write_json(private_folder(database) / f"{remote.name}.quiet.json", found)


def _write_json(path: Path, data: Any) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(temporary, path)


def checked_remote(
    url: object, branch: object, name: object, projects: object, config: Config
) -> Remote:
    if not isinstance(url, str) or not url.strip():
        raise ValidationError(
            "give the remote: a bare repository on a disk (a path), user@host:path over ssh, "
            "or https://…",
            field="remote",
        )
    if url.startswith("-") or _HELPER.match(url.strip()):
        raise ValidationError(
            "remote must be a git URL or path: a bare repository on a disk, "
            "user@host:path over ssh, or https://… (no `transport::address`: `fd::7` "
            "left a sync waiting on a descriptor nobody writes)",
            field="remote",
        )
    branch = "main" if branch is None else branch
    if not isinstance(branch, str) or not _BRANCH.match(branch) or ".." in branch:
        raise ValidationError(
            "branch must be a plain branch name (letters, digits, . _ / -)", field="branch"
        )
    taken = {r.name for r in config.remotes}
    if name is None:
        name = _unnamed(projects, taken)
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValidationError(
            "name the remote (--name): letters, digits, . _ -, up to 40 characters",
            field="name",
        )
    if name in taken:
        raise ValidationError(
            f"a sync remote named {name!r} is already set up; name this one otherwise "
            "(--name NAME), or `memdesk sync remove` that one first",
            field="name",
        )
    chosen = None
    if projects:
        if not isinstance(projects, list):
            raise ValidationError("projects must be a list of project names", field="projects")
        chosen = sorted({validate.name(p, "projects") for p in projects})
    return Remote(name=name, url=_absolute(url.strip()), branch=branch, projects=chosen)


def _unnamed(projects: Any, taken: set[str]) -> Any:
    """A remote's name when none is given: origin, else a team remote's one project (the
    command a team note prints then works as pasted: it failed beside origin)."""
    if "origin" not in taken:
        return "origin"
    if isinstance(projects, list) and len(projects) == 1 and isinstance(projects[0], str):
        return projects[0]
    raise ValidationError(
        "a sync remote named 'origin' is already set up; name this one (--name NAME: "
        "letters, digits, . _ -, up to 40 characters)",
        field="name",
    )


# git's "<transport>::<address>": a remote helper runs the transfer (ext:: a command)
_HELPER = re.compile(r"^[A-Za-z0-9+.-]+::")


def _absolute(url: str) -> str:
    """A local path is kept absolute: the mirror runs git from its own folder. A relative one
    is refused: it was taken from the folder memdesk was started in (by a hook: the agent's
    repository), not the person's, and the synced memories landed where the agent reads."""
    if not _plain_path(url):
        return url
    path = Path(url).expanduser()
    if not path.is_absolute():
        raise ValidationError(
            f"a remote on this machine is given by its full path (/…/memories.git or ~/…), "
            f"not {url!r}: a relative one would be read from memdesk's folder, not yours",
            field="remote",
        )
    return str(path.resolve())


def _plain_path(url: str) -> bool:
    return local_remote.is_local(url) and not url.startswith("file://")


def from_folder(url: str, folder: Path) -> str:
    """`url` with a relative local path read from `folder` (where the person typed it)."""
    if not _plain_path(url) or Path(url).expanduser().is_absolute():
        return url
    return str((folder / url).resolve())
