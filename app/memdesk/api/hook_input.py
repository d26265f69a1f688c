"""What a hook reads on stdin: the host's event, to a size and within a time. A host that
never closes the hook's input (a broken host, a wrapper holding the pipe) left the hook
waiting until the host killed it, and the agent waiting with it."""

from __future__ import annotations

import os
import threading

# A host writes its event at once. A pipe left open held each prompt 10 s, past the 3 s
# memdesk gives its per-prompt hooks and the 5 s a person waits before a tool call.
INPUT_SECONDS = 2.0
_CHUNK = 1 << 16


def read_input(fd: int, limit: int, seconds: float | None = None) -> bytes:
    """At most `limit` + 1 bytes of the file `fd`, up to its end or for `seconds`
    (INPUT_SECONDS): what came by then (an event cut short reads as no event, and the hook
    fails open). Read from the descriptor, not sys.stdin's buffer: a thread still waiting in
    the buffer's read when the hook exits aborts the interpreter."""
    parts: list[bytes] = []
    size = 0

    def take() -> None:
        nonlocal size
        while size <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
            if not chunk:
                return
            parts.append(chunk)
            size += len(chunk)

    reader = threading.Thread(target=take, name="hook-input", daemon=True)
    reader.start()
    reader.join(INPUT_SECONDS if seconds is None else seconds)
    return b"".join(list(parts))
