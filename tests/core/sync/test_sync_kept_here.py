"""What a machine chose not to share is told apart from what it refused: a tryout's laptop said
"refused 2 file(s)" at every sync for a private memory and a project under `sync local`, the
word it uses for forged and broken files (sync tryout, stop 91, #4)."""

from __future__ import annotations

import json


def test_changes_to_what_this_machine_keeps_to_itself_are_counted_apart_not_refused(run, tmp_path):
    remote = tmp_path / "own.git"
    laptop, desktop = tmp_path / "laptop.db", tmp_path / "desktop.db"
    run("sync", "init", str(remote), "--as", "ada@laptop", db=laptop)
    run("add", "staging DB is read-only on Fridays", db=laptop)
    run("add", "api uses port 8080", "--project", "api", db=laptop)
    run("sync", db=laptop)
    run("sync", "init", str(remote), "--as", "ada@desktop", db=desktop)
    run("sync", db=desktop)
    ids = {m["content"]: m["id"] for m in json.loads(run("list", "--json", db=laptop)[1])}
    private, local = ids["staging DB is read-only on Fridays"], ids["api uses port 8080"]
    run("edit", private, "--visibility", "private", db=laptop)
    run("sync", "local", "api", db=laptop)
    run("edit", private, "--content", "staging DB is read-only on Mondays", db=desktop)
    run("edit", local, "--content", "api uses port 8081", db=desktop)
    run("sync", db=desktop)

    for _ in range(2):  # the first sync that meets the changes, and a quiet one after it
        code, out, _ = run("sync", db=laptop)
        assert code == 0
        assert out.strip() == "origin: sent 0, took 0, kept here 2 (not shared from this machine)"
    code, out, _ = run("sync", "--json", db=laptop)
    [result] = json.loads(out)["remotes"]
    assert result["refused"] == []
    kept = "\n".join(result["kept_here"])
    assert f"{private}: memories/" in kept
    assert "private here: not applied" in kept
    assert "api is kept on this machine only (sync local): not applied" in kept
    assert set(result["held"]) == set(result["unshared"]) == {private, local}
    code, out, _ = run("sync", "status", db=laptop)
    assert "kept here 2" in out
    assert "refused" not in out
