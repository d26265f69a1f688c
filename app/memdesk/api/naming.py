"""Where the socket for a database lives, so the server, the client and the CLI agree.

The socket sits in a per-user directory created 0700: `$XDG_RUNTIME_DIR/memdesk` when the
session has one, else `<user data folder>/run`. Never a guessable name in a shared /tmp, where
another user could plant a socket first. The file name is derived from the resolved database
path, so one database has exactly one socket.
"""

from __future__ import annotations

import os
import re
import socket
import stat
from pathlib import Path

from memdesk import paths

# Every hook derives the socket's name, and hashlib loads OpenSSL to do it (~2.5 ms of a hook
# that runs on each prompt); the interpreter's own SHA-256 gives the same digest.
try:
    from _sha2 import sha256  # Python 3.12+
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:
        from hashlib import sha256

SOCKET_ENV = "MEMDESK_SOCKET"
# sockaddr_un.sun_path is 108 bytes on Linux (104 on macOS), including the final NUL.
MAX_SOCKET_PATH = 103


class SocketDirError(OSError):
    """The socket directory cannot be made private to this user."""


def socket_dir() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_dir():
        return Path(runtime) / paths.APP_NAME
    return paths.data_dir() / "run"


def socket_name(db_path: str | os.PathLike[str]) -> str:
    # os.fsencode: a folder named in another encoding ("caf\xe9") is a path all the same
    digest = sha256(os.fsencode(Path(db_path).expanduser().resolve())).hexdigest()
    return f"memdesk-{digest[:16]}.sock"


def socket_path(db_path: str | os.PathLike[str]) -> str:
    """The socket for a database: `MEMDESK_SOCKET` if set, else derived from the db path."""
    override = os.environ.get(SOCKET_ENV)
    if override:
        return str(Path(override).expanduser())
    return str(socket_dir() / socket_name(db_path))


def chosen_socket(db_path: str | os.PathLike[str], served: str) -> str | None:
    """`served` when it is not the socket derived from the database: one the person chose
    (MEMDESK_SOCKET, --socket), which an agent host, started without their environment,
    must be told. None: the derived one, which every memdesk command finds by itself."""
    return None if served == str(socket_dir() / socket_name(db_path)) else served


def prepare_dir(socket: str | os.PathLike[str]) -> None:
    """Make sure the socket's directory exists; the default one is also made private.

    An explicit `--socket` path in an existing directory is left as it is (we never chmod a
    folder such as /tmp); the socket file itself is user-only either way.
    """
    parent = Path(socket).parent
    if parent == socket_dir():
        ensure_private_dir(parent)
    else:
        parent.mkdir(mode=0o700, parents=True, exist_ok=True)


def ensure_private_dir(directory: Path) -> Path:
    """Create `directory` as 0700 (or tighten it) and check that this user owns it."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = directory.stat()
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise SocketDirError(
            f"socket directory {directory} belongs to another user (uid {info.st_uid}); "
            "remove it or choose another --socket path"
        )
    if stat.S_IMODE(info.st_mode) & 0o077:
        directory.chmod(0o700)
    return directory


def is_live(path: str, timeout_s: float = 1.0) -> bool:
    """Whether something accepts connections on the Unix socket at `path` (not just a file
    left behind by a process that died)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(timeout_s)
    try:
        probe.connect(path)
    except OSError:
        return False
    finally:
        probe.close()
    return True


# Roles an agent must not take by saying so: the person's tools act as the person, a host's hooks
# store what the person said at a session's end.
PRIVILEGED_ROLES = ("hook", "user")
# What the person's own tools call themselves: the window's status bar lists every connection by
# the name it gave, so an agent calling itself "cli" was listed as the person's command line.
PERSONS_TOOL_NAMES = frozenset({"cli", "memdesk cli", "memdesk-cli", "window"})


def role_key_path(socket: str | os.PathLike[str]) -> Path:
    """The file beside the socket holding the key the person's own tools and hooks show in
    system.hello to take the role "user" or "hook" (an agent speaking MCP never reads it)."""
    return Path(f"{socket}.key")


def read_role_key(socket: str | os.PathLike[str]) -> str | None:
    """The running server's role key, None when this process cannot read it."""
    try:
        return role_key_path(socket).read_text(encoding="ascii").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


class NotOurs(OSError):
    """The socket's path, or its key's, holds something memdesk did not leave there."""


_KEY = re.compile(r"[0-9a-f]{64}")


def refuse_what_is_not_ours(socket: str | os.PathLike[str]) -> None:
    """Before a server replaces a stale socket and its key: a mistyped `--socket ~/notes` (or
    an agent host's config naming one) removed the person's file `notes` and `notes.key`."""
    for path, what in ((Path(socket), "socket"), (role_key_path(socket), "key")):
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        ours = stat.S_ISSOCK(mode) if what == "socket" else _holds_a_key(path, mode)
        if not ours:
            raise NotOurs(
                f"{path} is not a {what} memdesk left there; memdesk replaces only its own "
                "stale socket and key. Move that file, or choose another --socket"
            )


def _holds_a_key(path: Path, mode: int) -> bool:
    if not stat.S_ISREG(mode):
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as held:
        return bool(_KEY.fullmatch(held.read(65).decode("ascii", "replace")))


def write_role_key(socket: str | os.PathLike[str]) -> str:
    """A fresh random key, readable by this user only (written anew: never reused from a file
    someone else may have placed)."""
    import secrets  # here: a hook, which only reads keys, starts on every prompt

    path = role_key_path(socket)
    key = secrets.token_hex(32)
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key)
    return key
