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
    (client / "src").mkdir()
    (oss / "docs").mkdir()
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
    (repo / ".git" / "worktrees" / "fix-cart" / "gitdir").write_text(f"{tree / '.git'}\n")
    assert project_of(repo) == project_of(tree) == "shop"


@pytest.mark.parametrize("back", [None, "elsewhere"])
def test_a_folder_claiming_a_worktree_the_repository_does_not_name_is_its_own(
    tmp_path, monkeypatch, back
):
    """Red team 3 (stop 66): a folder from an archive, its one-line .git naming the private
    payroll repository's worktree, got that project's briefing."""
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    repo = _repository(tmp_path / "payroll")
    link = repo / ".git" / "worktrees" / "x"
    link.mkdir(parents=True)
    if back:
        (link / "gitdir").write_text(f"{tmp_path / back / '.git'}\n")
    downloaded = tmp_path / "downloads" / "tool"
    downloaded.mkdir(parents=True)
    (downloaded / ".git").write_text("gitdir: ../../payroll/.git/worktrees/x\n")
    assert project_of(repo) == "payroll"
    assert project_of(downloaded) == "tool"


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


def _registry(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMDESK_PROJECT", raising=False)
    registry = tmp_path / "data" / "projects.json"
    monkeypatch.setenv("MEMDESK_PROJECTS_FILE", str(registry))
    return registry


def test_what_is_no_folder_is_no_project_and_is_never_written_down(tmp_path, monkeypatch):
    """A red team's hooks named /etc/passwd, /proc/self/fd/0 (the hook's own stdin file) and
    a 960 KB path as their folders: each was written into the registry as a project."""
    registry = _registry(tmp_path, monkeypatch)
    (tmp_path / "notes.txt").write_text("a file, not a folder")
    for cwd in [tmp_path / "notes.txt", "/proc/self/fd/0", "/x" * 480_000]:
        assert project_of(cwd) is None
    assert project_of(tmp_path / "gone") == "gone"  # named, not written down
    assert not registry.exists()


def test_a_registry_that_cannot_be_read_is_never_taken_for_an_empty_one(tmp_path, monkeypatch):
    """Past 4 MiB the registry was read as empty and rewritten with one entry: an unrelated
    repository of the same folder name then took the person's project and its memories."""
    registry = _registry(tmp_path, monkeypatch)
    mine = _repository(tmp_path / "person" / "billing", "git@corp:person/billing.git")
    assert project_of(mine) == "billing"
    registry.write_text(registry.read_text()[:-1] + ', "pad": "' + "x" * 5_000_000 + '"}')
    kept = registry.read_bytes()
    stranger = _repository(tmp_path / "stranger" / "billing", "git@evil:x/billing.git")
    assert project_of(stranger) not in ("billing", None)
    assert registry.read_bytes() == kept  # left as it was, the person's entry in it


def test_sessions_starting_at_once_never_share_a_name(tmp_path, monkeypatch):
    """Two SessionStarts at the same moment in two unrelated `api` repositories both got
    "api": each read the registry before the other wrote it."""
    import threading

    _registry(tmp_path, monkeypatch)
    roots = [_repository(tmp_path / f"r{n}" / "api", f"git@host:r{n}/api.git") for n in range(8)]
    names: dict[int, str | None] = {}
    start = threading.Barrier(len(roots))

    def name(n: int) -> None:
        start.wait()
        names[n] = project_of(roots[n])

    threads = [threading.Thread(target=name, args=(n,)) for n in range(len(roots))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(names.values())) == len(roots)
    assert [project_of(root) for root in roots] == [names[n] for n in range(len(roots))]


def test_a_folder_named_longer_than_a_project_may_be_still_has_one(tmp_path, monkeypatch):
    """A repository named with 250 characters had its session refused ("project is 250
    characters; at most 200"): its agent got none of the person's rules."""
    _registry(tmp_path, monkeypatch)
    root = _repository(tmp_path / ("r" * 250))
    name = project_of(root)
    assert name is not None
    assert len(name) <= 200
    assert project_of(root) == name


def test_the_registry_is_the_persons_to_read_only(tmp_path, monkeypatch):
    registry = _registry(tmp_path, monkeypatch)
    project_of(_repository(tmp_path / "api"))
    assert registry.stat().st_mode & 0o077 == 0
    # the folder a hook makes first, as the database does (a tryout found it 0755)
    monkeypatch.delenv("MEMDESK_PROJECTS_FILE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    project_of(_repository(tmp_path / "web"))
    assert (tmp_path / "data" / "memdesk").stat().st_mode & 0o077 == 0
