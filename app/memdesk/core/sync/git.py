"""The git commands sync needs, on a bare mirror of the remote that only memdesk uses.

No work tree: trees are read with ls-tree and cat-file, and a commit is written in one
fast-import stream, so 100,000 files never pass through the file system one by one. Nothing
a remote sends is executed (a bare mirror runs no checkout and no hooks from elsewhere).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memdesk.core.errors import MemdeskError
from memdesk.core.sync import local_remote

# What a local remote's own config could make its side of a fetch or push run. (A folder
# with a work tree and `receive.denyCurrentBranch=updateInstead` had each push check its files
# out there, through the clean and smudge filters its own config named: code ran at every sync.)
_REMOTE_SIDE_OFF = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.alternateRefsCommand=true",
    "receive.denyCurrentBranch=refuse",
    # a push had the folder's receive-pack start `git gc --auto` detached, with the folder's
    # pack.window 1500 and pack.depth 4095: minutes of a core after the sync returned. It now
    # runs within the push's time limit, as git's defaults would have it run.
    "gc.autoDetach=false",
    "pack.window=10",
    "pack.depth=50",
    "pack.windowMemory=256m",
)
# Every git memdesk starts maps packs in small windows: its memory is capped (local_remote).
_BOUNDED = ("core.packedGitWindowSize=32m", "core.packedGitLimit=256m")
# A memory's file is at most 256 KiB: git need not look for deltas between larger files, nor
# unpack a fetch into loose objects. A crafted 395 KB remote of thirty 200 MB blobs of zeros,
# deltas of one another, held a sync 85 s at 2.6 GB (17 s and a few MB with these).
_BIG_FILES = ("core.bigFileThreshold=300k", "pack.threads=1", *_BOUNDED)
_FETCH = ("core.bigFileThreshold=300k", "fetch.unpackLimit=1")
# Far past what memdesk is made for (a million memories, one file each): a crafted remote
# naming 10^6 files with 80 KB of git objects (one tree reused at each level) took a sync 19 s
# and 1.8 GB, and the next level would have taken ten times that.
MAX_TREE_FILES = 1_200_000
KEPT_DEEP = 100
# A memory's path is under 100 bytes (memories/xx/<slug>--<id>.md). A crafted 184 KB remote
# listing a million files with 4,000-byte names took a sync to 4.3 GB, and one name of
# 256 MiB took 37 s: a longer name is counted as left out and never held, nor is a listing
# past MAX_LISTED bytes.
MAX_PATH_BYTES = 255
_MAX_RECORD = MAX_PATH_BYTES + 80  # "<mode> blob <sha> <size>\t" before the path
MAX_LISTED = MAX_TREE_FILES * 160
BASE = "refs/memdesk/base"  # the commit this machine last synced: the merge's common state
NETWORK_SECONDS = 300
LOCAL_SECONDS = 600


class SyncFailed(MemdeskError):
    code = "sync_failed"


class Rejected(SyncFailed):
    """The remote moved on since the fetch: fetch and merge again."""


@dataclass(frozen=True)
class Entry:
    sha: str
    size: int
    mode: str = "100644"


def available() -> bool:
    return shutil.which("git") is not None


def create_bare(path: Path, branch: str) -> None:
    Mirror(path, branch)._run(["init", "--quiet", "--bare", f"--initial-branch={branch}"], None)


class Mirror:
    def __init__(self, path: Path, branch: str) -> None:
        self.path = path
        self.branch = branch

    @property
    def remote_ref(self) -> str:
        return f"refs/remotes/origin/{self.branch}"

    @classmethod
    def create(cls, path: Path, url: str, branch: str) -> Mirror:
        if not available():
            raise SyncFailed(
                "git is not installed; sync keeps memories in a git repository. Install git "
                "(e.g. `apt install git`) and try again"
            )
        path.mkdir(parents=True, exist_ok=True)
        mirror = cls(path, branch)
        mirror._git("init", "--quiet", "--bare")
        mirror._git("remote", "add", "origin", url)
        return mirror

    def url(self) -> str:
        return self._git("remote", "get-url", "origin").strip()

    def fetch(self) -> str | None:
        """The remote branch's newest commit, or None when the remote has none yet."""
        self._check_local()
        refspec = f"+refs/heads/{self.branch}:{self.remote_ref}"
        try:
            self._git(
                *(word for setting in _FETCH for word in ("-c", setting)),
                "fetch",
                "--quiet",
                "--no-tags",
                *self._local_side("upload-pack"),
                "origin",
                refspec,
                network=True,
            )
        except SyncFailed as exc:
            if "couldn't find remote ref" not in exc.message:
                raise
            return None
        return self.commit_of(self.remote_ref)

    def descends(self, commit: str | None, base: str) -> bool:
        """Whether `commit` has `base` in its history."""
        if commit is None:
            return False
        try:
            self._git("merge-base", "--is-ancestor", base, commit)
        except SyncFailed:  # exit 1: it has not
            return False
        return True

    def commit_of(self, ref: str) -> str | None:
        try:
            return self._git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip()
        except SyncFailed:
            return None

    def tree(self, commit: str | None) -> tuple[dict[str, Entry], int]:
        """The files of `commit` (to MAX_TREE_FILES), and how many were left out: of those
        deeper than memdesk's layout (`memories/xx/file`), only the first KEPT_DEEP are kept,
        to be named as misnamed; a crafted remote's million of them held 1.8 GB."""
        if commit is None:
            return {}, 0
        entries: dict[str, Entry] = {}
        deep = 0
        listing = _Listing()
        for record in self._listed(commit, listing):
            meta, _, path = record.partition("\t")
            mode, kind, sha, size = meta.split()
            if kind != "blob":
                continue
            if path.count("/") > 2:
                deep += 1
                if deep > KEPT_DEEP:
                    continue
            entries[path] = Entry(sha, int(size), mode)
        return entries, max(0, deep - KEPT_DEEP) + listing.too_long

    def _listed(self, commit: str, listing: _Listing) -> Iterator[str]:
        return self._streamed(["ls-tree", "-r", "-l", "-z", commit], commit, listing)

    def _streamed(
        self, args: list[str], what: str, listing: _Listing, *, cut_short: bool = False
    ) -> Iterator[str]:
        """The records a git command prints, read as it prints them. Past as many as a tree
        may list, the command is stopped: a failed sync, or with `cut_short` the records so
        far."""
        with subprocess.Popen(
            ["git", *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self._env()
        ) as running:
            local_remote.bound(running.pid)
            assert running.stdout is not None
            try:
                while chunk := running.stdout.read(1 << 20):
                    yield from listing.records(chunk)
            except SyncFailed:
                running.kill()
                if cut_short:
                    return
                raise
            if running.wait() != 0:
                raise SyncFailed(f"git {args[0]} failed reading {what}")

    def written(self, commits: str, paths: list[str]) -> Iterator[tuple[str, str]]:
        """(path, blob) of each plain file the commits `commits` (a range, or a commit and
        all before it) wrote under `paths`, newest first, through one `git log`. Past as many
        records as a tree may list, the rest is left out: this is history, not the state a
        sync merges, and a crafted remote's endless log is read no further than a tree."""
        # (none of the person's settings for log's output: color, renames, signatures)
        log = ["log", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-follow", "--no-color"]
        log += ["--no-show-signature", "--format="]
        change = None
        records = self._streamed([*log, commits, "--", *paths], commits, _Listing(), cut_short=True)
        for record in records:
            if change and change[1] in _PLAIN_FILES:
                yield record, change[3]  # ":<old mode> <mode> <old> <new> <what>"
            change = record.split() if _RAW.fullmatch(record) else None

    def sizes(self, shas: list[str]) -> dict[str, int]:
        """The sizes of the blobs among `shas`, through one cat-file process."""
        if not shas:
            return {}
        asked = ("\n".join(dict.fromkeys(shas)) + "\n").encode()
        found = (
            line.split() for line in self._run(["cat-file", "--batch-check"], asked).split(b"\n")
        )
        return {f[0].decode(): int(f[2]) for f in found if len(f) == 3 and f[1] == b"blob"}

    def files_holding(self, commit: str | None, text: str) -> list[str]:
        """The paths under memories/ of `commit` whose text holds `text` (git grep, which
        reads them in C; none read here)."""
        if commit is None:
            return []
        try:
            out = self._git("grep", "-l", "-z", "-F", "-e", text, commit, "--", "memories/")
        except SyncFailed as exc:
            if exc.message.endswith("exit 1"):  # nothing holds it
                return []
            raise
        return [found.partition(":")[2] for found in out.split("\0") if found]

    def read(self, shas: list[str]) -> dict[str, bytes]:
        """Blobs by id, through one cat-file process."""
        if not shas:
            return {}
        unique = list(dict.fromkeys(shas))
        out = self._run(["cat-file", "--batch", "--buffer"], ("\n".join(unique) + "\n").encode())
        blobs, at = {}, 0
        for sha in unique:
            header_end = out.index(b"\n", at)
            header = out[at:header_end].split()
            if len(header) != 3:
                raise SyncFailed(f"git could not read blob {sha}: {out[at:header_end]!r}")
            size = int(header[2])
            blobs[sha] = out[header_end + 1 : header_end + 1 + size]
            at = header_end + 1 + size + 1
        return blobs

    def commit(self, parent: str | None, changes: dict[str, bytes | None], message: str) -> str:
        """A new commit on `parent` with `changes` (path -> new bytes, or None to delete)."""
        ref = "refs/memdesk/new"
        stamp = f"{int(time.time())} +0000"
        who = f"memdesk <memdesk@{socket.gethostname() or 'localhost'}>"
        note = message.encode()
        stream = [
            f"commit {ref}\ncommitter {who} {stamp}\ndata {len(note)}\n".encode() + note + b"\n"
        ]
        if parent:
            stream.append(f"from {parent}\n".encode())
        for path, data in sorted(changes.items()):
            if data is None:
                stream.append(f"D {_quoted(path)}\n".encode())
            else:
                head = f"M 100644 inline {_quoted(path)}\ndata {len(data)}\n"
                stream.append(head.encode() + data + b"\n")
        stream.append(b"\n")
        self._git("update-ref", "-d", ref)
        self._run(["fast-import", "--quiet", "--force"], b"".join(stream))
        commit = self.commit_of(ref)
        assert commit is not None
        return commit

    def push(self, commit: str) -> None:
        self._check_local()
        try:
            self._git(
                "push",
                "--quiet",
                *self._local_side("receive-pack"),
                "origin",
                f"{commit}:refs/heads/{self.branch}",
                network=True,
            )
        except SyncFailed as exc:
            if "checked out" in exc.message:
                raise SyncFailed(
                    f"the remote {self.url()} has {self.branch} checked out in a work tree; "
                    "memdesk pushes only to a bare repository (`git init --bare`), where no "
                    "push changes files. Nothing was sent"
                ) from None
            if refused := _REMOTE_REFUSED.search(exc.message):
                # its own reason (a setting, a server's rule): trying again changes nothing
                said = [line.split("remote: ", 1)[1].strip() for line in exc.message.splitlines()
                        if "remote: " in line]  # fmt: skip
                raise SyncFailed(
                    f"the remote {self.url()} refused what was sent ({refused[1]}"
                    + (f"; it said: {' '.join(said)[:300]}" if said else "")
                    + "). Nothing of it changed there; check the remote's settings"
                ) from None
            if any(w in exc.message for w in ("rejected", "fetch first", "non-fast-forward")):
                raise Rejected("the remote changed while syncing") from None
            raise

    def _check_local(self) -> None:
        url = self.url()
        if local_remote.is_local(url) and (why := local_remote.refusal(url)):
            raise SyncFailed(f"{why}. Nothing was changed here")

    def _local_side(self, program: str) -> list[str]:
        """For a remote on this machine (a folder, a USB disk, a share), the options that
        run its side of the transfer with nothing the remote repository configured: git
        runs that side here, as the person, with the remote's own config, so its hooks (or a
        core.hooksPath it names) would run too. Over ssh or https the other side is another
        machine's business, and a server would refuse a changed command."""
        if not local_remote.is_local(self.url()):
            return []
        safe = " ".join(f"-c {setting}" for setting in (*_REMOTE_SIDE_OFF, *_BIG_FILES))
        return [f"--{program}=git {safe} {program}"]

    def set_base(self, commit: str) -> None:
        self._git("update-ref", BASE, commit)

    def forget_base(self) -> None:
        if self.base() is not None:
            self._git("update-ref", "-d", BASE)

    def base(self) -> str | None:
        return self.commit_of(BASE)

    def _git(self, *args: str, network: bool = False) -> str:
        return self._run(list(args), None, network=network).decode("utf-8", "replace")

    def _env(self) -> dict[str, str]:
        # Never wait for a password or a host-key question nobody will see.
        return {
            "GIT_SSH_COMMAND": "ssh -o BatchMode=yes",
            **os.environ,
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_DIR": str(self.path),
            # the transports a memdesk remote uses; no remote helper (fd::, ext::, …) runs
            "GIT_ALLOW_PROTOCOL": "file:git:http:https:ssh",
        }

    def _run(self, args: list[str], data: bytes | None, *, network: bool = False) -> bytes:
        command = next(a for n, a in enumerate(args) if a != "-c" and args[n - 1 : n] != ["-c"])
        seconds = NETWORK_SECONDS if network else LOCAL_SECONDS
        bounded = [word for setting in _BOUNDED for word in ("-c", setting)]
        try:
            # A group of its own: a time limit ends git and what it started (the other side of
            # a local transfer), not git alone.
            with subprocess.Popen(
                ["git", *bounded, *args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self._env(),
                start_new_session=True,
            ) as running:
                local_remote.bound(running.pid)
                try:
                    out, err = running.communicate(data, timeout=seconds)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(running.pid, signal.SIGKILL)
                    running.communicate()
                    raise SyncFailed(
                        f"git {command} gave no answer in {seconds} s; nothing was changed here. "
                        "Check the remote and the network, then sync again"
                    ) from None
        except FileNotFoundError:
            raise SyncFailed("git is not installed; sync needs it") from None
        if running.returncode != 0:
            why = err.decode("utf-8", "replace").strip() or f"exit {running.returncode}"
            raise SyncFailed(f"git {command} failed: {why}")
        return out


class _Listing:
    """ls-tree's NUL-ended records as they come, each held only while it is short enough to
    name a memory's file: a longer one is skipped to its end, counted, never joined up."""

    def __init__(self) -> None:
        self.rest = b""
        self.skipping = False
        self.count = self.listed = self.too_long = 0

    def records(self, chunk: bytes) -> list[str]:
        if self.skipping:
            end = chunk.find(b"\0")
            if end < 0:
                return []
            self.skipping, chunk = False, chunk[end + 1 :]
        *records, self.rest = (self.rest + chunk).split(b"\0")
        if len(self.rest) > _MAX_RECORD:
            self.rest, self.skipping = b"", True
            self.too_long += 1
        kept = [r for r in records if len(r) <= _MAX_RECORD]
        self.too_long += len(records) - len(kept)
        self.count += len(records)
        self.listed += sum(map(len, kept))
        if self.count > MAX_TREE_FILES or self.listed > MAX_LISTED:
            raise SyncFailed(
                f"the remote's branch lists more than {MAX_TREE_FILES:,} files or "
                f"{MAX_LISTED // 2**20:,} MiB of names; memdesk's remotes hold one file per "
                "memory. Nothing was taken"
            )
        return [r.decode("utf-8", "replace") for r in kept if r]


# A change `git log --raw` lists (":<old mode> <mode> <old blob> <blob> <what>"), and the
# modes of the plain files among them (not a link, nor a removal's 000000)
_RAW = re.compile(r":[0-7]{6} [0-7]{6} [0-9a-f]{40} [0-9a-f]{40} [A-Z][0-9]*")
_PLAIN_FILES = ("100644", "100755")

# git's line for a ref the receiving side turned down for a reason of its own, not because
# another push came first ("[rejected] … (fetch first)")
_REMOTE_REFUSED = re.compile(r"\[remote rejected\] \S+ -> \S+ \(([^)\n]{1,200})\)")


def _quoted(path: str) -> str:
    """`path` as fast-import reads one name whatever it holds: a name that came from a remote
    with a line break in it was read as commands of its own."""
    escaped = path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
