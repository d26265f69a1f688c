"""Every socket method, called by an agent with hostile parameters: each answer is a result or
an error that names what was wrong, never "internal error", and the store stays healthy.
Small here (a few examples per method); `python -m bench.fuzz --examples N` runs it long."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdesk.api import errors
from memdesk.api.dispatch import Dispatcher, Session
from memdesk.api.errors import RpcError
from memdesk.api.methods import METHODS
from memdesk.core import agent

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


@pytest.mark.parametrize(
    "method", [m for m in METHODS if m.name not in SKIPPED], ids=lambda m: m.name
)
def test_no_hostile_parameters_make_an_internal_error(service, method):
    dispatcher = Dispatcher(service)
    service.add("a memory to aim at", tags=["t"])

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(params=_params(method))
    def call(params: dict) -> None:
        session = Session(agent="fuzzer", actor=agent("fuzzer"))
        refused = None
        try:
            dispatcher.call(method.name, params, session)
        except RpcError as exc:
            refused = exc
        if refused is not None:
            assert refused.code != errors.INTERNAL_ERROR, (method.name, params, refused.message)
            assert refused.message

    call()
    assert service.check() == []
