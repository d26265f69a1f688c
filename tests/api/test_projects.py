"""The project an agent works in, from its folder (api/projects.py)."""

from __future__ import annotations

import pytest

from memdesk.api.projects import project_of


def test_a_folder_inside_a_git_repository_is_that_repository(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    repo = tmp_path / "ledger-api"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "deep").mkdir(parents=True)
    assert project_of(repo / "src" / "deep") == "ledger-api"
    assert project_of(str(repo)) == "ledger-api"


def test_a_worktree_marks_its_root_with_a_git_file(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    tree = tmp_path / "feature-x"
    tree.mkdir()
    (tree / ".git").write_text("gitdir: /elsewhere/.git/worktrees/feature-x\n")
    assert project_of(tree) == "feature-x"


def test_outside_a_repository_the_folder_names_the_project(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "notes").mkdir()
    assert project_of(tmp_path / "notes") == "notes"
    assert project_of("/") is None
    assert project_of(None) is None
    (tmp_path / "home").mkdir()
    assert project_of(tmp_path / "home") is None  # the home folder is no project


@pytest.mark.parametrize("cwd", [None, "/nowhere", "relative/path"])
def test_the_environment_names_it_outright(cwd, monkeypatch):
    monkeypatch.setenv("MEMDESK_PROJECT", "payments")
    assert project_of(cwd) == "payments"
