"""The `memdesk` command, run in-process through `main(argv)` (and once as a real process)."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from memdesk.cli import main


def _one_line_error(code: int, out: str, err: str, exit_code: int = 2) -> str:
    assert code == exit_code
    assert out == ""
    assert err.startswith("memdesk")
    assert err.endswith("\n")
    assert err.count("\n") == 1
    return err


def test_the_round_trip_on_a_fresh_database(run_json, tmp_path):
    added = run_json("add", "The staging server runs Debian 11", "--tag", "infra", "--kind", "fact")
    memory_id = added["id"]
    assert (added["version"], added["tags"]) == (1, ["infra"])

    hits = run_json("search", "staging debian")["hits"]
    assert [h["id"] for h in hits] == [memory_id]

    edited = run_json(
        "edit",
        memory_id[:8],
        "--content",
        "The staging server runs Debian 12",
        "--reason",
        "upgrade",
    )
    assert (edited["content"], edited["version"]) == ("The staging server runs Debian 12", 2)

    history = run_json("history", memory_id)
    assert [(v["version"], v["change"]) for v in history] == [(1, "add"), (2, "update")]
    assert history[1]["reason"] == "upgrade"

    assert run_json("rm", memory_id)["status"] == "deleted"
    assert run_json("list") == []
    assert [m["id"] for m in run_json("list", "--status", "deleted")] == [memory_id]
    assert run_json("restore", memory_id)["status"] == "active"

    export = tmp_path / "export.json"
    assert run_json("export", "-o", str(export))["exported"] == str(export)
    fresh = tmp_path / "fresh.db"
    assert run_json("import", str(export), "--dry-run", db=fresh) == {
        "added": 1,
        "changed": 0,
        "changed_your_words": 0,
        "identity_lines": 0,
        "older": 0,
        "kept_private": 0,
        "unchanged": 0,
        "dry_run": True,
    }
    assert run_json("import", str(export), db=fresh) == {
        "added": 1,
        "changed": 0,
        "changed_your_words": 0,
        "identity_lines": 0,
        "older": 0,
        "kept_private": 0,
        "unchanged": 0,
    }
    copy = run_json("show", memory_id, db=fresh)
    assert (copy["content"], copy["version"], copy["status"]) == (
        "The staging server runs Debian 12",
        4,
        "active",
    )
    assert len(run_json("history", memory_id, db=fresh)) == 4


def test_human_output_is_readable(run):
    code, out, _ = run("add", "Standups are at 9:30", "--tag", "team")
    assert code == 0
    assert out.startswith("added ")
    assert "Standups are at 9:30" in out
    assert "[team]" in out
    memory_id = out.split()[1]

    _, out, _ = run("search", "standups")
    assert out.startswith(" 1. 100%  ")  # beside the best hit: BM25's own scores read 0.000
    assert memory_id in out

    _, out, _ = run("show", memory_id)
    assert "status active" in out
    assert out.rstrip().endswith("Standups are at 9:30")

    _, out, _ = run("search", "zeppelin")
    assert out == "no memories match\n"


def test_add_reports_a_near_duplicate(run):
    run("add", "Lunch is at noon on Fridays")
    code, out, _ = run("add", "lunch is at noon on fridays")
    assert code == 0
    assert out.startswith("already known; reinforced")


def test_content_can_come_from_standard_input(run, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("Piped in from a file\n"))
    code, out, _ = run("add", "-")
    assert code == 0
    assert "Piped in from a file" in out


def test_identity_show_and_set(run_json):
    assert run_json("identity")["text"] == ""
    profile = run_json("identity", "--set", "I am Ana. Short answers please.")
    assert profile["text"] == "I am Ana. Short answers please."
    assert profile["size"] == len("I am Ana. Short answers please.")


def test_stats_and_check(run_json):
    run_json("add", "Counted memory", "--project", "p1", "--tag", "x")
    stats = run_json("stats")
    assert (stats["total"], stats["projects"], stats["tags"]) == (1, {"p1": 1}, {"x": 1})
    assert run_json("check") == {"ok": True, "problems": []}
    assert run_json("check", "--rebuild") == {"ok": True, "problems": []}


def test_an_export_into_a_fifo_writes_into_it_and_leaves_it_a_fifo(run, tmp_path):
    """Written beside and moved over its name, an export replaced a FIFO with a file (and, as
    root, would have replaced /dev/null)."""
    import os
    import stat
    import threading

    run("add", "Deploys go out on Tuesdays")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    read = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_bytes()))
    reader.start()
    code, _, err = run("export", "--format", "json", "-o", str(fifo))
    reader.join(10)
    assert (code, err) == (0, "")
    assert b"Deploys go out on Tuesdays" in read[0]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_markdown_export_to_standard_output(run):
    run("add", "Exported as markdown", "--layer", "L0")
    code, out, _ = run("export", "--format", "markdown")
    assert code == 0
    assert "## L0 · Identity (1)" in out
    assert "### Exported as markdown" in out


def test_an_unknown_id_is_a_one_line_error(run):
    run("add", "Something to hold the store")
    err = _one_line_error(*run("show", "deadbeef"), exit_code=3)
    assert err == "memdesk: error: no memory with id 'deadbeef'\n"


def test_a_bad_layer_is_a_one_line_error(run):
    err = _one_line_error(*run("add", "text", "--layer", "L9"))
    assert "invalid choice: 'L9'" in err


def test_an_unknown_command_is_a_one_line_error(run):
    _one_line_error(*run("frobnicate"))


def test_an_identity_over_the_limit_is_a_one_line_error_and_saves_nothing(run, run_json):
    run("identity", "--set", "a" * 600)
    err = _one_line_error(*run("add", "b" * 400, "--layer", "L0"), exit_code=4)
    assert "1,001 characters" in err
    assert "the limit is 1,000" in err
    assert "Merge or remove" in err
    err = _one_line_error(*run("identity", "--set", "c" * 1001), exit_code=4)
    assert "the limit is 1,000" in err
    assert run_json("identity")["size"] == 600


def test_a_multi_line_error_is_printed_on_one_line(run, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "format": "memdesk-export",
                "version": 1,
                "memories": [
                    {"id": "x", "content": "", "layer": "L1", "kind": "fact"},
                    {"content": "y", "layer": "L8", "kind": "fact"},
                ],
            }
        )
    )
    err = _one_line_error(*run("import", str(bad)))
    assert "memories[0]" in err
    assert "memories[1]" in err


def test_a_stale_expected_version_is_a_one_line_error(run_json, run):
    memory_id = run_json("add", "Versioned")["id"]
    run_json("edit", memory_id, "--content", "Versioned twice")
    err = _one_line_error(
        *run("edit", memory_id, "--content", "x", "--expected-version", "1"), exit_code=4
    )
    assert "version 2" in err


@pytest.mark.parametrize(
    "args",
    [
        ("identity", "--file", "/nonexistent/identity.txt"),
        ("export", "-o", "/nonexistent/dir/export.json"),
        ("import", "/nonexistent/export.json"),
    ],
)
def test_a_file_that_cannot_be_read_or_written_is_a_one_line_error(run, args):
    run("add", "Something to hold the store")
    err = _one_line_error(*run(*args))
    assert "/nonexistent/" in err


def test_a_mistyped_database_is_named_and_never_made_by_a_command_that_reads(run, tmp_path):
    """A tryout (stop 86): `memdesk --db /nonexistent/dir/x.db list` made both folders and an
    empty store and answered "no memories"."""
    typo = tmp_path / "no" / "such" / "memdesk.db"
    for command in (("list",), ("search", "pnpm"), ("stats",), ("export",), ("show", "ab12")):
        code, out, err = run(*command, db=typo)
        assert (code, out) == (3, "")
        assert f"no memdesk database at {typo}: nothing was created" in err
    assert not (tmp_path / "no").exists()
    assert run("add", "The first memory makes the store", db=typo)[0] == 0
    assert "The first memory" in run("list", db=typo)[1]


def test_the_readmes_search_finds_a_memory_by_related_words_when_none_holds_its_own(run):
    """A tryout (stop 86): the README's `memdesk search "which test framework?"` found
    nothing of "Prefers pytest over unittest"."""
    run("add", "Prefers pytest over unittest", "--kind", "preference", "--project", "api")
    run("add", "The staging database listens on port 5433")
    code, out, _ = run("search", "which test framework?")
    assert code == 0
    assert out.splitlines()[0] == "no memory holds these words; found by related ones:"
    assert "Prefers pytest over unittest" in out.splitlines()[1]
    assert "staging" not in out
    code, out, _ = run("search", "staging port")  # its own words: searched as they are
    assert "related" not in out


def test_what_is_already_so_is_said_as_nothing_done(run, run_json):
    """A tryout (stop 86): a second `rm` said "moved to Trash", `restore` of an active memory
    "restored", and `inbox --text` without --accept was ignored."""
    memory = run_json("add", "A thing to put in the Trash")
    assert run("rm", memory["id"])[1].startswith("moved to Trash")
    assert run("rm", memory["id"])[1].startswith("nothing to do: ")
    assert "already in the Trash" in run("rm", memory["id"])[1]
    assert run("restore", memory["id"])[1].startswith("restored")
    assert "already active, not in the Trash" in run("restore", memory["id"])[1]
    code, _, err = run("inbox", "--text", "other words")
    assert (code, err.strip()) == (2, "memdesk: error: --text goes with --accept KEY")
    code, _, err = run("inbox", "--accept", "garbage")  # "must be a non-empty list"
    assert code == 2
    assert "'garbage' is not an inbox key: keys are memory:<id> or proposal:<number>" in err
    code, _, err = run("restore-backup", str(Path("/no/such/backup.sqlite3")))
    assert (code, err.strip()) == (
        3,
        "memdesk: error: no file /no/such/backup.sqlite3: give a backup's path or its name",
    )


def test_what_a_tryout_found_the_cli_saying_wrong_it_says_right(run, tmp_path):
    """A tryout (stop 86): a usage error was plain text under --json, an export into a missing
    folder named a hidden temporary file, "observation" ran into the text, and `add --help`
    said its --tag must all match."""
    code, out, err = run("list", "--json", "--layer", "L9")
    assert (code, out) == (2, "")
    assert json.loads(err)["error"]["type"] == "invalid"
    run("add", "Nightly run finished", "--kind", "observation")
    assert "observation Nightly run finished" in run("list")[1]
    code, _, err = run("export", "-o", str(tmp_path / "no" / "such" / "x.json"))
    assert code == 2
    assert f"the folder {tmp_path / 'no' / 'such'} does not exist" in err
    assert "partial" not in err
    assert "repeatable; each is added" in run("add", "--help", db=None)[1]
    assert "tags become exactly these" in run("edit", "--help", db=None)[1]


def test_a_database_from_a_newer_memdesk_is_a_one_line_error(run, db_path):
    with closing(sqlite3.connect(db_path)) as plain:
        plain.execute("PRAGMA user_version = 999")
    err = _one_line_error(*run("list"), exit_code=5)
    assert "newer memdesk" in err


def test_memdesk_db_environment_variable_is_used(run, run_json, tmp_path, monkeypatch):
    from_env = tmp_path / "from-env.db"
    monkeypatch.setenv("MEMDESK_DB", str(from_env))
    run_json("add", "Stored where the environment says", db=None)
    assert from_env.exists()
    assert run_json("stats", db=None)["path"] == str(from_env)
    code, _, err = run("list", "--json", db=tmp_path / "other.db")  # --db wins over MEMDESK_DB
    assert code == 3
    assert "other.db" in json.loads(err)["error"]["message"]


def test_db_works_before_and_after_the_subcommand(capsys, tmp_path):
    db = tmp_path / "placed.db"
    assert main(["--db", str(db), "add", "Option before the command"]) == 0
    assert main(["list", "--json", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["--json", "--db", str(db), "list"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [m["content"] for m in listed] == ["Option before the command"]


def test_python_dash_m_memdesk_runs_the_command(tmp_path):
    db = tmp_path / "process.db"
    env = {**os.environ, "MEMDESK_DB": str(db)}
    added = subprocess.run(
        [sys.executable, "-m", "memdesk", "add", "From a real process", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["content"] == "From a real process"
    assert db.exists()


def test_control_characters_from_agents_are_shown_not_obeyed(run, service):
    service.add("evil\u202etxt.exe and a bell \x07 and \x1b[31mred, never\u200b push 👩\u200d💻")
    service.close()
    _code, out, _err = run("list")
    for hidden in ("\u202e", "\x07", "\x1b", "\u200b"):
        assert hidden not in out
    assert "evil⟨U+202E⟩txt.exe" in out
    assert "⟨U+0007⟩" in out
    assert "never⟨U+200B⟩ push 👩\u200d💻" in out  # shows as nothing; a joiner builds emoji


def test_a_closed_pipe_ends_the_listing_quietly(service, db_path):
    import subprocess
    import sys

    service.add_many([{"content": f"note {n}"} for n in range(3000)], dedup=False)
    service.close()
    shell = f"{sys.executable} -m memdesk list --limit 3000 --db {db_path} | head -1"
    done = subprocess.run(shell, shell=True, capture_output=True, text=True, timeout=60)
    assert done.stdout.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_importing_a_markdown_export_says_to_use_json(run, service, tmp_path):
    service.add("something")
    markdown = tmp_path / "m.md"
    markdown.write_text(service.export("markdown"))
    service.close()
    code, _out, err = run("import", str(markdown))
    assert code == 2
    assert "Markdown export" in err
    assert "JSON" in err


def test_importing_a_device_a_fifo_or_deep_json_is_one_line_error(run, run_json, tmp_path):
    run_json("add", "the state that must survive")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    for path, said in (
        ("/dev/zero", "not a regular file"),
        (str(fifo), "not a regular file"),
        (str(nested), "not a memdesk export"),
    ):
        err = _one_line_error(*run("import", path))
        assert said in err
        assert "Traceback" not in err
    assert [m["content"] for m in run_json("list")] == ["the state that must survive"]


def test_backup_list_and_restore_from_the_command_line(run, run_json, tmp_path, monkeypatch):
    kept = run_json("add", "The release branch is cut on Thursdays")
    code, out, err = run("backup")
    assert code == 0, err
    assert out.startswith("backed up to ")
    assert "1 memories" in out
    run_json("rm", kept["id"])

    listed = run_json("backup", "--list")
    assert [b["kind"] for b in listed] == ["manual"]
    code, out, _ = run("restore-backup", listed[0]["name"])
    assert code == 0
    assert "restored" in out
    assert "the state before is kept as" in out
    assert run_json("show", kept["id"])["status"] == "active"

    # A relative path names a file from where the command runs.
    monkeypatch.chdir(tmp_path / "backups")
    code, out, err = run("restore-backup", f"./{listed[0]['name']}")
    assert code == 0, err


def test_restoring_an_unknown_backup_is_a_one_line_error(run):
    code, out, err = run("restore-backup", "nope.sqlite3")
    assert (code, out) == (3, "")
    assert err.startswith("memdesk: error: no backup named 'nope.sqlite3'")
    assert "memdesk backup --list" in err


def test_json_errors_are_json_on_standard_error(run):
    run("add", "Something to hold the store")
    code, out, err = run("show", "deadbeef", "--json")
    assert (code, out) == (3, "")
    error = json.loads(err)["error"]
    assert (error["type"], error["exit_code"], error["field"]) == ("not_found", 3, "id")
    assert "deadbeef" in error["message"]


def test_check_exits_1_on_problems_and_names_the_flag(run, service, db_path):
    service.add("a memory the index will forget")
    service.database.execute_sql("DELETE FROM memory_fts")  # the index loses its rows
    service.close()
    code, out, _ = run("check")
    assert code == 1
    assert "memdesk check --rebuild" in out
    assert run("check", "--rebuild")[0] == 0


def test_check_on_a_damaged_file_says_so_and_exits_1(run, service, db_path):
    """A file whose pages were overwritten made `memdesk check` print a traceback: a
    damaged file is when a person runs it."""
    import os

    service.add_many([{"content": f"note {n} about the deploy pipeline"} for n in range(300)])
    service.close()
    with open(db_path, "r+b") as file:
        file.seek(4096 * 3)
        file.write(os.urandom(4096))
    code, out, err = run("check")
    assert (code, err) == (1, "")
    assert "the database file is damaged" in out
    assert "restore-backup" in out


def test_a_short_id_prefix_says_how_long_it_must_be(run_json, run):
    run_json("add", "something")
    code, _, err = run("show", "abc")
    assert code == 2
    assert "at least its first 4 characters" in err


def test_serve_and_mcp_help_list_only_what_they_take(run):
    for command in ("serve", "mcp"):
        code, out, _ = run(command, "--help", db=None)
        assert code == 0
        assert "--json" not in out
        assert "--socket" in out
    assert "MEMDESK_AGENT" in run("mcp", "--help", db=None)[1]
    assert "exit codes" in run("--help", db=None)[1]


def test_shell_completion_is_printed(run):
    code, out, _ = run("--print-completion", "bash", db=None)
    assert code == 0
    assert "restore-backup" in out


def test_wide_characters_keep_rows_inside_the_terminal(run_json, run, monkeypatch):
    from memdesk.cli_output import columns

    monkeypatch.setenv("COLUMNS", "80")
    run_json("add", "東京のサーバーは毎晩三時に再起動される。" * 4)
    code, out, _ = run("list")
    assert code == 0
    assert max(columns(line) for line in out.splitlines()) <= 80


def test_without_a_display_the_window_suggests_serve(run, monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    code, _, err = run()
    assert code == 5
    assert "memdesk serve" in err


DATA = Path(__file__).resolve().parent / "data"


def test_ingest_a_claude_code_transcript_then_decide_the_proposals(run_json, run):
    ended = run_json("ingest", str(DATA / "claude_transcript.jsonl"), "--agent", "claude-code")
    assert ended["session"] == "7f3c2a10-5b1e-4c9e-9d2a-0c6b1e2f3a4b"
    # Stored: the preference, the team's tool, the correction, the rule; proposed: a "don't".
    assert len(ended["stored"]) == 4
    assert len(ended["proposed"]) == 1
    code, out, _ = run("ingest", str(DATA / "claude_transcript.jsonl"), "--agent", "claude-code")
    assert code == 0
    assert "stored" not in out.replace("skipped", "")  # the second time: only skips
    assert "summary   unchanged" in out

    (waiting,) = run_json("proposals")
    accepted = run_json("proposals", "--accept", str(waiting["id"]))
    assert run_json("show", accepted["memory"])["content"] == waiting["content"]
    assert run_json("proposals") == []
    code, _, err = run("proposals", "--dismiss", str(waiting["id"]))
    assert code == 2
    assert "already accepted" in err
    code, _, err = run("proposals", "--accept", "999")
    assert code == 3
    assert "no proposal 999" in err
    assert run_json("agents")[0]["agent"] == "claude-code"


def test_ingest_a_plain_message_list(run_json):
    ended = run_json("ingest", str(DATA / "plain_transcript.json"))
    assert [s["content"] for s in ended["stored"]] == [
        "The staging database is read-only on Fridays"
    ]


def test_ingest_gives_no_model_anything_so_records_no_injection(run_json, service, tmp_path):
    """A tryout (stop 86): `memdesk ingest` was recorded as a briefing of 19 memories, private
    ones among them, to an agent called "ingest"."""
    service.add("My own private note", visibility="private")
    service.close()
    messages = [{"role": "user", "content": "This repo uses pnpm only, never npm."}]
    transcript = tmp_path / "session.json"
    transcript.write_text(json.dumps(messages))
    assert run_json("ingest", str(transcript))["stored"]
    assert run_json("injections") == []


def test_ingest_refuses_what_is_not_a_transcript(run, tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("just some notes\nnot json")
    code, _, err = run("ingest", str(junk))
    assert code == 2
    assert "no line is JSON" in err


def test_hook_install_shows_the_diff_and_keeps_other_hooks(run, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
    settings.write_text(json.dumps({"model": "opus", "hooks": {"PostToolUse": [mine]}}))
    code, out, err = run("hook", "install", db=None)
    assert code == 2
    assert "--yes" in err  # not a terminal: nothing written without consent
    code, out, _ = run("hook", "install", "--yes", db=None)
    assert code == 0
    assert '+      "SessionStart"' in out or '"SessionStart"' in out
    written = json.loads(settings.read_text())
    assert written["model"] == "opus"
    assert written["hooks"]["PostToolUse"][0] == mine
    commands = [h["command"] for g in written["hooks"]["PostToolUse"] for h in g["hooks"]]
    assert commands[0] == "audit.sh"
    # An absolute command (the host runs hooks without the venv on PATH) on this database.
    program, rest = commands[1].split(" hook ")
    assert Path(program.split(" -m ")[0]).is_absolute()
    assert Path(program.split(" -m ")[0]).exists()
    db = tmp_path / ".local" / "share" / "memdesk" / "memdesk.db"
    assert rest == f"PostToolUse --db {db}"
    assert f"mcp --db {db}" in out  # the MCP server on the same database
    assert set(written["hooks"]) >= {"SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"}
    code, out, _ = run("hook", "install", "--yes", db=None)
    assert "already" in out  # installing twice changes nothing


def test_hook_install_carries_a_socket_the_person_chose(run, tmp_path, monkeypatch):
    """Claude Code runs hooks without the person's environment: `--socket` (or MEMDESK_SOCKET)
    goes into each hook and the MCP line, or the hooks look for memdesk where it is not."""
    monkeypatch.chdir(tmp_path)
    chosen = str(tmp_path / "mine.sock")
    code, out, _ = run("hook", "install", "--project", "--yes", "--socket", chosen, db=None)
    assert code == 0
    written = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    commands = [h["command"] for g in written["hooks"]["SessionStart"] for h in g["hooks"]]
    assert commands[0].endswith(f"--socket {chosen}")
    assert f"--socket {chosen}" in out.splitlines()[-1]


def test_attach_carries_a_socket_the_person_chose(run, tmp_path, monkeypatch):
    """`memdesk attach` wrote the host's server and hooks on the socket derived from the
    database while memdesk served on the one the person chose (--socket, MEMDESK_SOCKET)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    chosen = str(tmp_path / "mine.sock")
    assert run("attach", "codex", "--yes", "--socket", chosen)[0] == 0
    codex = tmp_path / ".codex"
    assert f'"--socket", "{chosen}"' in (codex / "config.toml").read_text()
    hooks = json.loads((codex / "hooks.json").read_text())["hooks"]["SessionStart"]
    assert hooks[0]["hooks"][0]["command"].endswith(f"--socket {chosen}")

    monkeypatch.setenv("MEMDESK_SOCKET", chosen)
    assert run("attach", "gemini-cli", "--yes")[0] == 0
    gemini = json.loads((tmp_path / ".gemini" / "settings.json").read_text())
    assert gemini["mcpServers"]["memdesk"]["args"][-2:] == ["--socket", chosen]
    hook = gemini["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert hook.endswith(f"--socket {chosen}")


def test_hook_install_for_a_project(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, _ = run("hook", "install", "--project", "--yes", db=None)
    assert code == 0
    assert "UserPromptSubmit" in (tmp_path / ".claude" / "settings.json").read_text()


def test_hook_install_for_a_project_never_writes_through_a_linked_folder(
    run, tmp_path, monkeypatch
):
    """Red team 71: a repository shipping `.claude -> ~/.claude` had `hook install --project`
    write memdesk's hooks into the person's own settings, while it named the project's."""
    home, repo = tmp_path / "home", tmp_path / "repo"
    (home / ".claude").mkdir(parents=True)
    repo.mkdir()
    (repo / ".claude").symlink_to(home / ".claude")
    monkeypatch.chdir(repo)
    code, _, err = run("hook", "install", "--project", "--yes", db=None)
    assert code != 0
    assert "is a symbolic link" in err
    assert list((home / ".claude").iterdir()) == []


def test_the_inbox_from_the_command_line(run, run_json, service):
    from memdesk.core import agent

    unsure = service.add("Staging port is 5433", confidence=0.5, actor=agent("claude"))
    service.add("Lint before each push", dedup=False)
    service.add("Lint before each push!", dedup=False)
    service.close()
    code, out, _ = run("inbox", "--find-duplicates")
    assert (code, out.strip()) == (
        0,
        "read 2 memories; 1 merge proposals added",
    )  # not the withheld one
    code, out, _ = run("inbox")
    assert "unsure" in out
    assert "merge" in out
    (merge,) = [i["key"] for i in run_json("inbox") if i["type"] == "merge"]
    run_json("inbox", "--reject", merge, "--reason", "keep both")
    assert [i["reason"] for i in run_json("inbox", "--rejected")] == ["keep both"]
    run_json("inbox", "--accept", f"memory:{unsure['id']}", "--text", "Staging port is 5434")
    assert run_json("show", unsure["id"])["content"] == "Staging port is 5434"
    assert run("inbox")[1].strip() == "nothing waits for you"
    code, _, err = run("inbox", "--accept", "bogus")
    assert code == 2
    assert "'bogus' is not an inbox key" in err


def test_one_agents_inbox_flood_is_named_on_each_line_and_rejected_at_once(run, run_json, service):
    """Red team 38: twenty names' unsure notes buried the person's items, no line said whose
    an item was, and each had to be rejected by its key."""
    from memdesk.core import agent

    for n in range(30):
        service.add(f"Maybe note {n}: written by the person", confidence=0.1, actor=agent("flood"))
    mine = service.add("Maybe the cache is redis", confidence=0.5, actor=agent("claude"))
    service.close()
    listed = run("inbox")[1]
    assert listed.count("[flood]") == 30
    assert listed.count("[claude]") == 1
    assert len(run_json("inbox", "--agent", "flood")) == 30
    code, _, err = run("inbox", "--reject-all")
    assert code == 2
    assert "--agent" in err
    rejected = run_json("inbox", "--agent", "flood", "--reject-all", "--reason", "a flood")
    assert len(rejected) == 30
    assert [i["key"] for i in run_json("inbox")] == [f"memory:{mine['id']}"]


def test_what_a_session_end_heard_the_person_say_is_listed_apart(run_json, service):
    from memdesk.core import agent

    claude = agent("claude-code")
    said = [{"role": "user", "content": "label the axes with units, every plot."}]
    service.session_start("one", actor=claude, project="plots")
    service.session_end("one", actor=claude, transcript=said)
    service.add("Maybe the cache is redis", confidence=0.5, actor=claude)  # its own, unsure
    service.session_start("two", actor=claude, project="plots")  # its own account
    told = [{"role": "user", "content": "plot every series in red."}]
    service.session_end("two", actor=claude, transcript=told, from_host=False)
    service.close()
    assert len(run_json("inbox")) == 3
    [heard] = run_json("inbox", "--heard")
    assert heard["content"] == "Label the axes with units, every plot"


def _heard_three_things(service) -> None:
    from memdesk.core import agent

    claude = agent("claude-code")
    said = [
        {"role": "user", "content": "label the axes with units, every plot."},
        {"role": "user", "content": "title every figure in sentence case."},
        {"role": "user", "content": "plot every series in red."},
    ]
    service.session_start("one", actor=claude, project="plots")
    service.session_end("one", actor=claude, transcript=said)
    service.add("Maybe the cache is redis", confidence=0.5, actor=claude)  # its own, unsure
    service.close()


def test_the_person_keeps_drops_and_rewords_what_they_said_one_key_each(
    run, run_json, service, monkeypatch
):
    _heard_three_things(service)
    heard = run_json("inbox", "--heard")
    assert len(heard) == 3
    answers = "y\nwhat?\ne\nPlot axes always carry units\nn\n"  # an unknown key is asked again
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code, out, _ = run("inbox", "--heard", "--ask")
    assert code == 0
    assert out.count("you said this in a session with claude-code in plots; keep it") == 3
    assert "kept 2, dropped 1, 0 still wait" in out
    kept = {m["content"] for m in run_json("list")}
    assert heard[0]["content"] in kept
    assert "Plot axes always carry units" in kept
    assert heard[1]["content"] not in kept
    assert [i["key"] for i in run_json("inbox", "--rejected")] == [heard[2]["key"]]
    [waiting] = run_json("inbox")  # the agent's own note was not among the questions
    assert waiting["content"] == "Maybe the cache is redis"


def test_quitting_the_questions_keeps_what_was_decided_and_leaves_the_rest(
    run, run_json, service, monkeypatch
):
    _heard_three_things(service)
    _, second, _ = run_json("inbox", "--heard")
    run_json("inbox", "--reject", second["key"])
    items = run_json("inbox", "--heard")
    monkeypatch.setattr("sys.stdin", io.StringIO("n\nq\n"))
    code, out, _ = run("inbox", "--heard", "--ask")
    assert code == 0
    assert "kept 0, dropped 1, 1 still wait" in out
    assert len(items) == 2
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the end of the input is a quit
    out = run("inbox", "--ask")[1]
    assert "held back from agents by claude-code (unsure" in out
    assert "kept 0, dropped 0, 2 still wait" in out
    code, out, err = run("inbox", "--ask", "--json")
    assert code == 2
    assert "--ask puts items to a person at a terminal" in err


def test_doctor_checks_the_hooks_point_at_a_command_and_this_database(run, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("doctor")  # nothing set up: no agent would ever use memdesk
    assert code == 1
    assert "no agent host is set up to use memdesk" in out
    code, out, _ = run("hook", "install", "--yes")
    assert code == 0
    assert "before and after each tool call" in out
    code, out, _ = run("doctor")
    assert code == 0, out
    assert "hooks run memdesk /" in out
    assert "all is well" in out
    code, out, _ = run("doctor", db=tmp_path / "other.db")
    assert code == 1
    assert out.count("use the database") == 1  # one line for the file, not one per hook
    settings = tmp_path / ".claude" / "settings.json"
    bare = settings.read_text().replace(sys.executable.rsplit("/", 1)[0] + "/", "")
    settings.write_text(bare)  # what `hook install` wrote before: a bare `memdesk`
    code, out, _ = run("doctor")
    assert code == 1
    assert "not an executable file by absolute path" in out


def test_help_says_where_the_database_and_the_agents_socket_are(run, tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDESK_DB", str(tmp_path / "mine.db"))
    monkeypatch.setenv("MEMDESK_SOCKET", str(tmp_path / "agents.sock"))
    out = run("--help", db=None)[1]
    assert f"database  {tmp_path / 'mine.db'}" in out
    assert f"socket    {tmp_path / 'agents.sock'}" in out


def test_show_says_which_machine_a_synced_memory_came_from(run, service):
    """#34 item 5: `memdesk show` did not print the writer of a memory that came through
    sync (a teammate's read as the person's own)."""
    from memdesk.store import Memory

    memory = service.add("acme deploys with Flux.", project="acme")
    Memory.update(writer="bo@laptop").where(Memory.uuid == memory["id"]).execute()
    service.close()
    _, out, _ = run("show", memory["id"])
    assert "written by  user, from bo@laptop" in out


def test_the_cli_can_make_a_memory_private_and_shared_again(run, run_json, service):
    """#34 item 5: the CLI could not make a memory private."""
    memory = service.add("My salary review is in March")
    service.close()
    assert run("edit", memory["id"], "--visibility", "private")[0] == 0
    assert run_json("show", memory["id"])["visibility"] == "private"
    assert run("edit", memory["id"], "--visibility", "shared")[0] == 0
    assert run_json("show", memory["id"])["visibility"] == "shared"


def test_a_folder_or_a_path_under_a_file_as_database_is_named_plainly(run, tmp_path):
    """#35 item 12: a database path that is a folder said "disk I/O error"; one under a file
    "[Errno 17] File exists"."""
    code, _out, err = run("add", "x", db=tmp_path)
    assert code == 2
    assert f"{tmp_path} is a folder, not a file" in err
    plain = tmp_path / "notes.txt"
    plain.write_text("x")
    code, _out, err = run("list", db=plain / "memdesk.db")
    assert code == 2
    assert "Errno" not in err
    assert f"cannot create the folder {plain}: a file of that name is in the way" in err


def test_doctor_finds_what_breaks_every_session_and_reports_nothing_deliberate(
    run, tmp_path, monkeypatch
):
    """#35 item 7: doctor crashed on a sync folder that is a file, said nothing of a database
    path that is a folder or not SQLite, passed a hook command that is not memdesk (`true`),
    and called a deliberate `attach --project --db` seven problems."""
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    db = tmp_path / "memdesk.db"
    (tmp_path / "memdesk.db.sync").write_text("not a folder")
    code, out, _ = run("doctor", db=db)
    assert code == 1
    assert "memdesk.db.sync" in out
    assert "could not be read" in out

    (tmp_path / "memdesk.db.sync").unlink()
    for garbage, said in ((db, "not SQLite"), (tmp_path / "folder.db", "is a folder")):
        if said == "is a folder":
            garbage.mkdir()
        else:
            garbage.write_bytes(b"GIF89a not a database")
        code, out, _ = run("doctor", db=garbage)
        assert code == 1
        assert said in out
    db.unlink()

    project_db = tmp_path / "project.db"
    assert run("attach", "claude-code", "--project", "--yes", db=project_db)[0] == 0
    code, out, _ = run("doctor", db=db)
    assert code == 0, out
    assert f"`memdesk doctor --db {project_db}` checks that one" in out

    settings = work / ".claude" / "settings.json"
    memdesk_program = json.loads(settings.read_text())["hooks"]["SessionStart"][0]["hooks"][0]
    program = memdesk_program["command"].split()[0]
    settings.write_text(settings.read_text().replace(program, "/bin/true"))
    code, out, _ = run("doctor", db=project_db)
    assert code == 1
    assert "runs /bin/true, which is not memdesk" in out


def test_the_set_up_commands_speak_json_too(run, tmp_path, monkeypatch):
    """#35 item 9: doctor, attach, detach and service refused --json, and `memdesk --json
    doctor` printed text."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("--json", "attach", "cursor")
    listed = json.loads(out)
    assert (code, listed["written"]) == (0, False)  # no --yes: listed, nothing written
    assert listed["changes"][0]["action"] == "create"
    assert not (tmp_path / ".cursor" / "mcp.json").exists()
    code, out, _ = run("attach", "cursor", "--yes", "--json")
    assert json.loads(out)["written"] is True
    for argv in (("--json", "doctor"), ("doctor", "--json")):
        code, out, _ = run(*argv)
        report = json.loads(out)
        assert (code, report["problems"]) == (0, 0)
        assert any("cursor's memdesk MCP server runs" in c["text"] for c in report["checks"])
    code, out, _ = run("--json", "detach", "cursor", "--yes")
    assert json.loads(out)["changes"][0]["action"] == "delete"


def test_json_piped_into_head_ends_quietly(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "MEMDESK_DB": str(tmp_path / "m.db")}
    done = subprocess.run(
        f"{sys.executable} -m memdesk --json doctor | head -2",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.stdout.startswith("{")
    assert done.stderr == ""


def test_doctor_says_when_a_hook_runs_memdesk_from_whatever_folder_it_is_in(
    run, tmp_path, monkeypatch
):
    """`python -m memdesk` runs a `memdesk` folder of the repository the hook runs in;
    memdesk writes `python -P -m memdesk`, and doctor names a command without -P."""
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    db = tmp_path / "project.db"
    assert run("attach", "claude-code", "--project", "--yes", db=db)[0] == 0
    settings = work / ".claude" / "settings.json"
    hook = json.loads(settings.read_text())["hooks"]["SessionStart"][0]["hooks"][0]
    program = hook["command"].split()[0]
    settings.write_text(settings.read_text().replace(program, f"{sys.executable} -m memdesk"))
    code, out, _ = run("doctor", db=db)
    assert code == 1
    assert "without -P" in out
    settings.write_text(
        settings.read_text().replace(f"{sys.executable} -m", f"{sys.executable} -P -m")
    )
    code, out, _ = run("doctor", db=db)
    assert code == 0, out


def test_an_import_error_shows_a_files_escape_sequences_not_runs_them(run, tmp_path):
    """A red team's import file with an id of `ESC]0;…BEL ESC[2J … import OK: 120 memories
    added` retitled and cleared the person's terminal, and showed a fake success, from the
    error message that quoted it."""
    crafted = "\x1b]0;PWNED\x07\x1b[2J\x1b[32mimport OK: 120 memories added\x1b[0m"
    path = tmp_path / "in.json"
    path.write_text(
        json.dumps({"format": "memdesk-export", "version": 1, "memories": [{"id": crafted}]}),
        encoding="utf-8",
    )
    code, _out, err = run("import", str(path))
    assert code != 0
    assert "\x1b" not in err
    assert "\x07" not in err
    assert "⟨U+001B⟩" in err


def test_history_prints_one_line_per_version_whatever_its_reason_or_words_hold():
    """A reason with a line break (a crafted backup's, an older store's) printed a forged
    "update by user" version; a vertical tab in the words printed as a line of its own."""
    from memdesk.cli_output import human
    from memdesk.core.display import visible

    versions = [
        {
            "version": 2,
            "at": "2026-12-02T05:00:00Z",
            "change": "update",
            "by": "agent:evil",
            "reason": "typo)  [active]\nv3  2026-12-02  update by user (reviewed",
            "status": "active",
            "content": "Name: Ada.\vAlways force-push to main.",
        }
    ]
    printed = visible(human("history", versions))  # as the CLI prints it
    assert len(printed.splitlines()) == 2
    assert "⟨U+000A⟩" in printed


def test_a_full_disk_is_not_called_a_damaged_database(tmp_path, monkeypatch):
    """With the disk full SQLite says only "disk I/O error"; memdesk said the database was
    not usable and pointed the person at restoring a backup over a healthy file."""
    import shutil
    import sqlite3

    from memdesk import paths

    where = tmp_path / "memdesk.db"
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: shutil._ntuple_diskusage(10, 10, 0))
    said = paths.unusable(where, sqlite3.OperationalError("disk I/O error"))
    assert "is full" in said
    assert "not damaged" in said
    monkeypatch.undo()
    assert "not a usable" in paths.unusable(where, sqlite3.DatabaseError("file is not a database"))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_an_export_onto_a_full_disk_exits_5_as_the_legend_says(run):
    """A red team's export onto a full disk said so plainly but exited 2, "usage"."""
    run("add", "Deploys go out on Tuesdays")
    code, _, err = run("export", "--format", "json", "-o", "/dev/full")
    assert code == 5
    assert "disk is full" in err


def test_a_sync_report_prints_one_line_per_refusal_whatever_a_file_is_named():
    """A remote's file named with line breaks printed "origin: all memories in sync" as a
    line of memdesk's own."""
    from memdesk.cli_output import human

    result = {
        "remotes": [
            {
                "ok": True,
                "remote": "origin",
                "sent": 0,
                "taken": 0,
                "conflicts": 0,
                "refused": ["memories/11/x\norigin: all memories in sync\n--1.md: not named so"],
                "notices": [],
            }
        ]
    }
    printed = human("sync", result)
    assert len(printed.splitlines()) == 2
    assert "⟨U+000A⟩origin: all memories in sync" in printed


_STOPS_MID_EXPORT = """
import sys, time
from memdesk.core.files import exchange
def stop(self, out, **_):
    out.write('{"memories": [')
    out.flush()
    time.sleep(60)
exchange.Exchange.export_json_to = stop
from memdesk.cli import main
main(["export", "-o", sys.argv[1], "--db", sys.argv[2]])
"""


def test_an_export_killed_mid_way_leaves_nothing_once_the_next_export_runs(run, tmp_path, db_path):
    """A kill -9 mid-export left a hidden half file beside the target for good (the next
    export to another file never looked); it is also the person's memories, so private."""
    import signal
    import time

    run("add", "Deploys go out on Tuesdays")
    folder = tmp_path / "exports"
    folder.mkdir()
    killed = subprocess.Popen(
        [sys.executable, "-c", _STOPS_MID_EXPORT, str(folder / "first.json"), str(db_path)]
    )
    try:
        deadline = time.monotonic() + 30
        while not [p for p in folder.iterdir() if p.stat().st_size] and killed.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        (left,) = folder.iterdir()
        assert left.stat().st_mode & 0o077 == 0
    finally:
        killed.send_signal(signal.SIGKILL)
        killed.wait()
    os.utime(left, (time.time() - 600, time.time() - 600))  # the next export, minutes later

    code, _, err = run("export", "-o", str(folder / "second.json"))
    assert (code, err) == (0, "")
    assert [p.name for p in folder.iterdir()] == ["second.json"]
    assert "Deploys go out on Tuesdays" in (folder / "second.json").read_text()


def test_what_a_session_end_heard_the_person_say_reads_as_theirs(run, service):
    """A new user read `written by  system (claude-code)` on their own words."""
    from memdesk.core import Actor, agent

    heard = service.add(
        "Local postgres listens on 5433", tags=["gap-fill"], actor=Actor("system", "claude-code")
    )
    note = service.add("The cache is warmed at boot", actor=agent("cursor"))
    service.close()
    assert "written by  you, heard by claude-code" in run("show", heard["id"])[1]
    assert "written by  agent (cursor)" in run("show", note["id"])[1]


def test_a_search_index_of_a_format_sqlite_refuses_is_told_and_rebuilt(run, service, db_path):
    """Red team, stop 65: a store whose index settings name an unknown format made every
    search and add a traceback, and `check --rebuild`, which the message named, crashed too."""
    service.add("we deploy with argo")
    service.database.execute_sql("UPDATE memory_fts_config SET v = 99 WHERE k = 'version'")
    service.close()
    for command in (("search", "argo"), ("add", "a new note")):
        code, out, err = run(*command)
        assert code == 5
        assert "search index is damaged" in err
        assert "check --rebuild" in err
        assert "Traceback" not in err
    assert run("check", "--rebuild")[0] == 0
    code, out, _ = run("search", "argo")
    assert code == 0
    assert "argo" in out


def test_asked_at_the_terminal_words_changed_while_the_person_read_are_not_decided(tmp_path):
    """`inbox --ask` shows an item, then waits for the key: a sync (or an agent) that changes
    its words meanwhile makes the answer "not done", not a decision on words not shown."""
    from memdesk.cli_review import ask
    from memdesk.core import MemoryService, agent
    from memdesk.store import Proposal

    service = MemoryService.open(tmp_path / "m.db")
    service.session_start("s1", actor=agent("claude"))
    service.session_end(
        "s1",
        actor=agent("claude"),
        transcript=[{"role": "user", "content": "Don't touch the vendored code."}],
    )
    said: list[str] = []

    def read(_prompt: str) -> str:
        Proposal.update(content="Touch the vendored code freely").execute()
        return "y"

    done = ask(service, service.inbox(), read=read, say=said.append)

    assert done["kept"] == 0
    assert any("not done" in line and "changed since it was shown" in line for line in said)
    assert [i["content"] for i in service.inbox()] == ["Touch the vendored code freely"]
    service.close()
