"""The `memdesk` command's entry point. `memdesk hook EVENT` runs on every prompt and tool call
of an agent, so it takes a path that imports only the standard library and the Qt-free client;
everything else goes through the full CLI (`memdesk.cli`)."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):  # the desktop bundle (packaging/bundle.py)
        import multiprocessing

        # The Graph's layout process is this executable again: let it be that process.
        multiprocessing.freeze_support()
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and args[0] == "hook" and args[1] not in ("install", "-h", "--help"):
        from memdesk.api import hooks

        return hooks.main(args[1:])
    from memdesk.cli import main as cli_main

    return cli_main(args)
