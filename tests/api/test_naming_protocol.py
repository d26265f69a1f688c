"""Where the socket lives, and the strict line parser, without a server."""

from __future__ import annotations

import os
import stat

import pytest

from memdesk.api import naming, protocol
from memdesk.api.errors import RpcError


def test_socket_path_is_per_database_under_private_runtime_dir(tmp_path, monkeypatch):
    monkeypatch.delenv(naming.SOCKET_ENV, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    first = naming.socket_path(tmp_path / "a.db")
    assert first == naming.socket_path(tmp_path / "." / "a.db")  # resolved path decides
    assert first != naming.socket_path(tmp_path / "b.db")
    assert os.path.dirname(first) == str(tmp_path / "memdesk")
    naming.prepare_dir(first)
    assert stat.S_IMODE(os.stat(tmp_path / "memdesk").st_mode) == 0o700


def test_without_runtime_dir_the_data_folder_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.delenv(naming.SOCKET_ENV, raising=False)
    monkeypatch.setattr(naming.paths, "data_dir", lambda: tmp_path / "data")
    assert naming.socket_path(tmp_path / "a.db").startswith(str(tmp_path / "data" / "run"))


def test_private_dir_is_tightened_but_an_explicit_folder_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    loose = tmp_path / "memdesk"
    loose.mkdir(mode=0o755)
    loose.chmod(0o755)
    naming.prepare_dir(loose / "x.sock")
    assert stat.S_IMODE(loose.stat().st_mode) == 0o700
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    naming.prepare_dir(shared / "x.sock")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755


@pytest.mark.parametrize(
    "line",
    [b'{"a":1,"a":2}', b"[NaN]", b"[-Infinity]", b"[1e400]", b"\xc3\x28", b"[" * 33 + b"]" * 33],
)
def test_strict_decoding_rejects(line):
    with pytest.raises(RpcError):
        protocol.decode(line)


def test_depth_32_is_allowed():
    assert protocol.decode(b"[" * 32 + b"]" * 32)


def test_encode_keeps_output_valid_utf8_with_lone_surrogates():
    line = protocol.encode({"text": "a\ud800b"})
    assert line.decode("utf-8").endswith("\n")
    assert protocol.decode(line.strip()) == {"text": "a\ud800b"}


def test_notification_and_null_id_differ():
    note = protocol.parse_request({"jsonrpc": "2.0", "method": "m"})
    call = protocol.parse_request({"jsonrpc": "2.0", "method": "m", "id": None})
    assert note.is_notification
    assert not call.is_notification


def test_a_database_in_a_folder_named_in_another_encoding_has_a_socket(tmp_path):
    """`MEMDESK_DB=/…/caf\\xe9/memdesk.db` (Latin-1 bytes, a legal Linux path) made every
    command, `--help` too, end in a traceback."""
    import os

    from memdesk.api.naming import socket_name

    folder = tmp_path / os.fsdecode(b"caf\xe9")
    assert socket_name(folder / "memdesk.db").endswith(".sock")
    # a path in UTF-8 keeps the name a running server already listens on
    from hashlib import sha256

    utf8 = (tmp_path / "café.db").resolve()
    assert socket_name(utf8) == f"memdesk-{sha256(str(utf8).encode()).hexdigest()[:16]}.sock"
