"""What each `memdesk` subcommand does. Each takes the backend (the service when the CLI owns
the database, else a client of the running memdesk: `cli_output.backend`) and the parsed
arguments, and returns what to print (or raises a MemdeskError)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from memdesk import cli_review, paths, whole_file
from memdesk.core import MemdeskError, ValidationError
from memdesk.core.files.importing import MAX_IMPORT_BYTES
from memdesk.core.sync import config as sync_config


def _read_text(value: str) -> str:
    return sys.stdin.read() if value == "-" else value


def add(svc: Any, a: argparse.Namespace) -> Any:
    fields = _fields(a)
    return svc.add(_read_text(a.content), dedup=not a.no_dedup, **fields)


def search(svc: Any, a: argparse.Namespace) -> Any:
    return svc.search(a.query, k=a.k, include_inactive=a.all, **_narrowing(a))


def list_(svc: Any, a: argparse.Namespace) -> Any:
    status = None if a.status == "all" else a.status
    return svc.list_memories(
        kind=a.kind, status=status, offset=a.offset, limit=a.limit, order=a.order, **_narrowing(a)
    )


def _narrowing(a: argparse.Namespace) -> dict[str, Any]:
    """The filters `search` and `list` share (layer, project, task, tag, since, until)."""
    return {
        "layers": a.layer,
        "project": a.project,
        "task": a.task,
        "tags": a.tag,
        "since": a.since,
        "until": a.until,
    }


def show(svc: Any, a: argparse.Namespace) -> Any:
    return svc.get(a.id)


def edit(svc: Any, a: argparse.Namespace) -> Any:
    fields = _fields(a)
    if a.content is not None:
        fields["content"] = _read_text(a.content)
    if a.correct:
        if "content" not in fields:
            raise MemdeskError("--correct needs --content with the corrected text", field="content")
        return svc.correct(a.id, fields.pop("content"), reason=a.reason, **fields)
    if not fields:
        raise MemdeskError(
            "nothing to change: give --content, --tag, --kind, --layer, "
            "--project, --task, --importance or --visibility",
            field="content",
        )
    before = svc.get(a.id) if fields.get("visibility") == "private" else None
    updated = svc.update(a.id, expected_version=a.expected_version, reason=a.reason, **fields)
    if before is not None and before["visibility"] == "shared":
        _private_is_not_taken_back(Path(a.db), before)
    return updated


def _private_is_not_taken_back(db: Path, before: dict[str, Any]) -> None:
    """Sync never sends a private memory; it cannot unsend the shared one (#34 item 4). Said
    only of the remotes that carried it (an identity line never goes to a team's)."""
    from memdesk.core.sync import config as sync_config

    try:
        config = sync_config.load(db)
    except (OSError, ValueError):
        return
    remotes = [
        r.name
        for r in config.remotes
        if r.takes(before["project"], before["layer"], config.excluded(r))
    ]
    if remotes:
        print(
            f"note: from now on this memory is not synced; if a sync sent it before, its last "
            f"shared version stays in {', '.join(remotes)} (the files and their history) and "
            "on your other machines until you delete it there",
            file=sys.stderr,
        )


def rm(svc: Any, a: argparse.Namespace) -> Any:
    if a.purge:
        svc.purge(a.id)
        return {"purged": a.id}
    memory = svc.get(a.id)
    if memory["status"] == "deleted":  # said as done, it read as a second removal
        return {**memory, "unchanged": "already in the Trash"}
    return svc.remove(a.id)


def restore(svc: Any, a: argparse.Namespace) -> Any:
    memory = svc.get(a.id)
    if memory["status"] == "active":
        return {**memory, "unchanged": "already active, not in the Trash"}
    return svc.restore(a.id)


def history(svc: Any, a: argparse.Namespace) -> Any:
    return svc.history(a.id)


def identity(svc: Any, a: argparse.Namespace) -> Any:
    if a.set is not None:
        return svc.set_identity(_read_text(a.set))
    if a.file is not None:
        return svc.set_identity(_read_file(a.file))
    return svc.identity()


def export(svc: Any, a: argparse.Namespace) -> Any:
    if a.output:
        try:  # not over the store itself, which another process may be serving
            paths.refuse_open_database(a.output, also=(paths.resolve_db_path(a.db),))
        except paths.NotAFile as exc:
            raise MemdeskError(f"{exc}; write the export to another file", field="output") from None

    def write(out: Any) -> None:
        if a.format == "json":
            svc.export_json_to(out, layers=a.layer, project=a.project)
        else:
            text = svc.export(a.format, layers=a.layer, project=a.project)
            out.write(text)
            if out is sys.stdout and not text.endswith("\n"):
                out.write("\n")  # a terminal's prompt on a line of its own

    if not a.output:
        write(sys.stdout)
        if a.format == "json":
            sys.stdout.write("\n")
        return None
    output = Path(a.output)
    written = _CountedText()
    if output.is_symlink() or output.exists() and not output.is_file():
        # a FIFO, /dev/null, a link: written into as it is (moving a file over it would
        # replace it, as root even /dev/null)
        with output.open("w", encoding="utf-8") as out:
            write(written.into(out))
    else:
        with whole_file.writing(output) as out:
            write(written.into(out))
    return {"exported": a.output, "format": a.format, "bytes": written.bytes}


class _CountedText:
    """A text stream that counts the UTF-8 bytes written through it."""

    def __init__(self) -> None:
        self.out: Any = None
        self.bytes = 0

    def into(self, out: Any) -> _CountedText:
        self.out = out
        return self

    def write(self, text: str) -> int:
        self.bytes += len(text.encode("utf-8"))
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


def _read_file(name: str) -> str:
    try:
        return paths.read_regular_file(name, MAX_IMPORT_BYTES).decode("utf-8")
    except paths.NotAFile as exc:
        raise MemdeskError(f"{exc}; give a JSON export file", field="file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MemdeskError(f"cannot read {name}: {exc}", field="file") from None


def import_(svc: Any, a: argparse.Namespace) -> Any:
    text = _read_file(a.file)
    if a.dry_run:
        plan = svc.plan_import(text)
        if plan["errors"]:
            raise MemdeskError("; ".join(plan["errors"][:5]), field="file")
        return {
            "added": len(plan["added"]),
            "changed": len(plan["changed"]),
            "changed_your_words": len(plan["changed_your_words"]),
            "identity_lines": len(plan["identity_lines"]),
            "older": len(plan["older"]),
            "kept_private": len(plan["kept_private"]),
            "unchanged": plan["unchanged"],
            "dry_run": True,
        }
    result = svc.import_json(text)
    return {k: v for k, v in result.items() if k != "ids"}


def stats(svc: Any, a: argparse.Namespace) -> Any:
    return svc.stats()


SYNC_FAILED = 6  # the exit code when a sync remote could not be reached or refused


class ProblemsFound(Exception):
    """The command ran and printed its result, which reports a failure: exit with `code`
    (1: check found problems; 6: a sync remote failed)."""

    def __init__(self, result: dict[str, Any], code: int = 1) -> None:
        super().__init__()
        self.result = result
        self.code = code


def check(svc: Any, a: argparse.Namespace) -> Any:
    if a.rebuild:
        svc.rebuild_index()
    problems = svc.check()
    result = {"ok": not problems, "problems": problems}
    if problems:
        raise ProblemsFound(result)  # printed as usual, then exit code 1
    return result


def backup(svc: Any, a: argparse.Namespace) -> Any:
    return svc.backups() if a.list else svc.backup()


# Which of `sync`'s options each action reads (None: a sync itself). An option given to an
# action that ignores it is refused before anything changes: `sync remove team --dry-run`
# removed the remote.
_SYNC_OPTIONS = {
    "url": ("init", "remove", "trust", "untrust", "local"),
    "branch": ("init",),
    "projects": ("init",),
    "writer": ("init",),
    "name": ("init", None),
    "shared": ("local",),
    "dry_run": (None,),
    "yes": ("trust",),
}
_SYNC_FLAGS = {
    "url": "REMOTE",
    "branch": "--branch",
    "projects": "--project",
    "writer": "--as",
    "name": "--name",
    "shared": "--shared",
    "dry_run": "--dry-run",
    "yes": "--yes",
}


def _sync_usage(action: str | None) -> str:
    takes = [_SYNC_FLAGS[k] for k, actions in _SYNC_OPTIONS.items() if action in actions]
    shown = f"sync {action}" if action else "sync"
    return f"`{shown}` takes {', '.join(takes)}" if takes else f"`{shown}` takes no options"


def sync(svc: Any, a: argparse.Namespace) -> Any:
    for option, actions in _SYNC_OPTIONS.items():
        if getattr(a, option) and a.action not in actions:
            goes_with = ", ".join(f"`sync {x}`" if x else "`sync` itself" for x in actions)
            raise ValidationError(
                f"{_SYNC_FLAGS[option]} goes with {goes_with}; {_sync_usage(a.action)}",
                field=option,
            )
    if a.action == "init":
        if not a.url:
            raise ValidationError("sync init needs the remote: sync init REMOTE", field="url")
        options = {"branch": a.branch, "name": a.name, "projects": a.projects, "writer": a.writer}
        # Read here: a server started by a hook has the agent's repository for its folder.
        url = sync_config.from_folder(a.url, Path.cwd())
        return svc.sync_init(url, **{k: v for k, v in options.items() if v is not None})
    if a.action == "remove":
        if not a.url:
            raise ValidationError("name the remote: sync remove NAME", field="name")
        return svc.sync_remove(a.url)
    if a.action == "trust":
        if not a.url:
            raise ValidationError("name the writer: sync trust WRITER", field="writer")
        return svc.sync_trust(a.url, unmet=a.yes)
    if a.action == "untrust":
        if not a.url:
            raise ValidationError("name the writer: sync untrust WRITER", field="writer")
        return svc.sync_trust(a.url, trusted=False)
    if a.action == "local":
        if not a.url:
            raise ValidationError("name the project: sync local PROJECT", field="project")
        return svc.sync_local(a.url, local=not a.shared)
    if a.action == "status":
        return svc.sync_status()
    result = svc.sync(a.name, dry_run=a.dry_run)
    if not all(r["ok"] for r in result["remotes"]):
        raise ProblemsFound(result, SYNC_FAILED)  # printed as usual, the others synced
    return result


def restore_backup(svc: Any, a: argparse.Namespace) -> Any:
    # A path (anything with a slash) is the caller's: over the socket the owner's working
    # folder is not ours. A bare name is looked up among the backups.
    is_path = "/" in a.name or a.name.startswith("~")
    return svc.restore_backup(str(Path(a.name).expanduser().resolve()) if is_path else a.name)


def ingest(svc: Any, a: argparse.Namespace) -> Any:
    from memdesk.api import transcripts

    try:
        messages, found, _ = transcripts.read(a.file)
    except transcripts.TranscriptError as exc:
        raise MemdeskError(str(exc), field="file") from None
    session = a.session or found or f"ingest-{Path(a.file).stem}"
    svc.session_start(session, agent=a.agent, project=a.project)
    ended = [svc.session_end(session, transcript=part) for part in transcripts.parts(messages)]
    found = {
        key: [item for end in ended for item in end[key]]
        for key in ("stored", "proposed", "skipped")
    }
    return {**ended[-1], **found}


def proposals(svc: Any, a: argparse.Namespace) -> Any:
    if a.accept is not None or a.dismiss is not None:
        accept = a.accept is not None
        return svc.decide_proposal(a.accept if accept else a.dismiss, accept)
    return svc.proposals("all" if a.all else "pending")


def inbox(svc: Any, a: argparse.Namespace) -> Any:
    if a.text is not None and not a.accept:  # was ignored, and the Inbox listed
        raise ValidationError("--text goes with --accept KEY", field="text")
    if a.reason is not None and not (a.reject or a.reject_all):
        raise ValidationError("--reason goes with --reject KEY or --reject-all", field="reason")
    if a.accept:
        return svc.accept(a.accept, content=a.text)
    if a.reject:
        return svc.reject(a.reject, reason=a.reason)
    if a.reconsider:
        return svc.reconsider(a.reconsider)
    if a.find_duplicates:
        return svc.find_duplicates(project=a.project)
    if a.reject_all and not a.agent:
        raise ValidationError(
            "--reject-all rejects one agent's items: name it with --agent NAME", field="agent"
        )
    if a.ask and a.json:
        raise ValidationError(
            "--ask puts items to a person at a terminal; --json lists them for a script",
            field="ask",
        )
    items = svc.inbox("rejected" if a.rejected else "pending")
    if a.agent:  # one agent's flood, seen and dismissed apart from what else waits
        items = [i for i in items if i.get("agent") == a.agent]
    if a.heard:  # what the person said, among what agents sent
        items = [i for i in items if i.get("heard")]
    if a.ask:
        return cli_review.ask(svc, items)
    if not a.reject_all:
        return items
    keys = [i["key"] for i in items]
    done: list[Any] = []
    for start in range(0, len(keys), _KEYS_AT_ONCE):
        done += svc.reject(keys[start : start + _KEYS_AT_ONCE], reason=a.reason)
    return done


_KEYS_AT_ONCE = 1000


def agents(svc: Any, a: argparse.Namespace) -> Any:
    return svc.agents()


def injections(svc: Any, a: argparse.Namespace) -> Any:
    return svc.injections(a.sessions)


def _fields(a: argparse.Namespace) -> dict[str, Any]:
    names = ("layer", "kind", "project", "task", "importance", "visibility")
    fields = {n: getattr(a, n) for n in names if getattr(a, n, None) is not None}
    if isinstance(fields.get("layer"), list):
        fields["layer"] = fields["layer"][-1]
    if getattr(a, "tag", None):
        fields["tags"] = a.tag
    return fields
