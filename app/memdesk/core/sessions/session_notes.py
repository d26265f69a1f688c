"""What a session's observations and transcript say, read by rules: the working-memory block,
the recovery block after a crash, and the parts of the L2 session summary."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from memdesk.core import guard

MAX_ITEMS = 12  # per section of a summary


@dataclass
class Notes:
    """A session read for its working state: newest first within each list."""

    task: str | None = None
    files: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    plan: str | None = None  # the last plan (todo list) seen
    commits: list[str] = field(default_factory=list)


_COMMIT_CMD = re.compile(r"""git\s+commit\b.*?-m\s*(?P<q>["'])(?P<msg>.+?)(?P=q)""")
_COMMIT_OUT = re.compile(
    r"^\[[\w./-]+(?: \(root-commit\))? (?P<sha>[0-9a-f]{7,40})\] (?P<msg>.+)$", re.M
)
# What was chosen, not why something happened: "CI took 40 minutes because the cache broke"
# was filed among a new user's session's decisions.
_DECISION = re.compile(
    r"\b(?:decided|decide to|chose|choose|going with|go with|we'll use|let's use|settled on|"
    r"instead of|rather than)\b",
    re.IGNORECASE,
)
_TODO = re.compile(r"\b(?:TODO|FIXME|still need to|left to do|not done yet|follow[- ]up)\b", re.I)


def read(observations: Sequence[Any], task: str | None, root: str | None = None) -> Notes:
    """`observations`: rows with kind, text, path, failed, oldest first; `root`: the folder
    the session worked in, which file paths are shown relative to. One the injection guard
    would withhold is left out: notes are injected into the next session's context, and a
    tool's output (a web page, a file) is anyone's words."""
    notes = Notes(task=task)
    for seen in reversed(observations):
        if guard.scan(f"{seen.text}\n{seen.path or ''}"):
            continue
        if seen.kind in ("edit", "write") and seen.path:
            if (path := shown_path(seen.path, root)) not in notes.files:
                notes.files.append(path)
        elif seen.kind == "command" and seen.failed:
            if seen.text not in notes.errors:
                notes.errors.append(seen.text)
        elif seen.kind == "todo" and notes.plan is None:
            notes.plan = seen.text
        elif seen.kind == "prompt":
            if notes.task is None:
                notes.task = seen.text
            if _DECISION.search(seen.text) and seen.text not in notes.decisions:
                notes.decisions.append(seen.text)
        if seen.kind == "command":
            found = _COMMIT_CMD.search(seen.text)
            if found and not seen.failed and found["msg"] not in notes.commits:
                notes.commits.append(found["msg"])
    return notes


def shown_path(path: str, root: str | None) -> str:
    """A file as an agent can open it: relative to the folder the session worked in when it
    lies there, else in full (its last parts alone named neither)."""
    file = PurePosixPath(path.replace("\\", "/"))
    if root and file.is_absolute():
        with contextlib.suppress(ValueError):
            return str(file.relative_to(root.replace("\\", "/")))
    return str(file)


def block(title: str, notes: Notes, budget: int) -> str:
    """ "Current task / Modified files / Recent errors / Key decisions", most important and
    most recent first, cut to `budget` characters whole lines at a time."""
    sections: list[tuple[str, list[str]]] = [
        ("Current task", [notes.task] if notes.task else []),
        ("Plan", [notes.plan] if notes.plan else []),
        ("Modified files", notes.files),
        ("Recent errors", notes.errors),
        ("Key decisions", notes.decisions),
    ]
    lines = [f"## {title}"]
    used = len(lines[0]) + 1
    for heading, items in sections:
        head = f"### {heading}"
        for n, item in enumerate(items):
            line = f"- {item}"
            cost = len(line) + 1 + (len(head) + 1 if n == 0 else 0)
            if used + cost > budget:
                break
            if n == 0:
                lines.append(head)
            lines.append(line)
            used += cost
    return "\n".join(lines) if len(lines) > 1 else ""


def summary_parts(
    notes: Notes, messages: Sequence[dict[str, str]], what: str | None
) -> dict[str, Any]:
    """The arguments of `archive_session` for a session: from its observations, and from the
    transcript's commit lines, decisions and TODOs."""
    # (imported here: what reads a reply's sentences compiles the session-end patterns,
    # ~0.4 s, which only a session end needs; see `ending.hearing`)
    from memdesk.core.sessions import accepted

    decisions = list(reversed(notes.decisions))
    commits = list(reversed(notes.commits))
    unfinished: list[str] = []
    first_prompt = None
    for n, message in enumerate(messages):
        text = message.get("content", "")
        if message.get("role") == "user" and first_prompt is None and text.strip():
            first_prompt = _first_line(text)
        for found in _COMMIT_OUT.finditer(text):
            line = f"{found['sha'][:7]} {found['msg'].strip()}"
            if not any(found["msg"].strip() in c for c in commits):
                commits.append(line)
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
            sentence = sentence.strip(" -*•")
            if not sentence or len(sentence) > 240:
                continue
            decided = message.get("role") == "assistant" and _DECISION.search(sentence)
            reply = _reply_to(messages, n)
            if decided and not _REFUSES.match(reply):  # what the person said no to is no decision
                agreed = accepted.accepts(reply) and not accepted.asked_after(text, sentence)
                decision = sentence if agreed else f"{sentence} {_AGENTS_WORD}"
                if decision not in decisions:
                    decisions.append(decision)
            if _TODO.search(sentence) and sentence not in unfinished:
                unfinished.append(sentence)
    if notes.plan:
        unfinished += [
            item.split("] ", 1)[1]
            for item in notes.plan.removeprefix("plan: ").split("; ")
            if "] " in item and not item.startswith("[completed]")
        ]
    done = what or first_prompt or notes.task or "A session with no recorded task"
    counts = []
    if notes.files:
        counts.append(f"{len(notes.files)} files changed")
    if notes.errors:
        counts.append(f"{len(notes.errors)} failed commands")
    return {
        "what": done + (f" ({', '.join(counts)})" if counts else ""),
        "decisions": decisions[:MAX_ITEMS],
        "files": list(reversed(notes.files))[:MAX_ITEMS],
        "unfinished": _unique(unfinished)[:MAX_ITEMS],
        "commits": commits[:MAX_ITEMS],
    }


# A decision the agent reports is its account until the person's next message agrees: read
# back later as "Decisions", it passed for the person's.
_AGENTS_WORD = "(the agent's account; the person did not say)"


def _reply_to(messages: Sequence[dict[str, str]], at: int) -> str:
    """The person's message right after the assistant's at `at`, if the next one is theirs."""
    following = messages[at + 1] if at + 1 < len(messages) else None
    if following is None or following.get("role") != "user":
        return ""
    return following.get("content", "")


# A refusal of what the agent said, not a "No, the rule lives in rules.py" that sets a detail
# right.
_REFUSES = re.compile(
    r"^\W*(?:(?:no|nope|nah)(?:\s+thanks)?\W*$|(?:(?:no|nope|nah)\W+)?(?:don'?t|do not|"
    r"please (?:don'?t|do not)|stop|never|not (?:that|this|like that)|absolutely not)\b)",
    re.IGNORECASE,
)


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _first_line(text: str) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= 160 else line[:159] + "…"
