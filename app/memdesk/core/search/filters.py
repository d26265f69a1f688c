"""Structured filters shared by list, count, export and search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import peewee

from memdesk.core import rules, validate
from memdesk.core.clock import parse_time
from memdesk.core.errors import ValidationError
from memdesk.store import Memory, among

ORDERABLE = (
    "created_at",
    "updated_at",
    "layer",
    "kind",
    "content",
    "source",
    "agent",
    "project",
    "task",
    "importance",
    "recall_count",
    "last_recalled_at",
    "reinforce_count",
    "version",
    "tags",
)
# Orderable fields of words, sorted regardless of case.
WORDS = frozenset({"content", "agent", "project", "task", "tags"})


@dataclass(frozen=True)
class Filters:
    layers: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ("active",)
    agent: str | None = None
    project: str | None = None
    # With a project: also the memories of no project (the user's own preferences belong to
    # none and hold everywhere): "this project or none", as sessions see memory.
    with_global: bool = False
    # Only the memories of no project: a session that works in none (started in "/", or with
    # no folder) was given every project's.
    only_global: bool = False
    task: str | None = None
    tags: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    changed_since: str | None = None
    viewer: str | None = None  # an agent: others' private memories are not for it
    ids: tuple[str, ...] = field(default=())

    @classmethod
    def build(
        cls,
        *,
        layer: str | None = None,
        layers: Sequence[str] | None = None,
        kind: str | Sequence[str] | None = None,
        source: str | Sequence[str] | None = None,
        status: str | Sequence[str] | None = "active",
        agent: str | None = None,
        project: str | None = None,
        with_global: bool = False,
        only_global: bool = False,
        task: str | None = None,
        tags: Sequence[str] | None = None,
        since: Any = None,
        until: Any = None,
        changed_since: Any = None,
        viewer: str | None = None,
        ids: Sequence[str] | None = None,
    ) -> Filters:
        """Validate loose keyword filters; any bad value raises a ValidationError."""
        if status == "all":  # the word people use (the CLI has always taken it)
            status = None
        all_layers = list(_many(layers, rules.LAYERS, "layer"))
        if layer is not None:
            all_layers.append(layer)
        return cls(
            layers=_many(all_layers, rules.LAYERS, "layer"),
            kinds=_many(kind, rules.KINDS, "kind"),
            sources=_many(source, rules.SOURCES, "source"),
            statuses=_many(status, rules.STATUSES, "status"),
            agent=validate.name(agent, "agent"),
            project=validate.name(project, "project"),
            with_global=bool(with_global and project),
            only_global=bool(only_global and not project),
            task=validate.name(task, "task"),
            tags=tuple(validate.tags(tags)),
            since=parse_time(since, "since") if since is not None else None,
            until=_until(until),
            changed_since=(
                parse_time(changed_since, "changed_since") if changed_since is not None else None
            ),
            viewer=validate.name(viewer, "viewer"),
            ids=_ids(ids),
        )

    def where(self) -> peewee.Expression:
        expr: peewee.Expression = Memory.id.is_null(False)
        if self.layers:
            expr &= Memory.layer.in_(self.layers)
        if self.kinds:
            expr &= Memory.kind.in_(self.kinds)
        if self.sources:
            expr &= Memory.source.in_(self.sources)
        if self.statuses:
            expr &= Memory.status.in_(self.statuses)
        if self.agent:
            expr &= Memory.agent == self.agent
        if self.project and self.with_global:
            expr &= (Memory.project == self.project) | Memory.project.is_null()
        elif self.project:
            expr &= Memory.project == self.project
        elif self.only_global:
            expr &= Memory.project.is_null()
        if self.task:
            expr &= Memory.task == self.task
        for tag in self.tags:
            expr &= _has_tag(tag)
        if self.since:
            expr &= Memory.created_at >= self.since
        if self.until:
            expr &= Memory.created_at <= self.until
        if self.changed_since:
            expr &= Memory.updated_at >= self.changed_since
        if self.viewer:
            expr &= (Memory.visibility == "shared") | (Memory.agent == self.viewer)
            expr &= Memory.flag.is_null()  # withheld by the injection guard
            # the Trash is its writer's: another's, and the person's reason, are not for it
            expr &= (Memory.status != "deleted") | (Memory.agent == self.viewer)
        if self.ids:
            # One JSON parameter, not one per id: a large selection stays under SQLite's cap.
            expr &= Memory.uuid.in_(among(self.ids))
        return expr

    def narrows_rows(self) -> bool:
        """Whether anything but the status filter is set (search applies status in FTS5)."""
        return any(v for k, v in self.__dict__.items() if k != "statuses")

    def to_dict(self) -> dict[str, Any]:
        """The filters that are set, for the retrieval log."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items() if v}


def _until(value: Any) -> str | None:
    """A bare date means the end of that day: "until 2024-03-01" includes March 1."""
    if value is None:
        return None
    moment = parse_time(value, "until")
    if isinstance(value, str) and len(value.strip()) == 10 and "-" in value:
        moment = moment[:10] + "T23:59:59.999Z"
    return moment


def _has_tag(tag: str) -> peewee.Node:
    return peewee.NodeList(
        (
            peewee.SQL("EXISTS (SELECT 1 FROM json_each("),
            Memory.tags,
            peewee.SQL(") WHERE json_each.value = ?)", (tag,)),
        )
    )


def _many(value: str | Sequence[str] | None, allowed: Sequence[str], field: str) -> tuple:
    if value is None:
        return ()
    if not isinstance(value, str | list | tuple):
        raise ValidationError(
            f"{field} must be one of {', '.join(allowed)}, or a list of them", field=field
        )
    values = [value] if isinstance(value, str) else list(value)
    return tuple(validate.one_of(v, allowed, field) for v in values)


def _ids(value: Sequence[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValidationError("ids must be a list of memory ids", field="ids")
    return tuple(value)


# What other clients searched their way to is the person's to see: sorted by it, an agent's
# list told it even with the counts left out (`agents_see`).
RECALLS = ("recall_count", "last_recalled_at")


def order_by(order: str, *, agent: bool = False) -> list[peewee.Ordering]:
    """`"-updated_at"` sorts descending; ties always fall back to the newest id."""
    if not isinstance(order, str):
        raise ValidationError("order must be text such as '-updated_at'", field="order")
    name = order.lstrip("-+")
    sortable = [f for f in ORDERABLE if not agent or f not in RECALLS]
    if name not in sortable:
        raise ValidationError(
            f"order {order!r} is not a sortable field{' for an agent' if name in ORDERABLE else ''}"
            f"; use one of: {', '.join(sortable)} (prefix - for descending)",
            field="order",
        )
    column = getattr(Memory, name)
    if name in WORDS:  # as a person reads them: "apple" before "Banana"
        column = column.collate("NOCASE")
    if order.startswith("-"):
        return [column.desc(nulls="LAST"), Memory.id.desc()]
    return [column.asc(nulls="LAST"), Memory.id.desc()]
