"""What the CLI talks to, and how it prints results for people."""

from __future__ import annotations

import shutil
import textwrap
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memdesk.api import remote as api_remote
from memdesk.core import MemoryService, display
from memdesk.core.files.backups import KINDS as BACKUP_KINDS
from memdesk.core.rules import KINDS
from memdesk.core.sync.report import WOULD, count, would_count
from memdesk.core.sync.writers import trust_command


@contextmanager
def backend(db_path: Path) -> Iterator[Any]:
    """The running memdesk that owns `db_path`, through its socket; else the file itself.

    Both have the same method names (`memdesk.api.remote.RemoteService` mirrors the service),
    so each command has one code path. Over the socket the CLI greets as the user's own tool
    (role "user"), so the user's rules apply as when it opens the file.
    """
    remote = api_remote.connect(db_path, agent="cli")
    if remote is not None:
        with remote:
            yield remote
        return
    service = MemoryService.open(db_path)
    try:
        yield service
    finally:
        service.close()


def _width() -> int:
    return max(60, shutil.get_terminal_size((100, 24)).columns)


def columns(text: str) -> int:
    """Terminal columns `text` takes: East Asian wide and fullwidth characters take two,
    combining marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def one_line(text: str, room: int) -> str:
    """`text` on one line of at most `room` terminal columns, cut with an ellipsis."""
    first = " ".join(text.split())
    if columns(first) <= room:
        return first
    used, kept = 1, []  # 1: the ellipsis
    for char in first:
        used += columns(char)
        if used > room:
            break
        kept.append(char)
    return "".join(kept) + "…"


_KIND_WIDTH = max(map(len, KINDS))  # "observation" ran into its text


def _row(m: dict[str, Any], lead: str = "") -> str:
    head = f"{lead}{m['id'][:8]}  {m['layer']} {m['kind']:<{_KIND_WIDTH}} "
    tags = f"  [{', '.join(m['tags'])}]" if m.get("tags") else ""
    return head + one_line(m["content"], _width() - columns(head) - columns(tags)) + tags


def _memory(m: dict[str, Any]) -> str:
    writer = display.written_by(m)
    if m.get("writer"):  # it came through sync: whose machine wrote it
        writer += f", from {m['writer']}"
    lines = [
        f"id          {m['id']}",
        f"layer       {m['layer']}    kind {m['kind']}    status {m['status']}",
        f"written by  {writer}",
        f"created     {m['created_at']}    updated {m['updated_at']}    version {m['version']}",
        f"project     {m['project'] or '-'}    task {m['task'] or '-'}",
        f"tags        {', '.join(m['tags']) or '-'}",
        f"importance  {m['importance']:g}    recalled {m['recall_count']}x"
        f"    reinforced {m['reinforce_count']}x",
    ]
    if m.get("supersedes"):
        lines.append(f"supersedes  {m['supersedes']}")
    for link in m.get("links", []):
        arrow = "->" if link["direction"] == "out" else "<-"
        lines.append(f"link        {arrow} {link['relation']} {link['id']}")
    if m.get("more_links"):
        lines.append(f"link        … more than these {len(m['links'])}")
    return "\n".join(lines) + "\n\n" + m["content"]


def _history(versions: list[dict[str, Any]]) -> str:
    out = []
    for v in versions:
        # One line per version, and its words' lines at "\n" only: a reason or a text with a
        # line break of its own printed what looked like another version, the person's.
        reason = (v.get("reason") or "").replace("\n", "⟨U+000A⟩")
        why = f" ({reason})" if reason else ""
        out.append(f"v{v['version']}  {v['at']}  {v['change']} by {v['by']}{why}  [{v['status']}]")
        out.extend("    " + line for line in v["content"].split("\n"))
    return "\n".join(out)


def _stats(s: dict[str, Any]) -> str:
    def counts(d: dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in d.items()) or "-"

    top_tags = dict(list(s["tags"].items())[:10])
    return "\n".join(
        [
            f"database    {s['path']}",
            f"memories    {s['total']} ({counts(s['by_status'])})",
            f"layers      {counts(s['by_layer'])}",
            f"kinds       {counts(s['by_kind'])}",
            f"sources     {counts(s['by_source'])}",
            f"projects    {counts(s['projects'])}",
            f"tags        {counts(top_tags)}",
            f"identity    {s['identity']['size']} / {s['identity']['limit']} characters",
            f"versions    {s['versions']}    links {s['links']}    searches {s['searches']}",
        ]
    )


def human(command: str, result: Any) -> str:
    """Readable text for a command's result."""
    if command in ("add", "edit", "rm", "restore") and "content" in result:
        verb = {"add": "added", "edit": "saved", "rm": "moved to Trash", "restore": "restored"}
        if result.get("duplicate_of"):
            return (
                f"already known; reinforced {result['id'][:8]} "
                f"({result['reinforce_count']}x)\n{_row(result)}"
            )
        said = f"{verb[command]} {result['id'][:8]} (version {result['version']})"
        if result.get("unchanged"):
            said = f"nothing to do: {result['id'][:8]} is {result['unchanged']}"
        if result.get("restates"):
            said += (
                f"; an agent's note {result['restates'][:8]} says the same (yours is kept apart)"
            )
        return f"{said}\n{_row(result)}"
    if command == "search":
        if not result["hits"]:
            return "no memories match"
        # Each score beside the best one: BM25 of common words is tiny, and three decimals
        # showed every hit as 0.000.
        best = result["hits"][0]["score"] or 1.0
        rows = [
            _row(h, f"{n:>2}. {h['score'] / best:4.0%}  ") for n, h in enumerate(result["hits"], 1)
        ]
        if result.get("by_related_words"):
            rows.insert(0, "no memory holds these words; found by related ones:")
        return "\n".join(rows)
    if command == "list":
        return "\n".join(_row(m) for m in result) if result else "no memories"
    if command == "show":
        return _memory(result)
    if command == "history":
        return _history(result)
    if command == "identity":
        return f"{result['text'] or '(empty)'}\n\n{result['size']} / {result['limit']} characters"
    if command == "stats":
        return _stats(result)
    if command == "check":
        return (
            "ok: the file and the search index are healthy"
            if result["ok"]
            else "problems:\n" + "\n".join(f"  {p}" for p in result["problems"])
        )
    if command == "ingest":
        return _session_end(result)
    if command == "proposals":
        rows = result if isinstance(result, list) else [result]
        return "\n".join(_proposal(p) for p in rows) if rows else "no proposals waiting"
    if command == "inbox":
        return _inbox(result)
    if command == "agents":
        if not result:
            return "no agent has opened a session yet"
        return "\n".join(
            f"{a['agent']:<20} last seen {a['last_seen'][:16].replace('T', ' ')}  "
            f"{'(open) ' if a['open'] else ''}{one_line(a['last'], 60)}"
            for a in result
        )
    if command == "injections":
        return _injections(result)
    if command == "doctor":
        lines = [f"{'  ' if c['ok'] else '! '}{c['text']}" for c in result["checks"]]
        problems = result["problems"]
        return "\n".join([*lines, f"{problems} problem(s) found" if problems else "all is well"])
    if command in ("service", "desktop"):
        return str(result["message"])
    if command == "backup":
        if isinstance(result, list):
            return "\n".join(_backup(b) for b in result) if result else "no backups yet"
        return f"backed up to {result['path']}\n{_backup(result)}"
    if command == "sync":
        return _sync(result)
    if command == "restore-backup":
        return (
            f"restored {result['restored']} ({result['memories']:,} memories); the state "
            f"before is kept as {result['before']['name']}"
        )
    return "\n".join(f"{k}: {v}" for k, v in result.items())


INJECTED = {"start": "session start", "prompt": "prompt", "action": "before a tool call"}


def _injections(sessions: list[dict[str, Any]]) -> str:
    if not sessions:
        return "no agent session has been given memories yet"
    lines = []
    for s in sessions:
        where = _one_line(" · ".join(x for x in (s["project"], s["task"]) if x))
        lines.append(
            f"{_one_line(s['agent'] or '')} session {_one_line(s['session'])}"
            f"{f' ({where})' if where else ''}, "
            f"{s['started_at'][:16].replace('T', ' ')}: {s['chars']:,} characters "
            f"(≈ {s['tokens']:,} tokens)"
        )
        for e in s["events"]:
            lines.append(
                f"  {e['at'][11:19]} {INJECTED.get(e['event'], e['event'])}: "
                f"{len(e['memories'])} memories, {e['chars']:,} characters"
            )
            for m in e["memories"]:
                mark = " [acted on]" if m["acted_on"] else ""
                mark += " [went against]" if m["went_against"] else ""
                lines.append(f"    {m['id'][:8]} {one_line(m['line'], 70)}{mark}")
    return "\n".join(lines)


def _sync(result: dict[str, Any]) -> str:
    if "every_minutes" in result:  # the status
        if not result["remotes"] and not result["local"]:
            return "sync is not set up; memdesk sync init REMOTE sets it up"
        lines = []
        for r in result["remotes"]:
            takes = f"projects {', '.join(r['projects'])}" if r["projects"] else "your own"
            lines.append(f"{r['name']}: {r['url']} ({r['branch']}; {takes})")
            last = r["last"]
            if last is None:
                lines.append("  never synced: run memdesk sync")
            elif last["ok"]:
                lines.append(f"  last sync {last['at']}: {_sync_counts(last)}")
                lines.extend(f"  note: {said}" for said in last.get("notices", []))
            else:
                lines.append(f"  last sync {last['at']} failed: {last['error']}")
            if r["waiting"]:
                lines.append(f"  {r['waiting']} conflict(s) wait in the inbox: memdesk inbox")
        if result["local"]:
            lines.append(f"kept on this machine only: {', '.join(result['local'])}")
        lines.append(f"your memories are by {result['writer']}")
        if result.get("machines"):
            lines.append(f"your other machines: {', '.join(result['machines'])}")
        for writer in result.get("unconfirmed", []):
            lines.append(
                f"met, not confirmed as yours: {writer} ({trust_command(writer)} if it is)"
            )
        if result.get("notice"):
            lines.append(f"note: {result['notice']}")
        return "\n".join(lines)
    lines = []
    for r in result["remotes"]:
        if not r["ok"]:
            lines.append(f"{r['remote']}: failed: {r['error']}")
            continue
        if r.get("dry_run"):
            lines.append(f"{r['remote']}: {_preview(r)}")
            lines.extend(_would(r))
        else:
            lines.append(f"{r['remote']}: {_sync_counts(r)}")
        # one line each: a remote's file name with a line break printed lines of its own
        # ("origin: all memories in sync")
        lines.extend(
            f"  {'would refuse' if r.get('dry_run') else 'refused'} {_one_line(why)}"
            for why in r["refused"]
        )
        lines.extend(f"  note: {_one_line(said)}" for said in r.get("notices", []))
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return text.replace("\r", "⟨U+000D⟩").replace("\n", "⟨U+000A⟩")


WOULD_SHOWN = 20  # each; --json names up to a thousand


def _would(r: dict[str, Any]) -> Iterator[str]:
    for key, verb in WOULD.items():
        named = r.get("would", {}).get(key, [])
        yield from (f"  would {verb} {_one_line(line)}" for line in named[:WOULD_SHOWN])
        if (total := would_count(r, key)) > WOULD_SHOWN:
            yield f"  … and {total - WOULD_SHOWN:,} more to {verb} (--json names the first 1,000)"


def _preview(r: dict[str, Any]) -> str:
    text = f"would send {r['sent']}, take {r['taken']}"
    if r["to_trash"]:
        text += f" ({r['to_trash']} of them to the Trash)"
    if r["conflicts"]:
        text += f", ask you about {r['conflicts']} conflict(s)"
    return text + _kept_here(r) + "; nothing was changed (dry run)"


def _sync_counts(r: dict[str, Any]) -> str:
    text = f"sent {r['sent']}, took {r['taken']}"
    if r.get("to_trash"):
        text += f" ({r['to_trash']} of them to the Trash)"
    if r["conflicts"]:
        text += f", {r['conflicts']} conflict(s) in the inbox"
    if r["refused"]:
        text += f", refused {count(r, 'refused'):,} file(s)"
    return text + _kept_here(r)


def _kept_here(r: dict[str, Any]) -> str:
    """Changes the person chose not to take (private here, `sync local`, a team's project):
    counted, never listed at each sync, nor told as refused with forged and broken files."""
    kept = count(r, "kept_here")
    return f", kept here {kept} (not shared from this machine)" if kept else ""


def _session_end(r: dict[str, Any]) -> str:
    lines = [f"session {r['session']}"]
    for title, key in (("stored", "stored"), ("proposed", "proposed"), ("skipped", "skipped")):
        for item in r[key]:
            why = f"  ({item['why']})" if item.get("why") else ""
            lines.append(f"  {title:<9} {item['content']}{why}")
    if r.get("summary"):
        state = "unchanged" if r["summary"].get("unchanged") else "filed"
        lines.append(f"  summary   {state} as {r['summary']['id'][:8]}")
    return "\n".join(lines)


def _proposal(p: dict[str, Any]) -> str:
    return f"{p['id']:>4}  [{p['status']}] {p['content']}  — from {p['agent']}: {p['why']}"


def _backup(b: dict[str, Any]) -> str:
    when = b["taken_at"].replace("T", " ").replace("+00:00", " UTC")
    count = "?" if b["memories"] is None else f"{b['memories']:,}"
    kind = BACKUP_KINDS[b["kind"]]
    return f"{b['name']}  {when}  {count} memories  {b['bytes'] / 1e6:.1f} MB  ({kind})"


def _inbox(result: Any) -> str:
    if isinstance(result, dict) and "kept" in result:  # --ask
        return f"\nkept {result['kept']}, dropped {result['dropped']}, {result['left']} still wait"
    if isinstance(result, dict):  # --find-duplicates
        found = len(result["proposed"])
        return f"read {result['memories']:,} memories; {found:,} merge proposals added"
    if result and "type" not in result[0]:  # a decision: one line per item
        return "\n".join(
            f"{r['key']}: {(r.get('proposal') or r.get('memory'))['status']}" for r in result
        )
    if not result:
        return "nothing waits for you"
    # whose item it is on every line: an agent's "written by the person, confidence 1.0"
    # read as the person's (red team 38)
    return "\n".join(
        f"{i['key']:<45} {i['type']:<8} x{i['support']}  {one_line(i['content'], 60)}\n"
        f"{'':<45} {_from(i)}{_why_line(i)}"
        for i in result
    )


def _why_line(item: dict[str, Any]) -> str:
    """Why an item waits; a sync item's whole, for its last sentence says what accepting and
    rejecting do (cut at 70 characters, a tryout took the other machine's version unknowing)."""
    if item["type"].startswith("sync_") and not item["reason"]:
        return textwrap.fill(one_line(item["why"], 2_000), width=100, subsequent_indent=" " * 50)
    return one_line(item["reason"] or item["why"], 70)


def _from(item: dict[str, Any]) -> str:
    agent = item.get("agent")
    return f"[{one_line(_one_line(agent), 30)}] " if agent else ""
