"""The `memdesk` subcommands that set memdesk up for agent hosts and the desktop: hooks,
`serve` and `mcp` (which speak their own protocols), doctor, attach and detach, the login
service and the desktop entry. Each reads or writes files beside the database, never the
database itself (except `serve` and `mcp`, which own or reach it)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from memdesk.cli_commands import ProblemsFound
from memdesk.core import MemdeskError


def hook(svc: Any, a: argparse.Namespace) -> int:
    if a.event != "install":
        from memdesk.api import hooks

        out, err = hooks.run(
            a.event, sys.stdin.read(), a.db, deny=a.deny_forbidden, agent=a.agent, socket=a.socket
        )
        sys.stdout.write(out + "\n" if out else "")
        sys.stderr.write(err)
        return 0  # fail-open: a hook never blocks the agent
    from memdesk import paths
    from memdesk.api import attach, hook_settings, naming

    path = hook_settings.settings_path(a.project)
    command = hook_settings.memdesk_command()
    # Claude Code runs the hooks without the person's environment: a socket they chose
    # (--socket, MEMDESK_SOCKET) is written into each hook, as the window's Attach does
    served = a.socket or naming.socket_path(paths.resolve_db_path(a.db))
    socket = naming.chosen_socket(paths.resolve_db_path(a.db), served)
    try:
        if a.project:  # a repository's `.claude -> ~/.claude` took the person's own settings
            attach.refuse_leaving(Path.cwd(), path)
        new, diff = hook_settings.plan(path, command, a.db, a.deny_forbidden, socket)
    except ValueError as exc:
        raise MemdeskError(str(exc), field="settings") from None
    snippet = hook_settings.mcp_snippet(command, a.db, socket)
    mcp = f"For memdesk's MCP tools on the same database: {snippet}"
    if not diff:
        print(f"memdesk's hooks are already in {path}; nothing to change\n{mcp}")
        return 0
    print(diff, end="")
    if not a.yes:
        if not sys.stdin.isatty():
            raise MemdeskError("not a terminal to confirm on; add --yes to write the file")
        if input(f"Write these changes to {path}? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing written")
            return 0
    old = path.read_bytes().decode("utf-8") if path.exists() else None
    _planned(lambda: attach.apply([attach.Change(path, new, diff, old)]))
    print(
        f"wrote {path}; Claude Code runs memdesk at session start, on each prompt, before "
        f"and after each tool call and at the end\n{mcp}"
    )
    return 0


def serve(_svc: Any, a: argparse.Namespace) -> int:
    from memdesk.api import serve

    return serve.run(a)


def doctor(_svc: Any, a: argparse.Namespace) -> dict[str, Any]:
    from memdesk.api import doctor

    report = doctor.examine(a.db)
    result = {
        "checks": [{"ok": not line.startswith("!"), "text": line[2:]} for line in report.lines],
        "problems": report.problems,
    }
    if report.problems:
        raise ProblemsFound(result, 1)
    return result


def attach(_svc: Any, a: argparse.Namespace) -> dict[str, Any] | None:
    from memdesk import paths
    from memdesk.api import attach as hosts
    from memdesk.api import naming

    portable = getattr(a, "portable", False)
    # The host starts memdesk without the person's environment: a socket they chose is
    # written into its entry and hooks, as the window's Attach does. MEMDESK_SOCKET is this
    # machine's, so a portable file takes only a socket named with --socket.
    socket = None
    if a.socket or not portable:
        db_path = paths.resolve_db_path(a.db)
        socket = naming.chosen_socket(db_path, a.socket or naming.socket_path(db_path))
    changes = _planned(
        lambda: hosts.plan_attach(
            a.host,
            project=a.project,
            db=None if portable else a.db,
            cwd=Path.cwd(),
            home=Path.home(),
            command=hosts.PORTABLE if portable else None,
            socket=socket,
        )
    )
    if a.project and changes and not portable:
        changes[0] = dataclasses.replace(
            changes[0],
            note=(changes[0].note + "; " if changes[0].note else "")
            + "this names this machine's memdesk and database by absolute path; for a file "
            "your team commits, attach with --portable (`memdesk` from each person's PATH, on "
            "their default database)",
        )
    first = hosts.HOSTS[a.host].first(a.project)
    where = " --project" if a.project else ""
    done = (
        f"attached memdesk to {a.host} ({', '.join(str(c.path) for c in changes)}); "
        f"restart {a.host} to load it{f', then {first}' if first else ''}. "
        f"`memdesk detach {a.host}{where}{' --portable' if portable else ''}` takes it out "
        "again"
        + (
            ". Written portable: each person needs `memdesk` on PATH; it uses their default "
            "database"
            if portable
            else ""
        )
    )
    nothing = f"memdesk is already attached to {a.host} there, on {a.db}; nothing to change"
    return _write_host_files(a, changes, done, nothing)


def detach(_svc: Any, a: argparse.Namespace) -> dict[str, Any] | None:
    from memdesk.api import attach as hosts

    portable = getattr(a, "portable", False)
    changes = _planned(
        lambda: hosts.plan_detach(
            a.host,
            project=a.project,
            cwd=Path.cwd(),
            home=Path.home(),
            command=hosts.PORTABLE if portable else None,
        )
    )
    elsewhere = (
        "in this project (without --project: your own files)"
        if a.project
        else "in your own files (with --project: this project's)"
    )
    nothing = f"memdesk is not attached to {a.host} {elsewhere}; nothing to change"
    done = f"detached memdesk from {a.host}; every other entry is as it was"
    return _write_host_files(a, changes, done, nothing)


def _write_host_files(
    a: argparse.Namespace, changes: list[Any], done: str, nothing: str
) -> dict[str, Any] | None:
    """Show the diffs, ask (unless --yes), write. Under --json nothing is asked: without
    --yes the changes are only listed (written false)."""
    from memdesk.api import attach as hosts

    as_json = getattr(a, "json", False)
    result: dict[str, Any] = {
        "host": a.host,
        "project": a.project,
        "changes": [
            {
                "path": str(c.path),
                "action": "delete" if c.new is None else ("create" if c.old is None else "edit"),
                "diff": c.diff,
                "note": c.note,
            }
            for c in changes
        ],
        "written": False,
        "message": nothing if not changes else "",
    }
    if changes and (a.yes if as_json else _confirmed(changes, a.yes)):
        _planned(lambda: hosts.apply(changes))
        result.update(written=True, message=done)
    if as_json:
        return result
    if result["message"]:
        print(result["message"])
    return None


def service(_svc: Any, a: argparse.Namespace) -> dict[str, Any]:
    from memdesk.api import hook_settings, user_service

    if a.action == "remove":
        return {"message": user_service.remove()}
    import shlex

    command = shlex.split(hook_settings.memdesk_command())
    return {"message": user_service.install(command, Path(a.db).expanduser().resolve())}


def desktop(_svc: Any, a: argparse.Namespace) -> dict[str, Any]:
    from memdesk import desktop_entry
    from memdesk.api import hook_settings

    if a.action == "remove":
        gone = desktop_entry.remove()
        return {
            "removed": [str(p) for p in gone],
            "message": f"removed {', '.join(map(str, gone))}"
            if gone
            else "no desktop entry to remove",
        }
    written = desktop_entry.install(hook_settings.memdesk_command())
    return {
        "written": [str(p) for p in written],
        "message": f"wrote {', '.join(map(str, written))}; memdesk is in your application menu "
        "(`memdesk desktop remove` takes it out)",
    }


def _planned(plan: Any) -> Any:
    try:
        return plan()
    except ValueError as exc:
        raise MemdeskError(str(exc), field="settings") from None


def _confirmed(changes: list[Any], yes: bool) -> bool:
    """Show every file's diff, then ask (or not, with --yes)."""
    for change in changes:
        print(change.diff, end="")
        if change.note:
            print(f"note: {change.note}")
    if yes:
        return True
    if not sys.stdin.isatty():
        raise MemdeskError("not a terminal to confirm on; add --yes to write the files")
    files = ", ".join(str(c.path) for c in changes)
    if input(f"Write these changes to {files}? [y/N] ").strip().lower() in ("y", "yes"):
        return True
    print("nothing written")
    return False


def mcp(_svc: Any, a: argparse.Namespace) -> int:
    from memdesk.api import mcp_bridge

    return mcp_bridge.run(a)
