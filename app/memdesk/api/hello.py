"""`system.hello`: who a connection may say it is. A name is quoted to other agents as a
note's writer, so it may neither steer a model nor pass for the person, their tools or their
machines; the person's roles need the key beside the socket; a connection is named once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from memdesk.api import errors, naming
from memdesk.api.errors import RpcError
from memdesk.core import guard, validate

# Who a connection says it is. "user" is the person's own tool (the memdesk CLI): its writes
# follow the user's rules. The socket only admits this user's own processes, so this is a
# guardrail for well-behaved agents, not a security boundary.
ROLES = ("agent", "hook", "user")
_AN_AGENT_NAMES_ITSELF = "an agent names itself (claude-code, cursor, …)"


def checked(
    params: dict[str, Any],
    named: tuple[str, str] | None,
    *,
    holds_key: bool,
    machine_names: Callable[[], Iterable[str]],
) -> tuple[str, str]:
    """The connection's (name, role) from `params`, or RpcError saying what is not allowed.
    `named`: the (name, role) the connection already took, if it did."""
    name = params["agent"]
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 200:
        raise RpcError(
            errors.INVALID_PARAMS,
            "system.hello: agent must be a non-empty name of at most 200 characters",
            field="agent",
        )
    # a name, nothing that reads as markup nor passes for the person's
    read_as = validate.as_read(validate.agent_name(name, "agent") or "")
    if steers := guard.scan(name):
        raise RpcError(
            errors.INVALID_PARAMS,
            f"system.hello: agent {name!r} reads as an instruction to a model ({steers[0]}); "
            + _AN_AGENT_NAMES_ITSELF,
            field="agent",
        )
    role = params.get("role", "agent")
    if role not in ROLES:
        raise RpcError(
            errors.INVALID_PARAMS,
            'system.hello: role must be "agent" (the default), "hook" (an agent host\'s '
            'session hooks) or "user" (only the person\'s own memdesk tools; agents must not '
            "claim either)",
            field="role",
        )
    if role != "user" and (
        read_as in naming.PERSONS_TOOL_NAMES
        or read_as in {validate.as_read(n) for n in machine_names()}
    ):
        raise RpcError(
            errors.INVALID_PARAMS,
            f"system.hello: agent {name.strip()!r} is what the person's own memdesk tools "
            "or machines are called; " + _AN_AGENT_NAMES_ITSELF,
            field="agent",
        )
    if role in naming.PRIVILEGED_ROLES and not holds_key:
        raise RpcError(
            errors.NOT_ALLOWED,
            f'system.hello: role "{role}" needs the key memdesk gives the person\'s own '
            "tools and hooks (in the file beside the socket); an agent connects as "
            '"agent"',
            field="key",
        )
    if named is not None and (name.strip(), role) != named:
        # renamed, one connection wrote 129,200 memories in 30 s under 68 names, each
        # within its own budget: a name's budget is a connection's only if it keeps one
        raise RpcError(
            errors.NOT_ALLOWED,
            f"system.hello: this connection is already {named[0]!r} ({named[1]}); a "
            "connection is named once: open another for another name",
            field="agent",
        )
    return name.strip(), role
