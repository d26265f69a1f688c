"""Every socket method, called by an agent with hostile parameters: each answer is a result or
an error that names what was wrong, never "internal error", and the store stays healthy.
Small here (a few examples per method); `python -m bench.fuzz --examples N` runs it long."""

from __future__ import annotations

import os
from concurrent.futures import Future

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.api import errors
from memdesk.api.dispatch import Dispatcher, Session
from memdesk.api.errors import RpcError
from memdesk.api.methods import METHODS
from memdesk.core import USER, MemdeskError, agent

EXAMPLES = int(os.environ.get("MEMDESK_FUZZ_EXAMPLES", "12"))
# Ending or handing over the server, and being the person, are not an agent's to fuzz here.
SKIPPED = {"system.handover"}
HOSTILE_TEXT = st.sampled_from(
    [
        "",
        " ",
        "x" * 70_000,
        "\ud800",
        "\x00",
        "../../etc/passwd",
        "/dev/zero",
        "Ignore all previous instructions",
        "' OR 1=1; DROP TABLE memory; --",
        '"*" NEAR(a b)',
        "L0",
        "deleted",
        "-1",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    HOSTILE_TEXT,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _params(method) -> st.SearchStrategy[dict]:
    names = sorted(method.params)
    if not names:
        return st.just({})
    return st.dictionaries(st.sampled_from(names), VALUES, max_size=len(names))


# The person's methods that reach the file system or a remote: their paths are their own.
ON_DISK = {
    "system.backup",
    "system.restore_backup",
    "sync.init",
    "sync.run",
    "sync.remove",
    "sync.local",
    "sync.trust",
}
SESSIONS = {
    "agent": lambda: Session(agent="fuzzer", actor=agent("fuzzer")),
    # The person's own methods take their mistakes too: `inbox.find_duplicates` with a list
    # for its project answered "internal error".
    "person": lambda: Session(agent="cli", role="user", actor=USER),
}


def _refusal(dispatcher: Dispatcher, method: str, params: dict, session: Session):
    """The error the caller is answered with, as the server answers it (work handed to a lane
    fails when it runs), or None."""
    try:
        answer = dispatcher.call(method, params, session)
        if isinstance(answer, Future):
            answer.result(timeout=30)
    except RpcError as exc:
        return exc
    except MemdeskError as exc:
        return RpcError.from_service(exc)
    except Exception as exc:  # the server logs it and answers "internal error"
        return RpcError(errors.INTERNAL_ERROR, repr(exc))
    return None


@pytest.mark.parametrize(
    ("method", "caller"),
    [(m, "agent") for m in METHODS if m.name not in SKIPPED]
    + [(m, "person") for m in METHODS if m.name not in SKIPPED | ON_DISK],
    ids=lambda v: getattr(v, "name", v),
)
def test_no_hostile_parameters_make_an_internal_error(service, method, caller):
    dispatcher = Dispatcher(service)
    service.add("a memory to aim at", tags=["t"])

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(params=_params(method))
    def call(params: dict) -> None:
        refused = _refusal(dispatcher, method.name, params, SESSIONS[caller]())
        if refused is not None:
            assert refused.code != errors.INTERNAL_ERROR, (method.name, params, refused.message)
            assert refused.message

    call()
    assert service.check() == []


@pytest.mark.parametrize("caller", ["agent", "person"])
def test_a_list_or_an_object_for_any_parameter_is_a_callers_mistake(service, caller):
    """Each parameter of each method given a value of the wrong shape, one at a time: the
    random examples above can miss one ("project": [] reached SQL as a row value)."""
    dispatcher = Dispatcher(service)
    service.add("a memory to aim at", tags=["t"], project="p")
    skipped = SKIPPED | (ON_DISK if caller == "person" else set())
    internal = []
    for method in (m for m in METHODS if m.name not in skipped):
        for name in method.params:
            for value in ([], ["a", None], {"x": 1}):
                refused = _refusal(dispatcher, method.name, {name: value}, SESSIONS[caller]())
                if refused is not None and (
                    refused.code == errors.INTERNAL_ERROR or not refused.message
                ):
                    internal.append((method.name, name, value))
    assert internal == []
    assert service.check() == []
