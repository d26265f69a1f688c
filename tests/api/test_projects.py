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


def _repository(folder, origin: str | None = None):
    (folder / ".git").mkdir(parents=True)
    if origin:
        (folder / ".git" / "config").write_text(f'[remote "origin"]\n\turl = {origin}\n')
    return folder


def test_two_unrelated_repositories_of_one_name_are_two_projects(tmp_path, monkeypatch):
    """A red team's fact about a client's staging server, said in clientX/api, reached the
    briefing of an unrelated oss/api: both were project "api"."""
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    client = _repository(tmp_path / "clientX" / "api", "git@corp:clientX/api.git")
    oss = _repository(tmp_path / "oss" / "api", "https://example.org/oss/api.git")
    assert project_of(client / "src") == "api"
    assert project_of(oss) == "oss/api"
    assert project_of(client) == "api"  # each keeps its name
    assert project_of(oss / "docs") == "oss/api"


def test_a_clone_of_the_same_repository_or_a_moved_one_keeps_the_name(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    first = _repository(tmp_path / "work" / "api", "git@corp:team/api.git")
    clone = _repository(tmp_path / "scratch" / "api", "git@corp:team/api.git")
    assert project_of(first) == project_of(clone) == "api"
    moved = tmp_path / "elsewhere" / "api"
    moved.parent.mkdir()
    first.rename(moved)
    clone.rename(tmp_path / "scratch" / "gone")
    assert project_of(moved) == "api"


def test_a_worktree_of_the_persons_repository_is_that_repositorys_project(tmp_path, monkeypatch):
    """A red team's session in a git worktree (Claude Code's `.claude/worktrees/<name>`) was
    a project of its own: none of the person's rules for the repository were briefed."""
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    repo = _repository(tmp_path / "shop")
    (repo / ".git" / "worktrees" / "fix-cart").mkdir(parents=True)
    tree = repo / ".claude" / "worktrees" / "fix-cart"
    tree.mkdir(parents=True)
    (tree / ".git").write_text(f"gitdir: {repo / '.git' / 'worktrees' / 'fix-cart'}\n")
    assert project_of(repo) == project_of(tree) == "shop"


@pytest.mark.parametrize("spelt", ["api ", "\u00a0api", "api\u3000"])
def test_a_folder_named_like_a_project_with_a_space_more_is_not_that_project(
    tmp_path, monkeypatch, spelt
):
    """A red team's unrelated repository named "api " (a trailing space) was taken for a new
    name, then stripped by the server to "api": it was briefed that project's memories."""
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    first = _repository(tmp_path / "work" / "api", "git@corp:team/api.git")
    other = _repository(tmp_path / "elsewhere" / spelt)
    assert project_of(first) == "api"
    assert project_of(other) == "elsewhere/api"
