"""The `memdesk` command: bare, it opens the window; with a subcommand, it works on memories."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from typing import Any

from memdesk import cli_commands as commands
from memdesk import cli_output, cli_parser, paths
from memdesk import cli_setup as setup
from memdesk.core import MemdeskError
from memdesk.core.display import visible
from memdesk.core.errors import broken_index
from memdesk.paths import resolve_db_path
from memdesk.store import SchemaError

# Service error code -> exit code (anything else that is the caller's: 2).
_EXIT = {
    "not_found": 3,
    "not_allowed": 4,
    "version_conflict": 4,
    "l0_full": 4,
    "too_large": 4,
    "busy": 5,
    "disk_full": 5,
    "read_only": 5,
    "storage_failed": 5,
    "storage": 5,  # the server's name for a full disk or a read-only database
    "unavailable": 5,
    "outcome_unknown": 5,
    "sync_failed": commands.SYNC_FAILED,
}


_OWN_PROCESS = {  # speak their own protocols on stdio; they return the exit code
    setup.serve,
    setup.mcp,
    setup.hook,
}
_NO_DATABASE = {  # read or write other files, never the database
    setup.doctor,
    setup.attach,
    setup.detach,
    setup.service,
    setup.desktop,
}


# Commands that only read: a database that is not there is named, not made (a mistyped --db
# made its folders and an empty store, and `list` answered "no memories").
_READS = {
    commands.search,
    commands.list_,
    commands.show,
    commands.history,
    commands.export,
    commands.stats,
    commands.check,
    commands.agents,
    commands.injections,
}


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    try:
        args = cli_parser.parser().parse_args(given)
    except cli_parser.UsageError as exc:
        return _fail(str(exc), "invalid", 2, "--json" in given)
    except BrokenPipeError:  # `memdesk --print-completion bash | head`
        _quiet_stdout()
        return 0
    args.db = resolve_db_path(getattr(args, "db", None))
    handler = getattr(args, "handler", None)
    as_json = getattr(args, "json", False)
    code = 0
    try:
        if handler is None:
            from memdesk.ui import app

            return app.run(args.db)
        if handler in _OWN_PROCESS:
            return handler(None, args)
        if handler in _NO_DATABASE:
            result = handler(None, args)
        elif handler in _READS and not args.db.exists() and not _under_a_file(args.db):
            return _fail(
                f"no memdesk database at {args.db}: nothing was created (`memdesk add` or the "
                "window makes one there; --db or MEMDESK_DB names another)",
                "not_found",
                3,
                as_json,
                "db",
            )
        else:
            with cli_output.backend(args.db) as svc:
                result = handler(svc, args)
    except commands.ProblemsFound as found:
        result, code = found.result, found.code
    except MemdeskError as exc:
        return _fail(exc.message, exc.code, _EXIT.get(exc.code, 2), as_json, exc.field)
    except SchemaError as exc:
        return _fail(str(exc), "unusable_database", 5, as_json)
    except sqlite3.DatabaseError as exc:  # pages damaged after it opened, or the disk full
        if broken := broken_index(exc):
            return _fail(broken.message, broken.code, 5, as_json)
        if paths.disk_full(args.db, exc):
            return _fail(paths.unusable(args.db, exc), "disk_full", 5, as_json)
        message = f"{args.db}: the database file is damaged ({exc}); `memdesk check` says what "
        message += "is wrong, `memdesk restore-backup` replaces it with a backup"
        return _fail(message, "damaged_database", 5, as_json)
    except BrokenPipeError:  # `memdesk export | head`: the reader has all it wanted
        _quiet_stdout()
        return 0
    except OSError as exc:  # e.g. export -o into a folder that does not exist
        # a full or read-only disk is the legend's 5, not the caller's mistake
        code = 5 if paths.unavailable(exc) else 2
        return _fail(paths.describe(exc), "os_error", code, as_json)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the query builder's errors are not sqlite3's
        if (broken := broken_index(exc)) is None:
            raise
        return _fail(broken.message, broken.code, 5, as_json)
    if result is not None:
        try:
            if as_json:
                print(json.dumps(result, indent=2, ensure_ascii=False))
            else:
                print(visible(cli_output.human(args.command, result)))
            sys.stdout.flush()
        except BrokenPipeError:  # `memdesk list | head`: the reader has all it wanted
            _quiet_stdout()
    return code


def _under_a_file(path: Any) -> bool:
    """A path through a file: opening it says so plainly."""
    return any(folder.is_file() for folder in path.parents)


def _quiet_stdout() -> None:
    """What is left to print goes nowhere: Python's own flush at exit would fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _fail(message: str, kind: str, code: int, as_json: bool, field: str | None = None) -> int:
    if as_json:
        error: dict[str, Any] = {"type": kind, "message": message, "exit_code": code}
        if field:
            error["field"] = field
        print(json.dumps({"error": error}, ensure_ascii=False), file=sys.stderr)
    else:
        # a handed file's words are quoted in errors: its escape sequences shown, never run
        print(f"memdesk: error: {visible(message.replace(chr(10), '; '))}", file=sys.stderr)
    return code
