"""Files and hook input from outside, fuzzed: each reader answers with its own clear error and
nothing else (transcripts, JSON exports, hook payloads)."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memdesk.api import hooks, transcripts
from memdesk.core import MemoryService
from memdesk.core.errors import ValidationError

JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)
TEXTS = st.one_of(
    st.text(max_size=300),
    JSON.map(json.dumps),
    st.lists(JSON.map(json.dumps), max_size=5).map("\n".join),
    st.integers(1, 5000).map(lambda depth: "[" * depth + "]" * depth),
)


@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
@example(text='{"type": []}')  # a speaker named by a list: unhashable, once a TypeError
@example(text='{"type": "user_message", "data": {}, "message": {"role": {}}}')
def test_a_transcript_reader_says_what_is_wrong_or_reads(text):
    messages, said = [], "read"
    try:
        messages = transcripts.parse(text).messages
    except transcripts.TranscriptError as exc:
        said = str(exc)
    assert said
    assert all(set(m) == {"role", "content"} for m in messages)


@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_an_import_says_what_is_wrong_or_plans(text, tmp_path_factory):
    service = MemoryService.open(tmp_path_factory.mktemp("fuzz") / "m.db")
    plan, said = {"added": [], "changed": [], "errors": []}, "planned"
    try:
        plan = service.plan_import(text)
    except ValidationError as exc:
        said = exc.message
    finally:
        service.close()
    assert said
    assert {"added", "changed", "errors"} <= plan.keys()


@pytest.mark.parametrize("event", ["UserPromptSubmit", "PostToolUse", "SessionEnd", "Bogus"])
def test_a_hook_fails_open_on_any_input(event, tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDESK_SOCKET", str(tmp_path / "nobody.sock"))

    @settings(max_examples=40, deadline=None)
    @given(stdin=TEXTS)
    def run(stdin: str) -> None:
        out, err = hooks.run(event, stdin, tmp_path / "m.db")
        assert out == ""
        assert err.startswith(f"memdesk hook {event}:")
        assert "Traceback" not in err

    run()


TOOLS = st.sampled_from(
    ["Edit", "MultiEdit", "Write", "NotebookEdit", "Bash", "Read", "Grep", "apply_patch", "x"]
)
ARGS = st.dictionaries(
    st.sampled_from(
        ["file_path", "old_string", "new_string", "content", "edits", "command", "path", "input"]
    ),
    JSON,
    max_size=5,
)


@settings(max_examples=150, deadline=None)
@given(tool=TOOLS, args=ARGS, result=JSON)
@example(tool="Write", args={"file_path": "/x/a.py", "content": 5}, result="ok")
@example(tool="Edit", args={"old_string": "a", "new_string": 1.5, "edits": [{}]}, result=None)
def test_a_tool_call_of_any_shape_is_observed_or_refused_with_a_sentence(
    tool, args, result, tmp_path_factory
):
    """An agent's number where an edit's text goes answered "internal"."""
    from memdesk.core import agent

    service = MemoryService.open(tmp_path_factory.mktemp("fuzz") / "m.db")
    claude = agent("claude")
    try:
        service.session_start("s1", actor=claude)
        said = "observed"
        try:
            said = service.observe("s1", tool, args, result, actor=claude)["text"]
        except ValidationError as exc:
            said = exc.message
        assert isinstance(said, str)
        service.session_action("s1", tool, args, actor=claude)
    finally:
        service.close()
