"""A host's JSON file edited as text around memdesk's one entry, so that every other byte —
indentation, key order, `\\u00e9` escapes, `1.0e3`, CRLF, a missing final newline, the
comments and trailing commas a JSONC host accepts — stays exactly as the person or the host
wrote it, and detach after attach gives back the same bytes.

An entry put into an empty object or list goes right after its opening bracket on one line;
an object memdesk makes goes over lines beside the members before it (or as `{ … }` where the
document is on one line). So detach can tell from the text alone what attach made, and takes
away only that: the entry, the objects it made, the file it created.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring
from typing import Any

_SPACE = re.compile(r"(?:\s|//[^\n]*|/\*.*?\*/)*", re.S)  # JSONC: comments count as space
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


@dataclass
class Node:
    start: int
    end: int
    value: Any
    # An object's members: (key, where the key's quote starts, value); an array's items
    # with None keys. In the file's order.
    children: list[tuple[str | None, int, Node]] = field(default_factory=list)

    def member(self, key: str) -> Node | None:
        return next((node for k, _, node in self.children if k == key), None)


def parse(text: str) -> Node:
    """The document's tree with each value's place in `text`; ValueError says where it is
    not JSON."""
    pos = _skip(text, 1 if text.startswith("\ufeff") else 0)
    try:
        node = _value(text, pos)
    except RecursionError:  # a crafted file of nested brackets; no host writes one
        raise ValueError("it is nested too deeply to be a host's settings") from None
    if _skip(text, node.end) != len(text):
        raise ValueError(f"unexpected text after the document at character {node.end}")
    return node


def new_file(document: dict[str, Any]) -> str:
    """The text of a file memdesk creates for `document`."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def made_by_memdesk(text: str) -> bool:
    """The file is exactly as memdesk creates one (so detach may take it away again)."""
    try:
        return text == new_file(parse(text).value)
    except ValueError:
        return False


def put(text: str, path: tuple[str, ...], key: str, value: Any, *, made: bool = False) -> str:
    """`text` with member `key` of the object at `path` set to `value` (objects on the path
    made when missing; `made`: the value is a container memdesk makes, to take away when it
    is left empty)."""
    node, depth = parse(text), 0
    while depth < len(path) and (child := node.member(path[depth])) is not None:
        node, depth = child, depth + 1
    if not isinstance(node.value, dict):
        raise ValueError(f'"{path[depth - 1]}" is not an object; fix it by hand first')
    if depth < len(path):  # the rest of the path is missing: made here, holding the entry
        built: Any = {key: value}
        for name in reversed(path[depth + 1 :]):
            built = {name: built}
        return _insert(text, node, path[depth], built, made=True)
    current = node.member(key)
    if current is None:
        return _insert(text, node, key, value, made=made)
    return _splice(text, current.start, current.end, _render(text, node, current, value))


def append(text: str, path: tuple[str, ...], value: Any) -> str:
    """`text` with `value` added at the end of the list at `path`."""
    array = _at(parse(text), path)
    if array is None or not isinstance(array.value, list):
        raise ValueError(f'"{path[-1]}" is not a list; fix it by hand first')
    return _insert(text, array, None, value, made=False)


def replace(text: str, path: tuple[str, ...], index: int, value: Any) -> str:
    """`text` with item `index` of the list at `path` set to `value`."""
    array = _at(parse(text), path)
    if array is None or not isinstance(array.value, list):
        raise ValueError(f'"{path[-1]}" is not a list; fix it by hand first')
    item = array.children[index][2]
    return _splice(text, item.start, item.end, _render(text, array, item, value))


def remove(text: str, path: tuple[str, ...], which: str | int) -> str:
    """`text` without member `which` (or the item at that index) of the container at `path`,
    and without each container on the path that memdesk made and that is left empty."""
    made: list[bool] = []
    for depth in range(1, len(path) + 1):  # inside a container memdesk made, all is its own
        made.append(bool(made and made[-1]) or made_here(text, path[:depth]))
    text = _cut(text, _at(parse(text), path), which)  # type: ignore[arg-type]
    for depth in range(len(path), 0, -1):
        node = _at(parse(text), path[:depth])
        if node is None or node.children or not made[depth - 1]:
            break
        text = _cut(text, _at(parse(text), path[: depth - 1]), path[depth - 1])  # type: ignore[arg-type]
    return text


def made_here(text: str, path: tuple[str, ...]) -> bool:
    """The container at `path` is written exactly as memdesk writes one it makes."""
    parent = _at(parse(text), path[:-1])
    node = parent.member(path[-1]) if parent is not None else None
    if parent is None or node is None:
        return False
    return text[node.start : node.end] == _render(text, parent, node, node.value, made=True)


def _at(node: Node | None, path: tuple[str, ...]) -> Node | None:
    for name in path:
        if node is None:
            return None
        node = node.member(name)
    return node


def _insert(text: str, container: Node, key: str | None, value: Any, *, made: bool) -> str:
    label = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
    one_line = _spaced(value) if made else _compact(value)
    if not container.children:
        # Right after the opening bracket, whatever space was inside kept after it: detach
        # cuts exactly what this put.
        return _splice(text, container.start + 1, container.start + 1, label + one_line)
    _, last_key_at, last = container.children[-1]
    before = _space_before(text, last_key_at)
    if newline := _newline(before):
        indent = before[before.rfind("\n") + 1 :]
        lead, rendered = newline + indent, _pretty(value, newline, indent, _step(text, container))
    else:
        lead, rendered = " ", one_line
    return _splice(text, last.end, last.end, "," + lead + label + rendered)


def _cut(text: str, container: Node, which: str | int) -> str:
    children = container.children
    index = (
        which
        if isinstance(which, int)
        else next(i for i, (k, _, _) in enumerate(children) if k == which)
    )
    _, key_at, node = children[index]
    if index > 0:  # from the end of the one before: its comma and the space memdesk wrote
        return _splice(text, children[index - 1][2].end, node.end, "")
    if len(children) > 1:
        return _splice(text, key_at, children[1][1], "")
    end = node.end
    after = _skip(text, end)
    if text.startswith(",", after):  # a trailing comma, which JSONC hosts allow
        end = after + 1
    return _splice(text, container.start + 1, end, "")


def _render(text: str, parent: Node, node: Node, value: Any, made: bool = False) -> str:
    """`value` as memdesk writes a value at `node`'s place: over lines where the members
    are, on one line in a one-line container."""
    key_at = next(at for _, at, child in parent.children if child is node)
    before = _space_before(text, key_at)
    if newline := _newline(before):
        indent = before[before.rfind("\n") + 1 :]
        return _pretty(value, newline, indent, _step(text, parent))
    return _spaced(value) if made else _compact(value)


def _pretty(value: Any, newline: str, indent: str, step: str) -> str:
    dumped = json.dumps(value, indent=step, ensure_ascii=False)
    return dumped.replace("\n", newline + indent)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _spaced(value: Any) -> str:
    """An object memdesk makes on one line, `{ … }`: told apart from its entry put into the
    person's own `{}`."""
    dumped = _compact(value)
    if isinstance(value, (dict, list)) and value:
        return f"{dumped[0]} {dumped[1:-1]} {dumped[-1]}"
    return dumped


def _step(text: str, container: Node) -> str:
    """One level of the file's indentation, learnt from the container's first member (two
    spaces when there is nothing to learn from)."""
    if container.children:
        before = _space_before(text, container.children[0][1])
        if "\n" in before:
            inner = before[before.rfind("\n") + 1 :]
            outer = _indent_of(text, container.start)
            if inner.startswith(outer) and len(inner) > len(outer):
                return inner[len(outer) :]
    return "  "


def _indent_of(text: str, at: int) -> str:
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _space_before(text: str, at: int) -> str:
    """The space (and comments) between a member and the comma or bracket before it."""
    start = at
    while start > 0 and text[start - 1] not in ",{[":
        start -= 1
    return text[start:at]


def _newline(space: str) -> str:
    if "\n" not in space:
        return ""
    return "\r\n" if "\r\n" in space else "\n"


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _skip(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]


def _value(text: str, pos: int) -> Node:
    char = text[pos : pos + 1]
    if char == "{":
        return _container(text, pos, "}")
    if char == "[":
        return _container(text, pos, "]")
    if char == '"':
        try:
            value, end = scanstring(text, pos + 1)
        except ValueError as exc:
            raise ValueError(f"a broken string at character {pos}: {exc}") from None
        return Node(pos, end, value)
    if match := _NUMBER.match(text, pos):
        token = match.group()
        return Node(pos, match.end(), json.loads(token))
    for word, value in _LITERALS.items():
        if text.startswith(word, pos):
            return Node(pos, pos + len(word), value)
    raise ValueError(f"expected a value at character {pos}")


def _container(text: str, start: int, close: str) -> Node:
    is_object = close == "}"
    children: list[tuple[str | None, int, Node]] = []
    keys: set[str] = set()  # each key against every earlier one: 120,000 keys hung `attach`
    pos = _skip(text, start + 1)
    while not text.startswith(close, pos):
        key_at = pos
        key = None
        if is_object:
            if not text.startswith('"', pos):
                raise ValueError(f"expected a quoted key at character {pos}")
            key, pos = scanstring(text, pos + 1)
            if key in keys:
                # a host reads one of the two (Python's json the last): memdesk's entry put
                # into the other was never run, and detach could not take it back out
                raise ValueError(
                    f'the key "{key}" appears twice in one object (character {key_at}); a host '
                    "reads only one of them"
                )
            keys.add(key)
            pos = _skip(text, pos)
            if not text.startswith(":", pos):
                raise ValueError(f"expected ':' at character {pos}")
            pos = _skip(text, pos + 1)
        node = _value(text, pos)
        children.append((key, key_at, node))
        pos = _skip(text, node.end)
        if text.startswith(",", pos):
            pos = _skip(text, pos + 1)
        elif not text.startswith(close, pos):
            raise ValueError(f"expected ',' or '{close}' at character {pos}")
    if is_object:
        value: Any = {k: n.value for k, _, n in children}
    else:
        value = [n.value for _, _, n in children]
    return Node(start, pos + 1, value, children)
