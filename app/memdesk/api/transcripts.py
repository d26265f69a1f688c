"""Reading a session transcript into [{role, content}]: Claude Code's JSONL, Gemini CLI's chat
JSONL (records by id, a later one replacing the earlier; `$set` lines patch its header), or a
plain JSON array / JSONL of {role, content} messages. Standard library only (the hooks import
it).

What a host injected into the user's turn — Gemini CLI's `<hook_context>` (memdesk's own
briefing among it) and the files an `@` mention read in, a `<memory-context>` block, markup
laid out as a block — is not the person's words: it is cut out, or
memdesk would read its own memories back as what the user said."""

from __future__ import annotations

import bisect
import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from memdesk import paths

USER_CHARS = 4000  # per message sent to memdesk: the user's words matter most
ASSISTANT_CHARS = 2000
# One session.end request's messages: under the socket's 1 MiB line as JSON (a 3,000-message
# transcript went over it and the hook said "memdesk stopped"), and read within the 5 s a
# request may take. Reading the person's words for what they stated takes about 30 ms a KiB
# (the agent's replies next to nothing), twice that on a busy machine: a day's session sent as
# 768 KiB parts had its first part stopped and rolled back, and with it all the person said.
PART_BYTES = 512 * 1024
PART_USER_CHARS = 16_000  # about half a second
PART_MESSAGES = 1000
# The person's words the hook sends, in under the 30 s a host gives it; a longer session loses
# its middle, never how it began or ended
MAX_PARTS = 32
# A day-long session's JSONL is a few MiB; past this only its first HEAD_BYTES and its newest
# part are read (how the session began and how it ended), so a huge or endless file costs a
# bounded read.
MAX_BYTES = 32 * 1024 * 1024
HEAD_BYTES = 4 * 1024 * 1024
# Lines read of a longer file, its first and its newest: twice the messages `parts` keeps
# (a line may be a tool's, not a message).
HEAD_LINES = 2 * PART_MESSAGES
NEWEST_LINES = 2 * PART_MESSAGES * (MAX_PARTS - 1)


_COPILOT_ROLES = {"user.message": "user", "assistant.message": "assistant"}
# What a host wraps into the user's turn that the person did not type: hooks' context, the
# output of `!` bash mode, background tasks' notices, system reminders.
_WRAPPERS = (
    r"hook_context|memory-context|bash-(?:input|stdout|stderr)|task-notification|"
    r"system-reminder|user-prompt-submit-hook|local-command-[a-z]+|command-[a-z]+|"
    # Codex: a skill's file the repository ships, another agent's notice, a shell's output, a
    # reviewer model's findings, a stopped turn's note
    r"skill|subagent_notification|user_shell_command|user_action|turn_aborted|"
    # Claude Code: an agent team's teammate, a chat channel's sender, the IDE's selection
    r"teammate-message|channel|ide_[a-z_]+"
)
_WRAPPER = re.compile(rf"(?:{_WRAPPERS})", re.I)
# What a host wraps around the words the person typed (Cursor's query): kept, tags and all
_TYPED = frozenset({"user_query", "user_message", "user_input"})
# An element's opening and closing tags, in any spelling (a crafted transcript's
# `<TASK-NOTIFICATION >` was stored as the person's words). Attributes stop at the next angle
# bracket: read as far as any `>`, a line of 20,000 unclosed tags took 71 s.
_OPEN = re.compile(r"<([a-z][\w-]{0,60})(?=[\s>])[^<>]{0,1000}>", re.I)
_CLOSE = re.compile(r"</([a-z][\w-]{0,60})\s*>", re.I)
_ESCAPED = ("&lt;memory-context&gt;", "&lt;/memory-context&gt;")
# Gemini CLI's `@file`: the file's text follows what was typed, to its end marker or the end
_REFERENCED = ("--- Content from referenced files ---", "--- End of content ---")


def _without_envelopes(text: str) -> str:
    """`text` without what a host wrapped into the user's turn: each listed wrapper (to its
    closing tag, or to the end when it has none), any other closed element a host names as
    hosts do (`<ide_selection>`, `<teammate-message …>`: each new envelope was stored as the
    person's words until it was listed), and an escaped memory-context block. In one pass:
    each opening tag is matched to the next closing tag of its name; a listed wrapper to the
    last one before its name opens again (a memory quoted in a hook's context that held
    "</hook_context>" ended the envelope there, and the rest was read as the person's)."""
    closes: dict[str, list[tuple[int, int]]] = {}
    for found in _CLOSE.finditer(text):
        closes.setdefault(found[1].lower(), []).append(found.span())
    opens = list(_OPEN.finditer(text))
    starts: dict[str, list[int]] = {}
    for found in opens:
        starts.setdefault(found[1].lower(), []).append(found.start())
    cuts: list[tuple[int, int]] = []
    done = 0
    for found in opens:
        name = found[1].lower()
        listed = bool(_WRAPPER.fullmatch(name))
        if found.start() < done or name in _TYPED:
            continue
        ends = closes.get(name, [])
        after = bisect.bisect_left(ends, (found.end(), found.end()))
        if listed and after < len(ends):
            later = starts[name]
            again = bisect.bisect_right(later, found.start())
            again = later[again] if again < len(later) else len(text)
            after = max(after, bisect.bisect_left(ends, (again, again)) - 1)
        if after < len(ends) and (
            listed or "-" in name or "_" in name or _a_block(text, found.start(), ends[after][1])
        ):
            done = ends[after][1]
        elif listed:
            done = len(text)
        else:
            continue
        cuts.append((found.start(), done))
    for opening, closing in (_ESCAPED, _REFERENCED):
        at = text.find(opening)
        while at >= 0:  # to the last end before it opens again: a file read in may hold one
            again = text.find(opening, at + len(opening))
            limit = len(text) if again < 0 else again
            end = text.rfind(closing, at, limit)
            cuts.append((at, limit if end < 0 else end + len(closing)))
            at = again
    kept, last = [], 0
    for start, end in sorted(cuts):  # one may lie inside another
        kept.append(text[last:start])
        last = max(last, len(text) - len(text[end:].lstrip()))
    return "".join(kept) + text[last:]


def _a_block(text: str, start: int, end: int) -> bool:
    """Whether the element at text[start:end] stands on lines of its own, its tags at a line's
    start and end (Cursor's `<rules>`, a `<file>` a host read in, a `<reminder>`): markup laid
    out as a block is a host's envelope or pasted text, never a sentence the person typed."""
    at_start = start == 0 or text[start - 1] == "\n"
    at_end = end == len(text) or text[end] == "\n"
    return at_start and at_end and "\n" in text[start:end]


# A user-role message that is the host's own note, not the person: Claude Code's command
# wrappers, Codex's environment and AGENTS.md instructions.
_HOST_NOTES = (
    "<command-",
    "<local-command",
    "Caveat:",
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    # Claude Code's mark of a stopped turn: what the person says next is a message of its own
    "[Request interrupted by user",
    # a Stop hook's output fed back as the user's turn: a repository's script wrote it
    "Stop hook feedback:",
)


class TranscriptError(ValueError):
    """The file is not a transcript memdesk can read; the message says what was expected."""


class Transcript(NamedTuple):
    messages: list[dict[str, str]]
    session: str | None  # the first session id it names
    named: frozenset[str] = frozenset()  # every one (a resumed session names its first too)

    def of(self, session: str, path: str | Path) -> bool:
        """Whether this is `session`'s own transcript: it names that session, or names none,
        or its path is named after it. A hook handed another session's file (another
        project's) filed that session's words in this one's project and as global."""
        return not self.named or session in self.named or session in str(path)


def read(path: str | Path) -> Transcript:
    """The messages of a transcript file and its session id if it names one. Only a regular
    file is read (a FIFO would hang, /dev/zero never ends), and at most its last MAX_BYTES."""
    try:
        data = paths.read_regular_file(path, MAX_BYTES, newest_lines=True, oldest_bytes=HEAD_BYTES)
    except paths.NotAFile as exc:
        raise TranscriptError(f"{exc}; a transcript is a JSONL file") from None
    except OSError as exc:
        raise TranscriptError(f"cannot read {path}: {exc.strerror or exc}") from None
    # a byte that is not UTF-8 (a line torn mid-character by a crash) is that character lost,
    # not the session
    return parse(data.decode("utf-8", errors="replace"))


def parse(text: str) -> Transcript:
    stripped = text.lstrip("\ufeff").strip()  # a byte-order mark is not a line's text
    if not stripped:
        return Transcript([], None)
    if stripped.startswith("["):
        try:
            records = json.loads(stripped)
        except (ValueError, RecursionError) as exc:
            raise TranscriptError(f"not a JSON array of messages: {exc}") from None
    else:
        records = _one_object(stripped) or _jsonl_records(stripped)
    messages: list[dict[str, str]] = []
    named: dict[str, None] = {}
    for record in _latest_by_id(records if isinstance(records, list) else []):
        if not isinstance(record, dict):
            continue
        meta = record.get("payload") if record.get("type") == "session_meta" else record
        if isinstance(meta, dict):
            for key in ("sessionId", "session_id"):
                if isinstance(meta.get(key), str) and meta[key]:
                    named[meta[key]] = None
        message = _message(record)
        if message is not None:
            messages.append(message)
    if records and not messages:
        raise TranscriptError(
            "no user or assistant messages found; expected Claude Code's JSONL or a list of "
            "{role, content} messages"
        )
    return Transcript(messages, next(iter(named), None), frozenset(named))


def _one_object(text: str) -> list[Any]:
    """Gemini CLI's session before its JSONL: one object, its header and its messages."""
    if not text.startswith("{") or "\n" not in text and '"messages"' not in text:
        return []
    try:
        session = json.loads(text)
    except (ValueError, RecursionError):
        return []  # JSONL, one object per line
    messages = session.get("messages") if isinstance(session, dict) else None
    return [session, *messages] if isinstance(messages, list) else []


def _jsonl_records(text: str) -> list[Any]:
    """Every line that reads as JSON. A line that does not (a tool call's input nested past
    what the parser follows, a line the host was still writing) is one record lost, not the
    session: the agent writes tool calls, and one crafted call dropped all the person said."""
    records: list[Any] = []
    unread = 0
    lines = text.splitlines()
    if len(lines) > HEAD_LINES + NEWEST_LINES:
        # only a session's first part and its newest are sent (`parts`): a million tiny
        # messages read whole cost a hook 9–19 s and 800 MB (red team 37)
        lines = lines[:HEAD_LINES] + lines[-NEWEST_LINES:]
    for line in lines:
        if line.strip():
            try:
                records.append(json.loads(line))
            except (ValueError, RecursionError):
                unread += 1
    if unread and not records:
        raise TranscriptError(
            "no line is JSON; expected Claude Code's JSONL or {role, content} messages, "
            "one per line"
        )
    return records


def _latest_by_id(records: list[Any]) -> list[Any]:
    """Gemini CLI rewrites a message by appending it again under its id: the last one holds,
    in the place of the first."""
    order: list[Any] = []
    latest: dict[Any, Any] = {}
    for number, record in enumerate(records):
        key = record.get("id") if isinstance(record, dict) else None
        key = key if isinstance(key, str) else number
        if key not in latest:
            order.append(key)
        latest[key] = record
    return [latest[key] for key in order]


_FROM_A_TOOL = ("toolUseResult", "sourceToolUseID", "parent_tool_use_id")


def _marked(record: dict[str, Any], key: str) -> bool:
    """Whether a host's mark is set, in any form but absent, null or false: the text beside
    `"isSidechain": "true"` (a string) was stored as the person's words."""
    value = record.get(key)
    return value is not None and value is not False


def _message(record: dict[str, Any]) -> dict[str, str] | None:
    if _marked(record, "isMeta") or _marked(record, "isCompactSummary"):
        return None  # Claude Code's own notes (command wrappers, compaction summaries)
    if _marked(record, "isSidechain"):
        return None  # a subagent's conversation: its "user" is the agent's own prompt
    if any(_marked(record, key) for key in _FROM_A_TOOL):
        # a tool's result, what a tool call put in the turn, a prompt to a subagent: in the
        # user's turn, never typed by the person (a red team's text beside such a mark was
        # stored as the person's)
        return None
    inner = record.get("message") if isinstance(record.get("message"), dict) else record
    kind = _text_or_none(record.get("type"))
    if {kind, _text_or_none(inner.get("role"))} == {"user", "assistant"}:
        return None  # an entry that is one speaker by its type and the other by its role
    if "message" in record and kind not in (None, "user", "assistant"):
        return None  # a host's own entry ("system", "progress") carrying a message: not a turn
    if isinstance(record.get("payload"), dict):  # Codex's session log: response items
        inner = record["payload"] if record["payload"].get("type") == "message" else {}
    if kind in _COPILOT_ROLES and isinstance(record.get("data"), dict):
        # Copilot CLI's events.jsonl: what was typed is `content` (`transformedContent`
        # carries what hooks added)
        inner = {"role": _COPILOT_ROLES[kind], "content": record["data"].get("content")}
    role = inner.get("role") or record.get("role") or record.get("type")
    role = "assistant" if role in ("gemini", "model") else role
    if role not in ("user", "assistant"):
        return None
    # Gemini CLI keeps what the person typed apart from what hooks added to the turn.
    content = record.get("displayContent") or inner.get("content")
    text = _without_envelopes(_text(content)) if role == "user" else _text(content)
    if not text.strip() or text.lstrip().startswith(_HOST_NOTES):
        return None
    limit = USER_CHARS if role == "user" else ASSISTANT_CHARS
    return {"role": role, "content": text[:limit]}


def _text(content: Any) -> str:
    """The words of a message: its text blocks; tool calls and tool results are left out
    (a user-role tool result is the tool's output, not the person's words, and so is a text
    block that rides beside one)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return ""
        return "\n".join(
            block["text"]
            for block in content
            if isinstance(block, dict)
            # Gemini's parts are {"text": …}; Codex's blocks input_text / output_text
            and block.get("type", "text") in ("text", "input_text", "output_text")
            and isinstance(block.get("text"), str)
            # opencode's parts it added itself (a file read in for an `@` mention)
            and block.get("synthetic") is not True
        )
    return ""


def parts(messages: list[dict[str, str]]) -> list[list[dict[str, str]]]:
    """The messages as session.end requests that each fit the socket, oldest first, so a long
    session is read whole (9,000 short messages were refused outright, nothing stored): at
    most MAX_PARTS, the first and the newest kept. Always one part, empty for an empty
    transcript (the session still ends)."""
    out: list[list[dict[str, str]]] = [[]]
    used = said = 0
    for message in messages:
        size = len(json.dumps(message, ensure_ascii=False).encode("utf-8", "backslashreplace"))
        words = len(message["content"]) if message["role"] == "user" else 0
        full = used + size > PART_BYTES or said + words > PART_USER_CHARS
        if out[-1] and (full or len(out[-1]) >= PART_MESSAGES):
            out.append([])
            used = said = 0
        out[-1].append(message)
        used += size
        said += words
    return out if len(out) <= MAX_PARTS else [out[0], *out[1 - MAX_PARTS :]]


def _text_or_none(value: Any) -> str | None:
    """A field a crafted line may hold as a list or an object: only text names a speaker."""
    return value if isinstance(value, str) else None
