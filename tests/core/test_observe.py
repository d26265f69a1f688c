"""Tool-call extractors: one observation per call, by rules (core/sessions/observe.py)."""

from __future__ import annotations

import pytest

from memdesk.core.sessions.observe import observe


def test_an_edit_names_the_file_and_what_changed():
    seen = observe(
        "Edit",
        {
            "file_path": "/home/ada/shop/src/pricing/rules.py",
            "old_string": "a",
            "new_string": "b\nc",
        },
        {"success": True},
    )
    assert (seen.kind, seen.importance, seen.path) == (
        "edit",
        7,
        "/home/ada/shop/src/pricing/rules.py",
    )
    assert seen.text == "edited src/pricing/rules.py (-1 +2 lines): b"


def test_a_multi_edit_counts_its_changes():
    seen = observe("MultiEdit", {"file_path": "a.py", "edits": [{"new_string": "x"}] * 3}, {})
    assert "3 changes" in seen.text


def test_a_new_file_is_a_write():
    seen = observe("Write", {"file_path": "/x/docs/notes.md", "content": "one\ntwo\n"}, {})
    assert (seen.kind, seen.importance, seen.text) == (
        "write",
        7,
        "wrote x/docs/notes.md (2 lines)",
    )


def test_a_read_is_of_low_importance():
    assert observe("Read", {"file_path": "/a/b.py"}, "…").importance == 3


@pytest.mark.parametrize(
    "result",
    [
        {
            "stdout": "",
            "stderr": "E   ModuleNotFoundError: No module named 'decimal2'",
            "exit_code": 1,
        },
        {"error": "Exit code 2\nerror: could not compile `shop`"},
        "Traceback (most recent call last):\n  ...\nValueError: bad total\nExit code 1",
    ],
)
def test_a_failed_command_keeps_its_error_line(result):
    seen = observe("Bash", {"command": "pytest -q\n# second line"}, result)
    assert (seen.kind, seen.importance, seen.failed) == ("command", 8, True)
    assert seen.text.startswith("`pytest -q` failed")
    assert any(
        word in seen.text for word in ("ModuleNotFoundError", "could not compile", "ValueError")
    )


def test_a_command_that_worked():
    seen = observe(
        "Bash", {"command": "ls"}, {"stdout": "a\nb", "stderr": "", "interrupted": False}
    )
    assert (seen.importance, seen.failed, seen.text) == (4, False, "ran `ls`")


def test_searches_say_what_and_how_many():
    grep = observe("Grep", {"pattern": "round_total", "path": "/s/src"}, {"numFiles": 3})
    assert grep.text == "searched 'round_total' in s/src: 3 results"
    glob = observe("Glob", {"pattern": "**/*.py"}, {"filenames": ["a.py", "b.py"]})
    assert (glob.kind, glob.text) == ("search", "searched '**/*.py': 2 results")


def test_a_plan_change_lists_the_steps():
    todos = [
        {"content": "fix rounding", "status": "completed"},
        {"content": "docs", "status": "pending"},
    ]
    seen = observe("TodoWrite", {"todos": todos}, {})
    assert (seen.kind, seen.importance) == ("todo", 6)
    assert seen.text == "plan: [completed] fix rounding; [pending] docs"


def test_a_delegation_names_the_subagent():
    seen = observe("Task", {"subagent_type": "code-reviewer", "description": "review the diff"}, {})
    assert (seen.kind, seen.text) == ("delegate", "delegated to code-reviewer: review the diff")


def test_anything_else_is_kept_briefly():
    assert observe("mcp__github__create_issue", {}, {}).text == "called mcp__github__create_issue"
    assert observe("Whatever", "not a dict", None).kind == "other"


def test_huge_tool_output_is_kept_as_one_short_line():
    """What a session's working memory shows: one line per call, however much the tool said."""
    calls = [
        ("Edit", {"file_path": "a.py", "old_string": "x" * 5000, "new_string": "y" * 5000}, {}),
        ("Bash", {"command": "make"}, {"stderr": "error\n" * 2000, "exit_code": 2}),
        ("Grep", {"pattern": "p"}, {"filenames": ["f"] * 1000}),
    ]
    for call in calls:
        seen = observe(*call)
        assert "\n" not in seen.text
        assert len(seen.text) <= 200


@pytest.mark.parametrize(
    ("tool", "args", "result", "expected"),
    [
        (
            "run_shell_command",
            {"command": "pytest -q"},
            {"llmContent": "Exit Code: 1"},
            "`pytest -q` failed (exit 1)",
        ),
        ("run_shell_command", {"command": "ls"}, {"llmContent": "Exit Code: 0"}, "ran `ls`"),
        ("shell", {"command": ["bash", "-lc", "make test"]}, {"exit_code": 0}, "ran `make test`"),
        (
            "replace",
            {"file_path": "/p/a.py", "old_string": "a", "new_string": "b"},
            {},
            "edited p/a.py (-1 +1 lines): b",
        ),
        ("write_file", {"file_path": "/p/b.py", "content": "x\ny"}, {}, "wrote p/b.py (2 lines)"),
        ("read_file", {"absolute_path": "/p/c.py"}, {}, "read p/c.py"),
        (
            "apply_patch",
            {"input": "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x\n+y = 2\n*** End Patch"},
            {},
            "edited src/a.py (-1 +1 lines): y = 2",
        ),
    ],
)
def test_other_hosts_tool_calls_read_as_claude_codes_do(tool, args, result, expected):
    """Gemini CLI's and Codex's own tool names and argument shapes (their hooks report them
    as they are): a shell call read as `used run_shell_command` before."""
    assert observe(tool, args, result).text == expected


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Edit", {"file_path": "a" * 900_000, "old_string": "x", "new_string": "y"}),
        ("Write", {"file_path": "/src/" + "b" * 900_000, "content": "z"}),
        ("Task", {"subagent_type": "c" * 900_000, "description": "look"}),
        ("TodoWrite", {"todos": [{"content": "step", "status": "pending"}] * 50_000}),
        ("d" * 900_000, {}),
    ],
    ids=["edit", "write", "delegate", "plan", "tool-name"],
)
def test_an_observation_is_bounded_whatever_the_call_carried(tool, args):
    """An agent's calls with 900 KB paths made each later working memory of its task take
    38 s, every other agent waiting behind it (red team 39)."""
    seen = observe(tool, args, {})
    assert len(seen.text) <= 1_000
    assert seen.path is None or len(seen.path) <= 4_096
