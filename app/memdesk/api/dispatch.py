"""From a checked request to one service call, and from service errors to JSON-RPC errors.

Transport only: parameter names and shapes are checked here; every rule of memory (limits,
layers by writer, the identity budget) is the service's, which raises errors we translate.
"""

from __future__ import annotations

import functools
import hmac
import json
import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from memdesk import __version__
from memdesk.api import errors, hello
from memdesk.api.errors import RpcError
from memdesk.api.lanes import Lanes
from memdesk.api.methods import BY_NAME, METHODS
from memdesk.api.repeatable import SAFE_TO_REPEAT
from memdesk.core import (
    USER,
    Actor,
    MemdeskError,
    MemoryService,
    agent,
    host,
)
from memdesk.core.errors import broken_index

logger = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
# A transport limit of the socket (issue 4), tighter than what the service accepts from the
# window's search box: an agent's query is a short need, not a pasted document.
MAX_QUERY_BYTES = 4096
UNNAMED_AGENT = "unknown"
Params = dict[str, Any]


@dataclass
class Session:
    """What the server knows about one connection: who it is and what it asked for."""

    agent: str = UNNAMED_AGENT
    role: str = "agent"
    actor: Actor = field(default_factory=lambda: agent(UNNAMED_AGENT))
    subscribed: bool = False
    named: bool = False  # by a `system.hello`: a connection is named once


Handler = Callable[[Params, Session], Any]
# What even a paused agent may call: greeting, describing, pinging, closing its subscription.
UNGATED = frozenset(
    {"system.ping", "system.describe", "system.hello", "system.show", "events.unsubscribe"}
)


class Dispatcher:
    """Calls the service for each method; `call` raises RpcError for anything it cannot do."""

    def __init__(
        self,
        service: MemoryService,
        on_show: Callable[[], None] = lambda: None,
        on_hello: Callable[[], None] = lambda: None,
        on_handover: Callable[[], None] | None = None,
        request_seconds: float = 5.0,
    ):
        """`on_handover` is given by a headless server only: a window never hands over.
        `request_seconds` bounds the database work of one request from an agent or a hook."""
        self.service = service
        self._request_seconds = request_seconds
        self._lanes = Lanes(service)
        self._on_show = on_show
        self._on_hello = on_hello
        self._on_handover = on_handover
        # Set by the server once it listens (naming.write_role_key); None refuses those roles.
        self.role_key: str | None = None
        svc = service
        handlers: dict[str, Handler] = {
            "system.ping": lambda p, s: "pong",
            "system.describe": lambda p, s: self._describe(),
            "system.hello": self._hello,
            "system.show": self._show,
            "system.handover": self._handover,
            "memory.add": self._add,
            "memory.add_many": self._add_many,
            "memory.update": lambda p, s: svc.update(p.pop("id"), actor=s.actor, **p),
            "memory.correct": lambda p, s: svc.correct(
                p.pop("id"), p.pop("content"), actor=s.actor, **p
            ),
            "memory.remove": lambda p, s: svc.remove(p.pop("id"), actor=s.actor, **p),
            "memory.restore": lambda p, s: svc.restore(p.pop("id"), actor=s.actor, **p),
            "memory.revert": lambda p, s: svc.revert(
                p.pop("id"), p.pop("version"), actor=s.actor, **p
            ),
            "memory.purge": lambda p, s: _purged(svc.purge(p["id"], actor=s.actor)),
            "memory.empty_trash": lambda p, s: {"purged": svc.empty_trash(actor=s.actor)},
            "memory.get": lambda p, s: svc.as_told([svc.get(p["id"], actor=s.actor)])[0],
            "memory.history": lambda p, s: svc.history(p["id"], actor=s.actor),
            "memory.list": lambda p, s: svc.as_told(svc.list_memories(**_lists(p, s))),
            "memory.count": lambda p, s: svc.count(**_lists(p, s)),
            "memory.search": self._search,
            "memory.link": lambda p, s: svc.link(p.pop("from"), p.pop("to"), actor=s.actor, **p),
            "memory.unlink": lambda p, s: {
                "removed": svc.unlink(p.pop("from"), p.pop("to"), actor=s.actor, **p)
            },
            "identity.get": lambda p, s: svc.identity(actor=s.actor),
            "identity.set": lambda p, s: svc.set_identity(p.pop("text"), actor=s.actor, **p),
            "archive.add": lambda p, s: svc.archive_session(actor=s.actor, **p),
            "context.build": lambda p, s: svc.build_context(_query(p), actor=s.actor, **p),
            "events.subscribe": lambda p, s: _subscribe(s, True),
            "events.unsubscribe": lambda p, s: _subscribe(s, False),
            "stats": lambda p, s: self._persons_long(s, lambda: svc.stats(actor=s.actor)),
            "export": lambda p, s: self._elsewhere(
                functools.partial(svc.export, p.pop("format", "json"), **_whole_store(s, p))
            ),
            # a moment of work each, off the server's thread: read beside the agents' writer
            "export.page": lambda p, s: self._elsewhere(
                functools.partial(svc.export_page, p.pop("after", 0), **_whole_store(s, p))
            ),
            "import": self._import,
            "system.check": self._check,
            "session.start": lambda p, s: svc.session_start(
                p.pop("session"), actor=s.actor, for_person=s.role != "agent", **p
            ),
            "session.prompt": lambda p, s: svc.session_prompt(
                p.pop("session"), p.pop("prompt"), actor=s.actor, **p
            ),
            "session.action": lambda p, s: svc.session_action(
                p.pop("session"), p.pop("tool"), actor=s.actor, **p
            ),
            "observe": lambda p, s: svc.observe(
                p.pop("session"), p.pop("tool"), actor=s.actor, **p
            ),
            "working_memory": lambda p, s: svc.working_memory(p.pop("session"), actor=s.actor, **p),
            "session.end": lambda p, s: svc.session_end(
                p.pop("session"), actor=s.actor, from_host=s.role != "agent", **p
            ),
            "agents.list": lambda p, s: svc.agents(actor=s.actor),
            "agents.control": lambda p, s: svc.set_agent_mode(p["agent"], p["mode"], actor=s.actor),
            "proposals.list": lambda p, s: svc.proposals(**p, actor=s.actor),
            "proposals.decide": self._decide,
            "injections": lambda p, s: svc.injections(**_person(s, "injections", p)),
            "inbox.list": lambda p, s: svc.inbox(**_person(s, "inbox.list", p)),
            "inbox.accept": lambda p, s: svc.accept(p.pop("keys"), actor=s.actor, **p),
            "inbox.reject": lambda p, s: svc.reject(p.pop("keys"), actor=s.actor, **p),
            "inbox.reconsider": lambda p, s: svc.reconsider(p["keys"], actor=s.actor),
            # seconds at 100k memories: off the server's thread, as a sync
            "inbox.find_duplicates": lambda p, s: self._elsewhere(
                functools.partial(svc.find_duplicates, **_person(s, "inbox.find_duplicates", p))
            ),
            "system.backup": lambda p, s: self._persons_long(s, lambda: svc.backup(actor=s.actor)),
            # how many memories each holds, hidden ones too, and where: the person's to know
            "system.backups": lambda p, s: svc.backups(**_person(s, "system.backups", p)),
            # a remote's first fetch (and a mirror's removal) take as long as the remote does
            "sync.init": lambda p, s: self._over_the_network(
                s, lambda: svc.sync_init(p.pop("url"), actor=s.actor, **p)
            ),
            "sync.run": lambda p, s: self._over_the_network(
                s, lambda: svc.sync(p.get("remote"), actor=s.actor, **_flag(p, "dry_run"))
            ),
            "sync.local": lambda p, s: svc.sync_local(p.pop("project"), actor=s.actor, **p),
            "sync.remove": lambda p, s: self._over_the_network(
                s, lambda: svc.sync_remove(p["name"], actor=s.actor)
            ),
            "sync.trust": lambda p, s: svc.sync_trust(
                p["writer"], actor=s.actor, **_flag(p, "unmet"), **_flag(p, "trusted")
            ),
            "sync.status": lambda p, s: svc.sync_status(actor=s.actor),
            "system.restore_backup": lambda p, s: svc.restore_backup(p["name"], actor=s.actor),
        }
        missing = set(BY_NAME) ^ set(handlers)
        assert not missing, f"methods and handlers differ: {missing}"
        # Precomputed once: the hot path is one dict lookup and one set difference.
        self._table = {
            name: (handlers[name], BY_NAME[name].allowed, BY_NAME[name].required)
            for name in handlers
        }

    def call(self, method: str, params: Params, session: Session) -> Any:
        entry = self._table.get(method)
        if entry is None:
            raise RpcError(
                errors.METHOD_NOT_FOUND,
                f"no method {method!r}; call system.describe for the list of methods",
            )
        handler, allowed, required = entry
        unknown = params.keys() - allowed
        if unknown:
            name = min(unknown)  # not sorted: a line may carry 80,000 of them
            raise RpcError(
                errors.INVALID_PARAMS,
                f"{method}: unknown parameter {name!r}; "
                f"allowed: {', '.join(sorted(allowed)) or 'none'}",
                field=name,
            )
        for name in required:
            if name not in params:
                raise RpcError(
                    errors.INVALID_PARAMS, f"{method}: parameter {name!r} is required", field=name
                )
        try:
            if method not in UNGATED:  # a paused, read-only or flooding agent is refused
                # what it does unnamed it does as "unknown", and keeps that name: named later,
                # one connection had the budgets of two
                session.named = True
                writes = method not in SAFE_TO_REPEAT
                items = params.get("items")
                self.service.admit(
                    session.actor,
                    writes=writes,
                    memories=len(items) if isinstance(items, list) else 1,
                    size=_size(params) if writes else 0,
                )
            if session.role == "user":
                return handler(dict(params), session)
            with self.service.time_limit(self._request_seconds, method):
                return self.service.as_seen_by(handler(dict(params), session), session.actor)
        except MemdeskError as exc:
            raise RpcError.from_service(exc) from None
        except UnicodeEncodeError:
            raise RpcError(
                errors.INVALID_PARAMS,
                f"{method}: text contains an unpaired surrogate escape; send valid Unicode",
            ) from None
        except Exception as exc:  # SQLite refusing a damaged index is no fault of memdesk's
            if (broken := broken_index(exc)) is None:
                raise
            raise RpcError.from_service(broken) from None

    def _holds_role_key(self, key: object) -> bool:
        return (
            self.role_key is not None
            and isinstance(key, str)
            and hmac.compare_digest(key.encode(), self.role_key.encode())
        )

    def _elsewhere(self, work: Callable[[], Any]) -> Future:
        return self._lanes.persons(work)

    def in_agents_lane(self, work: Callable[[], Any]) -> Future:
        return self._lanes.agents(work)

    def shutdown(self) -> None:
        self._lanes.shutdown()

    def _describe(self) -> dict[str, Any]:
        return {
            "server": "memdesk",
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "methods": {m.name: m.describe() for m in METHODS},
            "errors": {str(code): name for code, name in errors.NAMES.items()},
        }

    def _hello(self, params: Params, session: Session) -> dict[str, Any]:
        name, role = hello.checked(
            params,
            (session.agent, session.role) if session.named else None,
            holds_key=self._holds_role_key(params.get("key")),
            machine_names=self.service.machine_names,
        )
        session.agent = name
        session.role = role
        session.named = True
        session.actor = {"user": USER, "hook": host(session.agent)}.get(role, agent(session.agent))
        logger.info("%s %r connected", role, session.agent)
        self._on_hello()
        greeting = {
            "agent": session.agent,
            "role": session.role,
            "server": "memdesk",
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
        }
        if role == "user":  # which store this is: the CLI's --db may name another
            greeting["database"] = str(self.service.path)
        return greeting

    def _add(self, params: Params, session: Session) -> dict[str, Any]:
        dedup = _flag(params, "dedup")
        return self.service.add(params.pop("content"), actor=session.actor, **dedup, **params)

    def _add_many(self, params: Params, session: Session) -> list[str]:
        dedup = _flag(params, "dedup")
        added = self.service.add_many(params["items"], actor=session.actor, **dedup)
        return [memory["id"] for memory in added]

    def _search(self, params: Params, session: Session) -> dict[str, Any]:
        include = _flag(params, "include_inactive") | _flag(params, "with_global")
        query = _query(params)
        found = self.service.search(query, actor=session.actor, **include, **_lists(params))
        return {**found, "hits": self.service.as_told(found["hits"])}

    def _import(self, params: Params, session: Session) -> dict[str, Any]:
        # A plan too: it is made against the whole store, so an agent's dry run told "changed"
        # for the id of a memory hidden from it, and "added" for one that does not exist.
        _person(session, "import", params)
        if _flag(params, "dry_run").get("dry_run"):
            return self.service.plan_import(params["text"])
        return self.service.import_json(params["text"], actor=session.actor)

    def _check(self, params: Params, session: Session) -> Any:
        # The person's: at 100k memories a check is the slowest call an agent could loop on
        # (~1 s of the server each), and a rebuild rewrites the whole index.
        _person(session, "system.check", params)
        if _flag(params, "rebuild").get("rebuild"):
            self.service.rebuild_index()

        def check() -> dict[str, Any]:
            problems = self.service.check()
            return {"ok": not problems, "problems": problems}

        return self._elsewhere(check)

    def _persons_long(self, session: Session, work: Callable[[], Any]) -> Any:
        """The person's call that reads a whole 100k store for seconds (stats, a backup): off
        the server's thread, which writes every client's answers (a check held every agent's
        search 4.9 s). An agent's runs in the agents' lane already."""
        return self._elsewhere(work) if session.role == "user" else work()

    def _over_the_network(self, session: Session, work: Callable[[], Any]) -> Any:
        """The person's call that waits on a remote (up to git's 300 s on a slow one): on a
        lane of its own, so their check, stats or backup meanwhile is not queued behind it."""
        return self._lanes.network(work) if session.role == "user" else work()

    def _decide(self, params: Params, session: Session) -> dict[str, Any]:
        if session.role != "user":
            raise RpcError(
                errors.NOT_ALLOWED,
                "proposals.decide: only the person decides what a session end proposed",
            )
        accept = _flag(params, "accept")["accept"]
        return self.service.decide_proposal(params["id"], accept, actor=session.actor)

    def _handover(self, params: Params, session: Session) -> dict[str, bool]:
        if session.role != "user":
            raise RpcError(
                errors.NOT_ALLOWED, "system.handover: only the memdesk window may ask for it"
            )
        if self._on_handover is None:
            raise RpcError(
                errors.NOT_ALLOWED,
                "a memdesk window owns this database and does not hand it over; "
                "use system.show to bring it forward",
            )
        self._on_handover()
        return {"handing_over": True}

    def _show(self, params: Params, session: Session) -> dict[str, bool]:
        self._on_show()
        return {"shown": True}


def _purged(_: None) -> dict[str, bool]:
    return {"purged": True}


def _subscribe(session: Session, on: bool) -> dict[str, bool]:
    session.subscribed = on
    return {"subscribed": on}


def _person(session: Session, method: str, params: Params) -> Params:
    """`params`, for the person's own clients only (the window, the CLI)."""
    if session.role != "user":
        raise RpcError(errors.NOT_ALLOWED, f"{method}: only the person's own clients may call it")
    return params


def _whole_store(session: Session, params: Params) -> Params:
    """Export's filters, for the person's own clients: every matching memory in one answer
    is seconds of work at 100k memories, during which no one else is served."""
    if session.role != "user":
        raise RpcError(
            errors.NOT_ALLOWED,
            "export: only the person's own clients may export; an agent reads memories "
            "page by page with memory.list (offset, limit)",
        )
    return _lists(params)


def _size(params: Params) -> int:
    """About how many bytes of text a write brings (its parameters as compact JSON)."""
    return len(json.dumps(params, ensure_ascii=False, separators=(",", ":"), default=str))


def _flag(params: Params, name: str) -> Params:
    """Pop an optional boolean parameter (JSON true/false only, no truthy strings)."""
    if name not in params:
        return {}
    value = params.pop(name)
    if not isinstance(value, bool):
        raise RpcError(errors.INVALID_PARAMS, f"{name} must be true or false", field=name)
    return {name: value}


def _query(params: Params) -> Any:
    query = params.pop("query")
    if isinstance(query, str) and len(query) * 4 > MAX_QUERY_BYTES:  # cheap pre-check
        size = len(query.encode("utf-8", "surrogatepass"))
        if size > MAX_QUERY_BYTES:
            raise RpcError(
                errors.TOO_LARGE,
                f"query is {size:,} bytes; memdesk accepts at most "
                f"{MAX_QUERY_BYTES:,} bytes (4 KiB). Search with the key words only.",
                field="query",
                limit=MAX_QUERY_BYTES,
            )
    return query


def _lists(params: Params, session: Session | None = None) -> Params:
    """Filters as the service takes them; a single layer name is accepted for `layers`. An
    agent's lists leave out other agents' private memories."""
    if isinstance(params.get("layers"), str):
        params["layers"] = [params["layers"]]
    if session is not None and session.role == "agent":
        params["viewer"] = session.actor.agent
    return params
