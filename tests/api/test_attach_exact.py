"""Attach then detach gives back every host file byte for byte, on generated configs in every
layout a person or a host writes: any indentation or none, CRLF, no final newline, `\\u00e9`
escapes, `1.0e3`, comments and trailing commas where the host reads JSONC, dotted TOML keys,
servers of the person's own (one of them named "memdesk")."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memdesk.api import attach

MEMDESK = "/opt/memdesk/bin/memdesk"
DB = "/data/memdesk.db"
JSONC_HOSTS = {"cursor", "gemini-cli", "opencode"}  # hosts that read comments in their JSON
# per host and run; longer by hand: MEMDESK_ATTACH_EXAMPLES=5000
EXAMPLES = int(os.environ.get("MEMDESK_ATTACH_EXAMPLES", "150"))

# Spellings json.dumps never writes, put in place of markers after dumping.
RAW_TOKENS = ["1.0e3", "-0.50E-2", '"caf\\u00e9 \\/ \\ud83d\\ude00"', "0", "1E+2"]

_keys = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.text(max_size=12),
    st.sampled_from([f"__RAW{i}__" for i in range(len(RAW_TOKENS))]),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=3)),
    max_leaves=8,
)
_server = st.fixed_dictionaries(
    {"command": st.sampled_from(["npx", "uvx", "/usr/bin/my-notes"])},
    optional={
        "args": st.lists(st.text(max_size=6), max_size=2),
        "env": st.dictionaries(_keys, st.text(max_size=4), max_size=1),
    },
)


@st.composite
def json_config(draw, container: str, jsonc: bool) -> str:
    document = draw(st.dictionaries(_keys.filter(lambda k: k != container), _values, max_size=4))
    shape = draw(st.sampled_from(["absent", "empty", "servers"]))
    if shape != "absent":
        servers = draw(
            st.dictionaries(st.sampled_from(["docs", "web", "memdesk", "git"]), _server, max_size=3)
        )
        document[container] = {} if shape == "empty" else servers
        keys = list(document)
        order = draw(st.permutations(keys))
        document = {k: document[k] for k in order}
    indent = draw(st.sampled_from([None, 1, 2, 4, "\t"]))
    compact = draw(st.booleans())
    text = json.dumps(
        document,
        indent=indent,
        ensure_ascii=draw(st.booleans()),
        separators=(",", ":") if compact else None,
    )
    for i, token in enumerate(RAW_TOKENS):
        text = text.replace(f'"__RAW{i}__"', token)
    lines = text.split("\n")
    if jsonc and indent is not None and draw(st.booleans()):
        spots = draw(st.lists(st.integers(1, len(lines) - 1), max_size=3)) if len(lines) > 1 else []
        for spot in sorted(set(spots), reverse=True):
            lines.insert(spot, "  // a note of mine, with { and , in it")
    text = "\n".join(lines)
    body = text.rstrip()[:-1].rstrip()
    if jsonc and not body.endswith("{") and draw(st.booleans()):  # a trailing comma at the end
        text = body + "," + text[len(body) :]
    text += draw(st.sampled_from(["", "\n", "\n\n"]))
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text


@st.composite
def toml_config(draw) -> str:
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append("# my Codex settings")
    for key in draw(
        st.lists(
            st.sampled_from(["model", "approval_policy", "sandbox_mode", "über"]),
            unique=True,
            max_size=3,
        )
    ):
        value = tomlkit.item(
            draw(st.one_of(st.text(max_size=8), st.integers(0, 99), st.booleans()))
        ).as_string()
        lines.append(f"{tomlkit.key(key).as_string()} = {value}")
    if draw(st.booleans()):  # a server in dotted keys, the layout that once lost a line
        lines.append('mcp_servers.docs.command = "npx"')
        lines.append('mcp_servers.docs.args = ["-y", "docs"]  # keep me')
    for name in draw(st.lists(st.sampled_from(["web", "memdesk", "git"]), unique=True, max_size=2)):
        lines += [
            "",
            f"[mcp_servers.{name}]",
            f'command = "{draw(st.sampled_from(["uvx", "npx"]))}"',
        ]
        if draw(st.booleans()):
            lines += ["", f"[mcp_servers.{name}.env]", 'TOKEN = "x"']
    if draw(st.booleans()):
        lines += ["", "[profiles.fast]", 'model = "o4-mini"', "", "# trailing thoughts"]
    if draw(st.booleans()):
        lines += ["", "[[notes]]", "text = '''", "two", "lines'''"]
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        assume(False)
    return text


def _round_trip(host: str, project: bool, text: str | None, tmp_path: Path) -> None:
    home, cwd = tmp_path / "home", tmp_path / "work"
    path = attach.HOSTS[host].path(project, cwd, home)
    for stale in (home, cwd):  # hypothesis reuses tmp_path between examples
        for file in sorted(stale.rglob("*"), reverse=True) if stale.exists() else ():
            file.unlink() if file.is_file() else file.rmdir()
    if text is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))

    changes = attach.plan_attach(host, project=project, db=DB, cwd=cwd, home=home, command=MEMDESK)
    attach.apply(changes)
    written = path.read_text(encoding="utf-8")
    servers = _servers(host, written)
    ours = [v for v in servers.values() if MEMDESK in json.dumps(v)]
    assert len(ours) == 1, written
    assert (
        attach.plan_attach(host, project=project, db=DB, cwd=cwd, home=home, command=MEMDESK) == []
    )

    attach.apply(attach.plan_detach(host, project=project, cwd=cwd, home=home, command=MEMDESK))
    if text is None:
        assert not path.exists()
        assert path.parent in (home, cwd) or not path.parent.exists()
    else:
        assert path.read_bytes() == text.encode("utf-8")


def _servers(host: str, text: str) -> dict:
    if host == "codex":
        return tomllib.loads(text)["mcp_servers"]
    from memdesk.api import json_text

    return json_text.parse(text).value[attach.HOSTS[host].container[0]]


@pytest.mark.parametrize("host", sorted(set(attach.HOSTS) - {"codex"}))
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_json_hosts_attach_then_detach_is_byte_exact(host, data, tmp_path):
    container = attach.HOSTS[host].container[0]
    text = data.draw(st.one_of(st.none(), json_config(container, host in JSONC_HOSTS)))
    _round_trip(host, data.draw(st.booleans()), text, tmp_path)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=st.one_of(st.none(), st.just(""), toml_config()), project=st.booleans())
def test_codex_attach_then_detach_is_byte_exact(text, project, tmp_path):
    _round_trip("codex", project, text, tmp_path)


REAL = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize(
    ("host", "captured", "project"),
    [
        ("gemini-cli", "gemini-cli-0.61.0/settings.json", False),
        ("codex", "codex-0.169.0/config.toml", False),
        ("codex", "codex-0.169.0/config.trusted.toml", False),
        ("copilot-cli", "copilot-cli-1.0.102/config/mcp-config.json", False),
        ("copilot-cli", "copilot-cli-1.0.102/config/workspace.github-mcp.json", True),
    ],
)
def test_the_real_configs_the_hosts_wrote_come_back_byte_for_byte(
    host, captured, project, tmp_path
):
    """The files the real CLIs ran with in tests/data/ (their own servers, hooks, trust
    tables): attach then detach leaves each exactly as it was."""
    _round_trip(host, project, (REAL / captured).read_text(encoding="utf-8"), tmp_path)
