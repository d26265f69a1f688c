"""The two MCP tools, generated from the method table (`api/methods.py`).

Each op (read tool) or action (write tool) is one socket method; a tool's parameters are the
union of its methods' parameters, each described by the method table's own text, typed here,
and checked twice: by the JSON schema (unknown names, types, enums) and per op (which
parameters that op takes, which it needs). So the schema an agent reads, the checks it meets
and the socket API cannot drift apart.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from memdesk.api.methods import BY_NAME
from memdesk.core.rules import KINDS, LAYERS, RELATIONS, VISIBILITIES

_TEXT = {"type": "string"}
_TEXTS = {"type": "array", "items": _TEXT}
# JSON types by parameter name (the same name means the same thing in every method).
TYPES: dict[str, dict[str, Any]] = {
    "query": _TEXT,
    "id": _TEXT,
    "to": _TEXT,
    "content": _TEXT,
    "text": _TEXT,
    "what": _TEXT,
    "reason": _TEXT,
    "project": _TEXT,
    "task": _TEXT,
    "since": _TEXT,
    "changed_since": _TEXT,
    "tags": _TEXTS,
    "decisions": _TEXTS,
    "unfinished": _TEXTS,
    "layer": {"enum": list(LAYERS)},
    "kind": {"enum": list(KINDS)},
    "relation": {"enum": list(RELATIONS)},
    "visibility": {"enum": list(VISIBILITIES)},
    # Ranges are the service's to check (its refusal names the range): the schema stays short.
    "k": {"type": "integer"},
    "limit": {"type": "integer"},
    "offset": {"type": "integer"},
    "version": {"type": "integer"},
    "expected_version": {"type": "integer"},
    "confidence": {"type": "number"},
    "dedup": {"type": "boolean"},
}
# Where the tool's name differs from the method's (one "id" for the memory acted on).
RENAMED = {"memory.link": {"id": "from"}}
# Shorter words for the schema than the method table's, where that one is long.
SHORT = {
    "id": "memory id or a 4+ character prefix",
    "to": "the other memory's id",
    "since": "created since: ISO time or ago (30m, 24h, 7d)",
    "changed_since": "changed since: as since",
    "content": "one fact, plain words",
    "limit": "default 20",
    "k": "how many (default 10)",
    "offset": "skip this many",
    "relation": "default related",
    "confidence": "0..1, how sure; below 0.8 the user reviews it",
    "query": "plain words",
    "dedup": "false: add even if a restatement",
    "expected_version": "fail if changed since this version",
    "version": "the earlier version (see history)",
    "decisions": "decisions, with reasons",
    "unfinished": "what is left to do",
    "project": "project name",
    "task": "task name",
    "reason": "why (kept in history)",
    "visibility": "private: only you and the user",
}
# The same names, read as filters by one tool and as values by the other.
SHORT_FOR = {
    "op": {
        "tags": "only memories with all of these",
        "layer": "only this layer: L0 identity, L1 knowledge, L2 archive",
        "kind": "only this kind",
    },
    "action": {
        "tags": "labels",
        "layer": "L1 (default); L0 is set_identity's, L2 archive's",
        "kind": "default fact",
    },
}


@dataclass(frozen=True)
class Op:
    method: str
    params: tuple[str, ...]  # the tool's names for the method's parameters it exposes
    required: tuple[str, ...] = ()
    defaults: dict[str, Any] = field(default_factory=dict)


# Each parameter costs every agent's context on every turn (the definitions are sent with
# each request): the tools expose what agents use; the socket API keeps the rest (paging
# order, status filters, search layers, archive files and commits, identity's expected ids).
_LIST = ("layer", "kind", "project", "task", "tags", "since", "changed_since")
READS = {
    "search": Op("memory.search", ("query", "k", "project", "task", "tags", "since"), ("query",)),
    "context": Op("context.build", ("query", "project", "k"), ("query",)),
    "get": Op("memory.get", ("id",), ("id",)),
    "history": Op("memory.history", ("id",), ("id",)),
    "list": Op("memory.list", (*_LIST, "offset", "limit"), (), {"limit": 20}),
    "recent": Op(
        "memory.list",
        ("changed_since", "layer", "kind", "project", "limit"),
        (),
        {"changed_since": "7d", "order": "-updated_at", "limit": 20},
    ),
    "identity": Op("identity.get", ()),
    "stats": Op("stats", ()),
}
_FIELDS = ("kind", "tags", "project", "task")
WRITES = {
    "add": Op(
        "memory.add",
        ("content", "layer", *_FIELDS, "visibility", "confidence", "dedup"),
        ("content",),
    ),
    "update": Op(
        "memory.update",
        ("id", "content", "layer", *_FIELDS, "expected_version", "reason"),
        ("id",),
    ),
    "correct": Op("memory.correct", ("id", "content", "reason"), ("id", "content")),
    "remove": Op("memory.remove", ("id", "reason"), ("id",)),
    "restore": Op("memory.restore", ("id", "reason"), ("id",)),
    "revert": Op("memory.revert", ("id", "version", "expected_version"), ("id", "version")),
    "link": Op("memory.link", ("id", "to", "relation"), ("id", "to")),
    "archive": Op("archive.add", ("what", "decisions", "unfinished", "project", "task"), ("what",)),
    "set_identity": Op("identity.set", ("text",), ("text",)),
}


def method_param(op: Op, name: str) -> str:
    return RENAMED.get(op.method, {}).get(name, name)


def input_schema(
    switch: str, ops: dict[str, Op], described: str, local: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The tool's JSON schema: `switch` (op or action) picks one of `ops`, as `described`
    (which names each op's parameters); every other property belongs to one or more ops."""
    properties: dict[str, Any] = {switch: {"enum": [*ops, *local], "description": described}}
    for op in ops.values():
        for param in op.params:
            if param not in properties:
                described = (
                    SHORT_FOR.get(switch, {}).get(param)
                    or SHORT.get(param)
                    or BY_NAME[op.method].params[method_param(op, param)]
                )
                properties[param] = {**TYPES[param], "description": described}
    return {
        "type": "object",
        "properties": properties,
        "required": [switch],
        "additionalProperties": False,
    }


def check(schema: dict[str, Any], arguments: dict[str, Any], tool: str) -> str | None:
    """A readable refusal for arguments that do not fit `schema`, or None."""
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(arguments)
    )
    if error is None:
        return None
    where = ".".join(str(p) for p in error.absolute_path) or tool
    if error.validator == "additionalProperties":
        unknown = sorted(set(arguments) - set(schema["properties"]))
        return (
            f"{tool}: unknown argument {unknown[0]!r}; the arguments are: "
            f"{', '.join(schema['properties'])}"
        )
    if error.validator == "enum":
        allowed = ", ".join(str(v) for v in error.validator_value)
        return f"{where}: {_json(error.instance)} is not allowed; use one of: {allowed}"
    if error.validator == "type":
        return f"{where} must be {_a(error.validator_value)}, not {_json(error.instance)}"
    if error.validator == "required":
        return f"{tool}: {error.message.split(' is ')[0]} is required"
    return f"{where}: {error.message}"


def fit_op(op_name: str, op: Op, arguments: dict[str, Any], switch: str) -> str | None:
    """A readable refusal when this op is given a parameter it does not take, or lacks one."""
    given = set(arguments) - {switch}
    extra = sorted(given - set(op.params))
    if extra:
        takes = ", ".join(op.params) or "nothing else"
        return f"{switch} {op_name} does not take {extra[0]!r}; it takes: {takes}"
    missing = [p for p in op.required if p not in given]
    if missing:
        return f"{switch} {op_name} needs {missing[0]!r}"
    return None


def call_params(op: Op, arguments: dict[str, Any], switch: str) -> dict[str, Any]:
    params = {**op.defaults}
    for name, value in arguments.items():
        if name != switch:
            params[method_param(op, name)] = value
    return params


def _json(value: Any) -> str:
    """A value as the agent sent it, in JSON (Python's repr said None, True, ['a'])."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:79] + "…"


def _a(kind: object) -> str:
    names = {"string": "a string", "integer": "an integer", "number": "a number"}
    names |= {"boolean": "true or false", "array": "a list", "object": "an object"}
    return names.get(str(kind), str(kind))


# Each socket method as the tool call an MCP agent makes for it (the first op that uses it)
CALLS = {
    **{op.method: f"memory_write action={name}" for name, op in reversed(WRITES.items())},
    **{op.method: f"memory op={name}" for name, op in reversed(READS.items())},
}
_METHOD = re.compile(r"\b[a-z]+\.[a-z_]+\b")


def in_mcp_terms(message: str) -> str:
    """A server's message with the socket methods it names as the tool calls an MCP agent
    has: "look for it (memory.search …)" sent agents to tools they did not have."""
    return _METHOD.sub(lambda found: CALLS.get(found[0], found[0]), message)
