"""A memory as the synced repository holds it: a Markdown file with front matter, the identity
profile as one file, a deleted memory as a tombstone — written and read back exactly.

Every front-matter value is written as JSON, which is also YAML: any Markdown or YAML reader
shows the files, and reading them back needs no YAML parser. A file must keep that shape
(`key: <JSON value>` lines between `---` lines); one that does not is refused with the
line that is wrong, never guessed at.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from memdesk.core.errors import ValidationError

IDENTITY = "identity.md"
README = "README.md"
MEMORIES = "memories"
FENCE = "---"
_ENTRY = "<!-- memdesk "
_ENTRY_END = " -->"
_ESCAPED_ENTRY = re.compile(r"^(\\*)<!-- memdesk ")
_IDENTITY_HEAD = (
    "# Identity profile\n\n"
    "Who the person is and the rules they set: given in full to every agent session.\n"
    "Each entry follows its `memdesk` line; edit the text, keep the line.\n"
)
MAX_FILE_BYTES = 256 * 1024  # a memory's text is at most 64 KiB; anything far larger is not ours

# Front matter, in the order written. `successor` is derived (read back, never applied).
RECORD_KEYS = (
    "id",
    "layer",
    "kind",
    "status",
    "writer",
    "source",
    "agent",
    "project",
    "task",
    "tags",
    "importance",
    "confidence",
    "inject",
    "created",
    "updated",
    "version",
    "reason",
    "supersedes",
    "successor",
    "links",
)
# Written only when it has a value: a file from before it existed reads as it did, and a
# memory without one is written as it was (not sent again for a key it never had).
# `reason`: why the version was made, as its history says it.
OPTIONAL_KEYS = frozenset({"reason"})
TOMBSTONE_KEYS = ("id", "deleted", "version")
# The memory's columns a file carries (created/updated are `created_at`/`updated_at` there).
SYNCED_COLUMNS = (
    *(
        k
        for k in RECORD_KEYS
        if k not in ("id", "writer", "created", "updated", "reason", "successor", "links")
    ),
    "created_at",
    "updated_at",
    "content",
)


@dataclass(frozen=True)
class Unit:
    """One memory's shared state: its text where it lives in the repository."""

    id: str
    text: str
    in_identity: bool = False

    @property
    def digest(self) -> str:
        """The git blob id of a memory file; for an identity entry, of its block alone."""
        data = self.text.encode("utf-8", "surrogateescape")  # a remote's bytes, as they were
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()

    @property
    def path(self) -> str:
        if self.in_identity:
            return IDENTITY
        # The text after the front matter's closing line (values are one-line JSON).
        return memory_path(self.id, self.text.partition(f"\n{FENCE}\n")[2])

    def fields(self) -> dict[str, Any]:
        return parse_entry(self.text) if self.in_identity else parse_file(self.text)

    @property
    def deleted(self) -> bool:
        return "deleted" in self.fields()


def memory_path(memory_id: str, content: str = "") -> str:
    """Where a memory's file lives: a folder per two leading characters of its id (100,000
    files in one folder defeat most browsers), named by the first words of its text, then the
    id, so a person browsing the repository on a git host sees what each file holds. The id
    is the key: a file renamed with its text is the same memory."""
    slug = _slug(content)
    return f"{MEMORIES}/{memory_id[:2]}/{slug}{_SLUG_END if slug else ''}{memory_id}.md"


def id_of_path(path: str) -> str | None:
    """The memory id a file name holds (`<slug>--<id>.md`, or `<id>.md` as written before
    names had slugs); None for a file that is not a memory's."""
    parts = path.split("/")
    if len(parts) != 3 or parts[0] != MEMORIES or not parts[2].endswith(".md"):
        return None
    slug, _, memory_id = parts[2].removesuffix(".md").rpartition(_SLUG_END)
    if not memory_id or slug and not _SLUG.fullmatch(slug):
        return None
    return memory_id


_SLUG_END = "--"
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_SLUG_WORD = re.compile(r"[a-z0-9]+")
SLUG_CHARS = 40


def _slug(content: str) -> str:
    """The text's first words, lower-case ASCII joined by hyphens, at most SLUG_CHARS."""
    plain = unicodedata.normalize("NFKD", content[: SLUG_CHARS * 4]).encode("ascii", "ignore")
    words: list[str] = []
    for word in _SLUG_WORD.findall(plain.decode().lower()):
        if sum(len(w) + 1 for w in words) + len(word) > SLUG_CHARS:
            break
        words.append(word)
    return "-".join(words)


# -- writing -----------------------------------------------------------------------------------


def record_unit(fields: dict[str, Any], content: str) -> Unit:
    """A memory's file, or its identity entry when it is an active L0 memory."""
    if fields["layer"] == "L0" and fields["status"] == "active":
        header = {k: fields[k] for k in _written(fields) if k != "id"}
        line = _ENTRY + _ENCODER.encode({"id": fields["id"], **header})
        return Unit(fields["id"], f"{line}{_ENTRY_END}\n{_escape(content)}\n", in_identity=True)
    front = "".join(f"{key}: {_json(fields[key])}\n" for key in _written(fields))
    return Unit(fields["id"], f"{FENCE}\n{front}{FENCE}\n{content}\n")


def _written(fields: dict[str, Any]) -> list[str]:
    return [k for k in RECORD_KEYS if k not in OPTIONAL_KEYS or fields.get(k) is not None]


def tombstone_unit(memory_id: str, deleted: str, version: int) -> Unit:
    values = {"id": memory_id, "deleted": deleted, "version": version}
    front = "".join(f"{key}: {_json(values[key])}\n" for key in TOMBSTONE_KEYS)
    return Unit(memory_id, f"{FENCE}\n{front}{FENCE}\n")


def identity_file(entries: list[Unit]) -> str:
    return _IDENTITY_HEAD + "".join(f"\n{entry.text}" for entry in entries)


_ENCODER = json.JSONEncoder(ensure_ascii=False)
_quote = json.encoder.encode_basestring  # type: ignore[attr-defined]  # what the encoder uses


def _json(value: Any) -> str:
    """json.dumps(value, ensure_ascii=False), without building an encoder per value: the
    front matter of 100,000 memories is two million values."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return _ENCODER.encode(value)


def _escape(content: str) -> str:
    """A line of the text that looks like an entry line gets one more backslash."""
    return "\n".join(_ESCAPED_ENTRY.sub(r"\\\1<!-- memdesk ", line) for line in content.split("\n"))


def _unescape(content: str) -> str:
    return "\n".join(
        line[1:] if _ESCAPED_ENTRY.match(line) and line.startswith("\\") else line
        for line in content.split("\n")
    )


# -- reading -----------------------------------------------------------------------------------


def parse_file(text: str) -> dict[str, Any]:
    """A memory file's fields and `content` (a tombstone has `deleted` and no content). A
    file saved on Windows (CRLF line ends, a byte order mark) reads as any other."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    if not lines or lines[0] != FENCE:
        raise ValidationError("does not start with a --- line (front matter)", field="file")
    try:
        end = lines.index(FENCE, 1)
    except ValueError:
        raise ValidationError("its front matter has no closing --- line", field="file") from None
    fields = {}
    for number, line in enumerate(lines[1:end], 2):
        key, colon, value = line.partition(": ")
        if not colon or not key.isidentifier():
            raise ValidationError(f"line {number} is not `key: value`", field="file")
        if key in fields:
            # the last value was taken, while a git host showing the file shows the first
            raise ValidationError(
                f"line {number}: {key} is given twice; a memory file gives each field once",
                field=key,
            )
        try:
            fields[key] = _value(value)
        except (ValueError, RecursionError):  # also nested too deep, a number too long
            raise ValidationError(
                f"line {number} ({key}): the value is not JSON that memdesk reads (text in "
                "double quotes, numbers, true/false/null, [lists] a few levels deep)",
                field=key,
            ) from None
    if "deleted" not in fields:
        fields["content"] = "\n".join(lines[end + 1 :]).strip()
    return fields


_LITERALS: dict[str, Any] = {"null": None, "true": True, "false": False, "[]": []}


def _value(raw: str) -> Any:
    """json.loads(raw), with the common values (plain text, null, true, false) read directly:
    a first pull reads two million of them."""
    if raw in _LITERALS:
        return [] if raw == "[]" else _LITERALS[raw]
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        inner = raw[1:-1]
        if '"' not in inner and "\\" not in inner and inner.isprintable():
            return inner
    return json.loads(raw)


class _GivenTwice(ValueError):
    pass


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        keys = [key for key, _ in pairs]
        raise _GivenTwice(next(key for n, key in enumerate(keys) if key in keys[:n]))
    return found


def parse_entry(text: str) -> dict[str, Any]:
    line, _, body = text.partition("\n")
    if not (line.startswith(_ENTRY) and line.endswith(_ENTRY_END)):
        raise ValidationError("an identity entry must start with its memdesk line", field="file")
    try:
        fields = json.loads(line[len(_ENTRY) : -len(_ENTRY_END)], object_pairs_hook=_once_each)
    except _GivenTwice as exc:
        raise ValidationError(
            f"an identity entry's line gives {exc} twice; each field is given once", field="file"
        ) from None
    except (ValueError, RecursionError):  # also nested too deep, a number too long
        raise ValidationError("an identity entry's line is not JSON", field="file") from None
    if not isinstance(fields, dict):
        raise ValidationError("an identity entry's memdesk line is not an object", field="file")
    return {**fields, "content": _unescape(body).strip()}


def identity_units(text: str) -> list[Unit]:
    """The entries of identity.md, each from its memdesk line to the next."""
    units: list[Unit] = []
    block: list[str] = []
    for line in text.split("\n"):
        if line.startswith(_ENTRY):
            _close(block, units)
            block = [line]
        elif block:
            block.append(line)
    _close(block, units)
    return units


def _close(block: list[str], units: list[Unit]) -> None:
    if not block:
        return
    text = "\n".join(block).rstrip("\n") + "\n"
    memory_id = parse_entry(text).get("id")
    if not isinstance(memory_id, str):
        raise ValidationError("an identity entry's memdesk line has no id", field="id")
    units.append(Unit(memory_id, text, in_identity=True))


def remote_object(data: bytes | None, limit: int) -> dict[str, Any]:
    """A small JSON object a remote holds beside its memories (teams.json, vouched.json):
    read as untrusted, `{}` when it is too large or not an object."""
    if not data or len(data) > limit:
        return {}
    try:
        found = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return {}
    return found if isinstance(found, dict) else {}
