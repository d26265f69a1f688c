"""The `memdesk` CLI while `memdesk serve` owns the database: every command goes through the
socket as the user's own tool, and errors stay one line."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from memdesk import cli_output
from memdesk.api import client as rpc
from memdesk.api.client import Client, MemdeskError
from memdesk.api.remote import RemoteService


@pytest.fixture
def running(serve, sock_path, monkeypatch):
    """`memdesk serve` on the test database; the CLI finds it through MEMDESK_SOCKET."""
    monkeypatch.setenv("MEMDESK_SOCKET", sock_path)
    server = serve()
    assert server.first_line == f"listening on {sock_path}"
    return server


@pytest.fixture
def watcher(running, sock_path):
    """A client subscribed to the server's change events: proof the server made the write."""
    with Client(socket_path=sock_path, agent="watcher", timeout=10) as client:
        client.subscribe()
        yield client


def _one_line_error(code: int, out: str, err: str, exit_code: int) -> str:
    assert (code, out) == (exit_code, "")
    assert err.startswith("memdesk: error: ")
    assert err.count("\n") == 1
    assert err.endswith("\n")
    assert "Traceback" not in err
    return err


def test_the_cli_uses_the_server_that_owns_the_database(running, db_path):
    with cli_output.backend(db_path) as backend:
        assert isinstance(backend, RemoteService)
        assert backend.client.role == "user"


def test_every_command_works_through_the_running_server(run, run_json, watcher, tmp_path):
    added = run_json("add", "The staging server runs Debian 11", "--tag", "infra")
    event = watcher.next_event(timeout=5)
    assert (event["event"], event["id"], event["by"]) == ("created", added["id"], "user")
    assert (added["source"], added["layer"]) == ("user", "L1")

    archived = run_json("add", "Session: moved CI to the new runners", "--layer", "L2")
    assert (archived["layer"], archived["source"]) == ("L2", "user")

    hits = run_json("search", "staging debian")["hits"]
    assert [h["id"] for h in hits] == [added["id"]]
    assert run_json("show", added["id"][:8])["content"] == "The staging server runs Debian 11"

    edited = run_json("edit", added["id"], "--content", "The staging server runs Debian 12")
    assert edited["version"] == 2
    code, _out, err = run("edit", added["id"], "--content", "x", "--expected-version", "1")
    assert "version" in _one_line_error(code, _out, err, exit_code=4)

    corrected = run_json(
        "edit", added["id"], "--correct", "--content", "Staging runs Debian 13", "--reason", "moved"
    )
    assert corrected["supersedes"] == added["id"]
    listed = run_json("list", "--status", "all", "--kind", "fact", "--layer", "L1")
    assert {m["id"]: m["status"] for m in listed} == {
        added["id"]: "inactive",
        corrected["id"]: "active",
    }
    found = run_json("search", "staging", "--all")["hits"]
    assert {h["id"] for h in found} == {corrected["id"], added["id"]}
    assert [v["version"] for v in run_json("history", added["id"])] == [1, 2, 3]

    export = tmp_path / "all.json"
    assert run_json("export", "-o", str(export))["exported"] == str(export)
    assert added["id"] in export.read_text()

    assert run_json("rm", archived["id"])["status"] == "deleted"
    assert run_json("rm", archived["id"], "--purge") == {"purged": archived["id"]}
    with pytest.raises(MemdeskError) as gone:
        watcher.get(archived["id"])
    assert gone.value.type == "not_found"

    assert run_json("import", str(export), "--dry-run") == {
        "added": 1,
        "changed": 0,
        "changed_your_words": 0,
        "identity_lines": 0,
        "older": 0,
        "kept_private": 0,
        "unchanged": 2,
        "dry_run": True,
    }
    imported = run_json("import", str(export))
    assert imported == {
        "added": 1,
        "changed": 0,
        "changed_your_words": 0,
        "identity_lines": 0,
        "older": 0,
        "kept_private": 0,
        "unchanged": 2,
    }
    assert watcher.get(archived["id"])["layer"] == "L2"  # back, as the server sees it

    assert run_json("rm", corrected["id"])["status"] == "deleted"
    assert run_json("restore", corrected["id"])["status"] == "active"

    profile = run_json("identity", "--set", "I am Ana. Short answers please.")
    assert profile["size"] == len("I am Ana. Short answers please.")
    assert watcher.identity()["text"] == "I am Ana. Short answers please."
    assert run_json("identity")["text"] == profile["text"]

    stats = run_json("stats")
    assert stats["by_layer"] == {"L0": 1, "L1": 1, "L2": 1}  # active ones
    assert stats["by_status"] == {"active": 3, "inactive": 1}
    assert run_json("check", "--rebuild") == {"ok": True, "problems": []}

    code, out, err = run("stats")  # human output through the same path
    assert (code, err) == (0, "")
    assert "memories" in out


def test_an_unknown_id_is_a_one_line_error_with_the_servers_message(run, running):
    err = _one_line_error(*run("show", "deadbeef"), exit_code=3)
    assert "deadbeef" in err
    _one_line_error(*run("rm", "deadbeef", "--purge"), exit_code=3)


def test_a_text_past_what_the_server_reads_is_refused_as_too_large_not_a_lost_server(
    run, run_json, running
):
    """A tryout (stop 86): through `serve`, a 1.5 MB `add` said "memdesk closed the
    connection" (exit 5, unavailable); without it, "content is … bytes; the limit is …"."""
    err = _one_line_error(*run("add", "y" * 1_500_000), exit_code=4)
    assert "memdesk reads at most 1,048,576" in err
    assert run_json("add", "the connection goes on")["content"] == "the connection goes on"


def test_purging_a_memory_not_in_the_trash_is_refused(run, run_json, running):
    memory = run_json("add", "kept")
    err = _one_line_error(*run("rm", memory["id"], "--purge"), exit_code=4)
    assert "Trash" in err
    assert run_json("show", memory["id"])["status"] == "active"


def test_an_agent_connection_still_may_not_write_l2_or_import(running, sock_path):
    with Client(socket_path=sock_path, agent="bot", timeout=10) as bot:
        with pytest.raises(MemdeskError) as refused:
            bot.add("an agent's archive entry", layer="L2")
        assert refused.value.type == "not_allowed"
        with Client(socket_path=sock_path, agent="cli", role="user", timeout=10) as user:
            export = user.export()
        # a plan is made against the whole store: it told an agent which hidden ids exist
        for dry_run in (True, False):
            with pytest.raises(MemdeskError) as refused:
                bot.call("import", text=export, dry_run=dry_run)
            assert refused.value.type == "not_allowed"
        memory = bot.add("an agent's note")
        assert (memory["source"], memory["agent"]) == ("agent", "bot")
    with Client(socket_path=sock_path, agent="cli", role="user", timeout=10) as user:
        assert user.add("the user's archive entry", layer="L2")["source"] == "user"


def test_hello_refuses_an_unknown_role_and_describe_lists_the_new_methods(running, sock_path):
    with pytest.raises(MemdeskError) as refused:
        Client(socket_path=sock_path, agent="bot", role="admin", timeout=10)
    assert refused.value.data["field"] == "role"
    with Client(socket_path=sock_path, timeout=10) as client:
        methods = client.describe()["methods"]
        assert "role" in methods["system.hello"]["params"]
        for name in ("memory.purge", "memory.revert", "memory.empty_trash", "import"):
            assert name in methods
        with pytest.raises(MemdeskError) as refused:  # the slowest call an agent could loop on
            client.call("system.check", rebuild=True)
        assert "only the person" in refused.value.message
        memory = client.add("first wording")
        client.update(memory["id"], content="second wording")
        assert client.revert(memory["id"], 1)["content"] == "first wording"
        client.remove(memory["id"])
        with pytest.raises(MemdeskError, match="only the person may empty the Trash"):
            client.empty_trash()  # an agent's connection
    with Client(socket_path=sock_path, agent="cli", role="user", timeout=10) as person:
        assert person.empty_trash() == 1


def test_the_persons_cli_gets_in_when_an_idle_agent_holds_the_last_connection(
    qtbot, service, monkeypatch
):
    from memdesk.api import client as client_module
    from memdesk.api import naming, owner
    from memdesk.api.connection import Limits
    from memdesk.api.server import SocketServer

    path = naming.socket_path(service.path)
    server = SocketServer(service, path, limits=Limits(max_connections=1))
    server.listen()
    pool = ThreadPoolExecutor(max_workers=2)
    try:
        holder = pool.submit(lambda: client_module.Client(socket_path=path, agent="holder"))
        qtbot.waitUntil(holder.done, timeout=5000)
        attempt = pool.submit(owner.connect_if_running, service.path, "cli", "user")
        qtbot.waitUntil(attempt.done, timeout=10_000)
        person = attempt.result()
        pinged = pool.submit(person.ping)
        qtbot.waitUntil(pinged.done, timeout=10_000)
        assert pinged.result() == "pong"
        assert server.client_count == 1  # the idle agent made room (and may reconnect)
        person.close()
        holder.result().close()
    finally:
        pool.shutdown(wait=False)
        server.close()


def test_backup_and_restore_go_through_the_running_owner(run, run_json, watcher, sock_path):
    kept = run_json("add", "Staging runs Debian 12")
    watcher.next_event(timeout=5)
    taken = run_json("backup")
    run_json("rm", kept["id"])
    watcher.next_event(timeout=5)

    restored = run_json("restore-backup", taken["name"])

    assert restored["memories"] == 1
    event = watcher.next_event(timeout=5)
    assert (event["event"], event["by"]) == ("reset", "user")
    assert run_json("show", kept["id"])["status"] == "active"
    # The server's own daily backup was taken at its start, before the person's.
    listed = run_json("backup", "--list")
    assert sorted(b["kind"] for b in listed) == ["auto", "before-restore", "manual"]
    # Agents may neither list, take nor restore one.
    with Client(socket_path=sock_path, agent="claude-code", timeout=10) as agent_client:
        for method, params in (
            ("system.backups", {}),
            ("system.backup", {}),
            ("system.restore_backup", taken),
        ):
            params = {"name": params["name"]} if params else {}
            with pytest.raises(MemdeskError) as refused:
                agent_client.call(method, **params)
            assert refused.value.code == -32005


def test_sync_goes_through_the_running_owner_and_is_the_persons_alone(
    run_json, watcher, sock_path, tmp_path
):
    run_json("add", "The wiki moved to Outline")
    watcher.next_event(timeout=5)
    remote = tmp_path / "memories.git"
    assert run_json("sync", "init", str(remote))["remotes"][0]["url"] == str(remote)
    assert run_json("sync")["remotes"][0]["sent"] == 1
    assert run_json("sync", "status")["remotes"][0]["last"]["ok"]
    with Client(socket_path=sock_path, agent="claude-code", timeout=10) as agent_client:
        for method in ("sync.run", "sync.status"):
            with pytest.raises(MemdeskError) as refused:
                agent_client.call(method)
            assert refused.value.code == -32005
        with pytest.raises(MemdeskError):
            agent_client.call("sync.init", url=str(tmp_path / "agent.git"))
    assert not (tmp_path / "agent.git").exists()


def test_a_relative_remote_is_read_from_the_persons_folder_not_the_servers(
    serve, run_json, sock_path, tmp_path, monkeypatch
):
    """A server started by a hook has the agent's repository for its folder: `sync init
    backup.git` typed in the person's home made the person's synced memories there."""
    theirs, mine = tmp_path / "agents-repo", tmp_path / "home"
    theirs.mkdir()
    mine.mkdir()
    monkeypatch.setenv("MEMDESK_SOCKET", sock_path)
    serve(cwd=theirs)
    monkeypatch.chdir(mine)

    made = run_json("sync", "init", "backup.git")

    assert made["remotes"][0]["url"] == str(mine / "backup.git")
    assert (mine / "backup.git").is_dir()
    assert list(theirs.iterdir()) == []


def test_a_relative_remote_sent_to_the_server_is_refused(serve, sock_path, tmp_path):
    serve(cwd=tmp_path)
    with (
        Client(socket_path=sock_path, agent="cli", role="user", timeout=10) as person,
        pytest.raises(MemdeskError) as refused,
    ):
        person.call("sync.init", url="backup.git")
    assert refused.value.code == -32602
    assert "full path" in refused.value.message
    assert not (tmp_path / "backup.git").exists()


def test_a_long_sync_through_the_socket_keeps_others_served(server, pump, service, monkeypatch):
    """A sync is seconds of git: it runs off the server's thread, and its caller's answer
    comes when it ends while every other client is answered meanwhile."""
    release = threading.Event()

    def slow_sync(remote=None, *, actor, on_step=None):
        release.wait(10)
        return {"remotes": [{"remote": "origin", "sent": 3}]}

    monkeypatch.setattr(service, "sync", slow_sync)
    person = pump.run(
        lambda: Client(socket_path=server.socket_path, agent="cli", role="user", timeout=10)
    )
    other = pump.run(lambda: Client(socket_path=server.socket_path, agent="claude", timeout=10))
    syncing = pump.pool.submit(person.call, "sync.run")
    started = time.monotonic()
    assert pump.run(other.call, "system.ping") == "pong"
    assert time.monotonic() - started < 2
    assert not syncing.done()
    release.set()
    pump.qtbot.waitUntil(syncing.done, timeout=10_000)
    assert syncing.result()["remotes"][0]["sent"] == 3
    assert pump.run(person.call, "system.ping") == "pong"  # its connection reads on after
    person.close()
    other.close()


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (rpc.ServerUnavailable("memdesk did not answer memory.add within 30 s"), "unavailable"),
        (rpc.OutcomeUnknown("memory.add"), "outcome_unknown"),
        (rpc.MemdeskError(-32006, "busy", {"type": "busy"}), "busy"),
        # a full disk through the server exited 2, "usage"
        (rpc.MemdeskError(-32007, "disk full: …", {"type": "storage"}), "storage"),
    ],
)
def test_a_server_that_is_busy_or_silent_exits_5_not_usage(monkeypatch, run, error, code):
    from memdesk.api import remote

    class Silent(RemoteService):
        def __init__(self) -> None:
            pass

        def close(self) -> None:
            pass

        def _call(self, method, **params):
            raise remote.as_service_error(error)

    assert remote.as_service_error(error).code == code
    monkeypatch.setattr(cli_output, "backend", lambda db: Silent())
    assert run("add", "Staging runs Debian 12")[0] == 5


def test_a_db_the_server_on_memdesk_socket_does_not_serve_is_refused_not_written_there(
    run, run_json, running, tmp_path
):
    """With MEMDESK_SOCKET set, `--db scratch.db rm ID` removed a memory of the served store."""
    rule = run_json("add", "never deploy on Fridays")
    scratch = tmp_path / "scratch.db"
    for args in (("add", "meant for the scratch copy"), ("rm", rule["id"])):
        err = _one_line_error(*run(*args, db=scratch), exit_code=2)
        assert "serves" in err
        assert "MEMDESK_SOCKET" in err
    assert run_json("show", rule["id"])["status"] == "active"
    assert [m["content"] for m in run_json("list")] == ["never deploy on Fridays"]
