"""`memdesk attach HOST` / `detach HOST` for Claude Code, Cursor, Gemini CLI, Codex and
opencode: each host's documented shape, the file's other entries kept, twice changes nothing,
detach puts the file back exactly."""

from __future__ import annotations

import json
import time
import tomllib
from pathlib import Path

import pytest

from memdesk.api import attach, opencode_plugin
from memdesk.api.hooks import EVENTS

MEMDESK = "/opt/memdesk/bin/memdesk"
DB = "/data/memdesk.db"

# Each host's file holding a server of the person's own, as that host documents it.
EXISTING = {
    "claude-code": '{"numStartups": 3, "mcpServers": {"git": {"command": "uvx"}}}',
    "cursor": '{"mcpServers": {"browser": {"command": "npx", "args": ["browser-mcp"]}}}',
    "gemini-cli": '{"theme": "GitHub", "mcpServers": {"web": {"command": "x"}}}',
    "copilot-cli": '{\n  "mcpServers": {\n    "gh": {"type": "http", "url": "https://x"}\n  }\n}\n',
    "codex": '# mine\nmodel = "o4"\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs"]\n',
    "opencode": '{\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {}\n}\n',
}


def _attached(host: str, home: Path, cwd: Path, project: bool = False) -> list[attach.Change]:
    return attach.plan_attach(host, project=project, db=DB, cwd=cwd, home=home, command=MEMDESK)


def _server(host: str, path: Path) -> dict:
    text = path.read_text()
    if host == "codex":
        return tomllib.loads(text)["mcp_servers"]["memdesk"]
    document = json.loads(text)
    return document["mcp"]["memdesk"] if host == "opencode" else document["mcpServers"]["memdesk"]


def _parsed(host: str, text: str) -> dict:
    return tomllib.loads(text) if host == "codex" else json.loads(text)


def _without_memdesk(host: str, text: str) -> dict:
    document = _parsed(host, text)
    servers = document[attach.HOSTS[host].container[0]]
    del servers["memdesk"]
    if host == "gemini-cli":
        del document["hooks"]  # its session hooks, in the same file
    if host == "opencode":
        del document["plugin"]  # its session hooks: memdesk's plugin, in the same file
    return document


@pytest.mark.parametrize("host", sorted(attach.HOSTS))
def test_attach_writes_the_documented_shape_keeps_the_rest_and_detach_undoes_it(host, tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = attach.HOSTS[host].path(False, cwd, home)
    path.parent.mkdir(parents=True)
    path.write_text(EXISTING[host])

    changes = _attached(host, home, cwd)
    assert changes[0].path == path
    assert changes[0].diff.startswith(f"--- {path}")
    attach.apply(changes)

    server = _server(host, path)
    argv = ["/opt/memdesk/bin/memdesk", "mcp", "--db", DB]
    env = {"MEMDESK_AGENT": host}  # its writes are the host's, by name
    if host == "opencode":
        assert server == {"type": "local", "command": argv, "enabled": True, "environment": env}
        (plugin,) = _parsed(host, path.read_text())["plugin"]
        assert plugin == [
            opencode_plugin.PLUGIN.as_uri(),
            {"command": ["/opt/memdesk/bin/memdesk"], "db": DB},
        ]
        assert opencode_plugin.PLUGIN.is_file()  # shipped with memdesk (package data)
    elif host == "copilot-cli":
        assert server == {
            "type": "local",
            "command": argv[0],
            "args": argv[1:],
            "env": env,
            "tools": ["*"],
        }
    else:
        assert server == {"command": argv[0], "args": argv[1:], "env": env}
    assert _without_memdesk(host, path.read_text()) == _parsed(host, EXISTING[host])

    assert _attached(host, home, cwd) == []  # twice changes nothing
    attach.apply(attach.plan_detach(host, project=False, cwd=cwd, home=home, command=MEMDESK))
    assert path.read_text() == EXISTING[host]  # byte for byte: layout, comments and all
    assert attach.plan_detach(host, project=False, cwd=cwd, home=home, command=MEMDESK) == []


def test_a_file_attach_made_is_removed_by_detach(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    attach.apply(_attached("cursor", home, cwd, project=True))
    made = cwd / ".cursor" / "mcp.json"
    assert made.exists()
    attach.apply(attach.plan_detach("cursor", project=True, cwd=cwd, home=home, command=MEMDESK))
    assert not made.exists()


def test_claude_code_gets_its_hooks_too_and_loses_only_memdesks(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    mine = {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
    settings.write_text(json.dumps({"model": "opus", "hooks": {"PostToolUse": [mine]}}, indent=2))

    attach.apply(_attached("claude-code", home, cwd))
    hooks = json.loads(settings.read_text())["hooks"]
    assert set(hooks) == set(EVENTS)
    assert (
        f"{MEMDESK} hook SessionStart --db {DB}" == hooks["SessionStart"][0]["hooks"][0]["command"]
    )

    attach.apply(
        attach.plan_detach("claude-code", project=False, cwd=cwd, home=home, command=MEMDESK)
    )
    assert json.loads(settings.read_text()) == {"model": "opus", "hooks": {"PostToolUse": [mine]}}
    assert not (home / ".claude.json").exists()


def test_a_server_of_the_persons_own_named_memdesk_is_never_removed(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"mcpServers": {"memdesk": {"command": "my-notes-server"}}}))
    assert attach.plan_detach("cursor", project=False, cwd=cwd, home=home, command=MEMDESK) == []


def test_a_file_with_comments_a_trailing_comma_and_a_bom_keeps_them_all(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = cwd / "opencode.json"
    path.parent.mkdir(parents=True)
    mine = '\ufeff{\n  // my servers\n  "mcp": {"a": {"type": "local"},},  /* x */\n}\n'
    path.write_text(mine)
    attach.apply(_attached("opencode", home, cwd, project=True))
    assert "// my servers" in path.read_text()
    assert "/* x */" in path.read_text()
    attach.apply(attach.plan_detach("opencode", project=True, cwd=cwd, home=home, command=MEMDESK))
    assert path.read_text() == mine


def test_the_command_shows_the_diff_asks_and_writes(run, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    code, _, err = run("attach", "gemini-cli", db=None)
    assert code == 2
    assert "--yes" in err  # not a terminal: nothing written without consent
    assert not (tmp_path / ".gemini" / "settings.json").exists()
    code, out, _ = run("attach", "gemini-cli", "--yes", db=None)
    assert code == 0
    assert '+      "command":' in out
    server = json.loads((tmp_path / ".gemini" / "settings.json").read_text())["mcpServers"]
    assert Path(server["memdesk"]["command"]).is_absolute()
    assert server["memdesk"]["args"][-2:] == [
        "--db",
        str(tmp_path / ".local" / "share" / "memdesk" / "memdesk.db"),
    ]
    code, out, _ = run("attach", "gemini-cli", "--yes", db=None)
    assert "already attached" in out
    code, out, _ = run("detach", "gemini-cli", "--yes", db=None)
    assert (code, "detached" in out) == (0, True)
    assert not (tmp_path / ".gemini" / "settings.json").exists()


def test_doctor_checks_every_attached_host_points_at_memdesk_and_this_database(
    run, tmp_path, monkeypatch
):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for host in ("cursor", "codex", "opencode"):
        assert run("attach", host, "--yes")[0] == 0
    code, out, _ = run("doctor")
    problems = [line for line in out.splitlines() if line.startswith("!")]
    assert len(problems) == 1, out  # Codex's hooks wait to be trusted in its /hooks screen
    assert "Codex has not been told to trust" in problems[0]
    for host in ("cursor", "codex", "opencode"):
        assert f"{host}'s memdesk MCP server runs /" in out
    code, out, _ = run("doctor", db=tmp_path / "other.db")
    assert code == 1
    assert "codex's memdesk MCP server uses the database" in out


def test_a_change_made_while_the_diff_was_shown_is_never_overwritten(tmp_path):
    """#33 item 12: attach wrote what it had read before the [y/N] question; a change made
    meanwhile was lost."""
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True)
    path.write_text(EXISTING["cursor"])
    planned = _attached("cursor", home, cwd)
    path.write_text('{"mcpServers": {"added-meanwhile": {"command": "x"}}}')
    with pytest.raises(ValueError, match="changed since its diff was shown"):
        attach.apply(planned)
    assert "added-meanwhile" in path.read_text()


def test_a_symlinked_config_is_refused_and_every_file_of_the_attach_stays_as_it_was(tmp_path):
    """#33 item 12 / #35 items 4-5: a link was written through (into another app's file, or a
    system folder through a dangling link), and one attach could change one file of two."""
    home, cwd = tmp_path / "home", tmp_path / "work"
    claude = home / ".claude.json"
    home.mkdir()
    claude.write_text(EXISTING["claude-code"])
    elsewhere = tmp_path / "someone-elses.json"
    elsewhere.write_text("{}")
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.symlink_to(elsewhere)
    with pytest.raises(ValueError, match="is a symbolic link"):
        attach.apply(_attached("claude-code", home, cwd))
    assert claude.read_text() == EXISTING["claude-code"]  # not half an attach
    assert elsewhere.read_text() == "{}"
    assert not list(home.glob(".*.memdesk-*"))  # no temporary file left behind


def test_codex_servers_in_dotted_keys_keep_every_line_and_codex_can_still_read_them(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True)
    mine = (
        'model = "o4"\nmcp_servers.docs.command = "npx"\nmcp_servers.docs.args = ["-y", "docs"]\n'
    )
    path.write_text(mine)
    attach.apply(_attached("codex", home, cwd))
    servers = tomllib.loads(path.read_text())["mcp_servers"]
    assert servers["docs"] == {"command": "npx", "args": ["-y", "docs"]}
    assert servers["memdesk"]["env"] == {"MEMDESK_AGENT": "codex"}
    attach.apply(attach.plan_detach("codex", project=False, cwd=cwd, home=home, command=MEMDESK))
    assert path.read_text() == mine


def test_another_memdesk_of_the_persons_is_kept_and_this_one_gets_a_name_of_its_own(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True)
    theirs = {"command": "/other/venv/bin/memdesk", "args": ["mcp"]}
    path.write_text(json.dumps({"mcpServers": {"memdesk": theirs}}, indent=2))

    changes = _attached("cursor", home, cwd)
    assert 'named "memdesk-2"' in changes[0].note
    attach.apply(changes)
    servers = json.loads(path.read_text())["mcpServers"]
    assert servers["memdesk"] == theirs
    assert servers["memdesk-2"]["command"] == MEMDESK
    assert _attached("cursor", home, cwd) == []  # found again under its own name

    attach.apply(attach.plan_detach("cursor", project=False, cwd=cwd, home=home, command=MEMDESK))
    assert json.loads(path.read_text()) == {"mcpServers": {"memdesk": theirs}}


@pytest.mark.parametrize("starter", ["{}", '{"mcpServers": {}}', "{\n}\n", '{"mcpServers":{}}\r\n'])
def test_a_file_memdesk_did_not_create_is_never_deleted(starter, tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(starter.encode())
    attach.apply(_attached("cursor", home, cwd))
    attach.apply(attach.plan_detach("cursor", project=False, cwd=cwd, home=home, command=MEMDESK))
    assert path.read_bytes() == starter.encode()


@pytest.mark.parametrize("host", sorted(attach.HOSTS))
def test_detach_takes_away_the_files_and_folders_attach_made_and_no_others(host, tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    cwd.mkdir()
    (cwd / "keep.txt").write_text("mine")
    attach.apply(_attached(host, home, cwd, project=True))
    attach.apply(attach.plan_detach(host, project=True, cwd=cwd, home=home, command=MEMDESK))
    assert sorted(p.name for p in cwd.rglob("*")) == ["keep.txt"]


def test_a_crash_between_the_files_of_one_attach_leaves_each_before_or_after(tmp_path, monkeypatch):
    home, cwd = tmp_path / "home", tmp_path / "work"
    config, settings = home / ".claude.json", home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    config.write_text('{"numStartups": 3}')
    settings.write_text('{"model": "opus"}')
    changes = _attached("claude-code", home, cwd)
    real_replace = attach.os.replace
    done = []

    def crash_after_one(src, dst):
        if done:
            raise KeyboardInterrupt  # stands for kill -9 between the two renames
        real_replace(src, dst)
        done.append(dst)

    monkeypatch.setattr(attach.os, "replace", crash_after_one)
    with pytest.raises(KeyboardInterrupt):
        attach.apply(changes)
    by_path = {c.path: c for c in changes}
    for path in (config, settings):
        assert path.read_text() in (by_path[path].old, by_path[path].new)


def test_a_project_attach_names_the_hosts_trust_step_and_the_detach_that_undoes_it(
    run, tmp_path, monkeypatch
):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("attach", "gemini-cli", "--project", "--yes")
    assert code == 0
    assert "trust this folder" in out
    assert "`memdesk detach gemini-cli --project`" in out
    code, out, _ = run("detach", "gemini-cli", "--yes")
    assert "with --project: this project's" in out
    code, out, _ = run("detach", "gemini-cli", "--project", "--yes")
    assert "detached" in out
    assert not (tmp_path / ".gemini").exists()


def test_a_project_file_for_the_team_can_name_no_ones_paths(run, tmp_path, monkeypatch):
    """#35 item 11: `attach --project` wrote the person's venv and database paths into files
    a team commits."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("attach", "claude-code", "--project", "--yes")
    assert "attach with --portable" in out  # the absolute form says what it wrote
    assert run("detach", "claude-code", "--project", "--yes")[0] == 0
    code, out, _ = run("attach", "claude-code", "--project", "--portable", "--yes")
    assert "Written portable" in out
    server = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["memdesk"]
    assert (server["command"], server["args"]) == ("memdesk", ["mcp"])
    hooks = json.loads((tmp_path / ".claude" / "settings.json").read_text())["hooks"]
    assert hooks["SessionStart"][0]["hooks"][0]["command"] == "memdesk hook SessionStart"
    assert str(tmp_path) not in (tmp_path / ".mcp.json").read_text()
    assert (tmp_path / ".mcp.json").exists()
    code, out, _ = run("detach", "claude-code", "--project", "--yes")
    assert "nothing to change" not in out  # the hooks, the one part keyed by their mark
    assert (tmp_path / ".mcp.json").exists()  # a portable entry is not this install's
    assert run("detach", "claude-code", "--project", "--portable", "--yes")[0] == 0
    assert not (tmp_path / ".mcp.json").exists()
    assert not (tmp_path / ".claude").exists()


def test_gemini_cli_gets_its_session_hooks_in_its_own_protocol(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    attach.apply(_attached("gemini-cli", home, cwd))
    settings = json.loads((home / ".gemini" / "settings.json").read_text())
    assert set(settings["hooks"]) == {
        "SessionStart",
        "BeforeAgent",
        "AfterTool",
        "SessionEnd",
    }  # BeforeTool can only refuse a call: not hooked unless the person asks for refusals
    [hook] = settings["hooks"]["BeforeAgent"][0]["hooks"]
    assert hook["command"] == f"{MEMDESK} hook BeforeAgent --agent gemini-cli --db {DB}"
    assert hook["timeout"] == 30_000  # milliseconds, as Gemini CLI counts them
    attach.apply(
        attach.plan_detach("gemini-cli", project=False, cwd=cwd, home=home, command=MEMDESK)
    )
    assert not (home / ".gemini").exists()


def test_codex_gets_its_session_hooks_beside_its_config(run, tmp_path, monkeypatch):
    home, cwd = tmp_path / "home", tmp_path / "work"
    attach.apply(_attached("codex", home, cwd))
    hooks = json.loads((home / ".codex" / "hooks.json").read_text())["hooks"]
    assert "PostToolUseFailure" not in hooks  # Codex has no such event
    [hook] = hooks["UserPromptSubmit"][0]["hooks"]
    assert hook["command"] == f"{MEMDESK} hook UserPromptSubmit --agent codex --db {DB}"
    assert hooks["PreToolUse"][0]["matcher"] == "Bash|apply_patch"
    attach.apply(attach.plan_detach("codex", project=False, cwd=cwd, home=home, command=MEMDESK))
    assert not (home / ".codex").exists()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("attach", "codex", "--yes")
    assert "trust memdesk's hooks in Codex's /hooks screen" in out


def test_doctor_checks_each_hosts_hooks_and_codexs_trust_in_them(run, tmp_path, monkeypatch):
    """The live trial: doctor said "all is well" with Gemini CLI's hook pointing at a missing
    program, and with Codex's hooks that Codex skipped, untrusted."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for host in ("gemini-cli", "codex"):
        assert run("attach", host, "--yes")[0] == 0
    code, out, _ = run("doctor")
    assert code == 1
    assert "Codex has not been told to trust memdesk's hooks" in out
    assert "gemini-cli" not in "".join(ln for ln in out.splitlines() if ln.startswith("!"))
    hooks = tmp_path / ".codex" / "hooks.json"
    config = tmp_path / ".codex" / "config.toml"
    trust = "".join(
        f'\n[hooks.state."{hooks}:{snake}:0:0"]\ntrusted_hash = "sha256:x"\n'
        for snake in (
            "session_start",
            "user_prompt_submit",
            "pre_tool_use",
            "post_tool_use",
            "pre_compact",
            "session_end",
        )
    )
    config.write_text(config.read_text() + trust)
    code, out, _ = run("doctor")
    assert code == 0, out
    settings = tmp_path / ".gemini" / "settings.json"
    program = json.loads(settings.read_text())["mcpServers"]["memdesk"]["command"]
    text = settings.read_text()
    settings.write_text(
        text.replace(f"{program} hook SessionStart", "/gone/memdesk hook SessionStart")
    )
    code, out, _ = run("doctor")
    assert code == 1
    assert "runs '/gone/memdesk'" in out


def test_copilot_cli_gets_its_session_hooks_in_its_settings(tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    settings = home / ".copilot" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{\n  "banner": "never"\n}\n')
    attach.apply(_attached("copilot-cli", home, cwd))
    hooks = json.loads(settings.read_text())["hooks"]
    assert "PreToolUse" not in hooks  # it takes no reminder before a tool, only a refusal
    [hook] = hooks["SessionStart"][0]["hooks"]
    assert hook["command"] == f"{MEMDESK} hook SessionStart --agent copilot-cli --db {DB}"
    attach.apply(
        attach.plan_detach("copilot-cli", project=False, cwd=cwd, home=home, command=MEMDESK)
    )
    assert settings.read_text() == '{\n  "banner": "never"\n}\n'
    assert not (home / ".copilot" / "mcp-config.json").exists()


@pytest.mark.parametrize("crafted", ["[" * 100_000, '{"mcpServers": ' * 50_000, "\x00{}"])
def test_a_crafted_host_file_is_refused_with_a_sentence_and_left_alone(crafted, tmp_path):
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True)
    path.write_text(crafted)
    with pytest.raises(ValueError, match=str(path)):
        _attached("cursor", home, cwd)
    assert path.read_text() == crafted


def test_a_deeply_nested_toml_file_is_refused_with_a_sentence_and_left_alone(tmp_path):
    """A red team's Codex config.toml of 5,000 nested brackets killed attach, detach and
    doctor with a RecursionError traceback."""
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True)
    crafted = "a = " + "[" * 5000 + "]" * 5000 + "\n"
    path.write_text(crafted)
    with pytest.raises(ValueError, match="nested too deeply"):
        _attached("codex", home, cwd)
    with pytest.raises(ValueError, match="nested too deeply"):
        attach.plan_detach("codex", project=False, cwd=cwd, home=home, command=MEMDESK)
    assert path.read_text() == crafted


@pytest.mark.parametrize(
    ("crafted", "said"),
    [
        # a host reads one of two "hooks": memdesk's went into the other, never run, and detach
        # said "detached" leaving them all in
        ('{"hooks": {"Stop": []}, "hooks": {"Notification": []}}\n', "appears twice"),
        ('{"hooks": {"SessionStart": [], "SessionStart": []}}\n', "appears twice"),
        # filled in, detach left empty lists where the null was
        ('{"hooks": null}\n', '"hooks" is not an object'),
    ],
    ids=["two hooks", "two events", "null hooks"],
)
def test_a_settings_file_memdesk_could_not_give_back_is_refused_and_left_alone(
    tmp_path, crafted, said
):
    home, cwd = tmp_path / "home", tmp_path / "work"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(crafted)
    with pytest.raises(ValueError, match=said):
        _attached("claude-code", home, cwd)
    assert settings.read_text() == crafted


def test_a_fifo_in_place_of_a_config_is_refused_at_once(tmp_path):
    """A named pipe at .claude/settings.json hung attach, detach, hook install and doctor."""
    import os

    home, cwd = tmp_path / "home", tmp_path / "work"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    os.mkfifo(settings)
    with pytest.raises(ValueError, match="not a regular file"):
        _attached("claude-code", home, cwd)
    with pytest.raises(ValueError, match="not a regular file"):
        attach.plan_detach("claude-code", project=False, cwd=cwd, home=home, command=MEMDESK)


@pytest.mark.parametrize("host", ["claude-code", "cursor", "codex", "gemini-cli"])
def test_a_project_folder_linked_out_of_the_project_is_never_written_through(tmp_path, host):
    """Red team 67: a repository shipping `.claude -> ~/.claude` had `attach --project`
    rewrite the person's global settings while the diff named the repository's file."""
    home, cwd = tmp_path / "home", tmp_path / "work"
    outside = home / "global"
    outside.mkdir(parents=True)
    cwd.mkdir()
    folder = {"claude-code": ".claude", "cursor": ".cursor", "codex": ".codex"}.get(host, ".gemini")
    (cwd / folder).symlink_to(outside)
    with pytest.raises(ValueError, match="is a symbolic link"):
        attach.plan_attach(host, project=True, db=None, cwd=cwd, home=home, command=MEMDESK)
    with pytest.raises(ValueError, match="is a symbolic link"):
        attach.plan_detach(host, project=True, cwd=cwd, home=home, command=MEMDESK)
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(
    ("host", "where", "crafted"),
    [
        # a line of "[" and spaces inside a multi-line string: cubic in the spaces
        ("codex", ".codex/config.toml", 'note = """\n[' + " " * 4_000 + '\n"""\n'),
        # one object of many keys: each compared with every key before it
        ("cursor", ".cursor/mcp.json", json.dumps({f"k{n}": 1 for n in range(40_000)})),
    ],
    ids=["toml header", "json keys"],
)
def test_a_crafted_config_is_read_in_time_linear_in_its_size(tmp_path, host, where, crafted):
    """Red team 71: a 20 KB Codex config hung `attach` for ~40 minutes; a 1.3 MB .mcp.json
    of 120,000 keys hung `attach`, `hook install` and `doctor`."""
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = home / where
    path.parent.mkdir(parents=True)
    path.write_text(crafted)
    started = time.monotonic()
    _attached(host, home, cwd)
    assert time.monotonic() - started < 5
