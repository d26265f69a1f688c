"""File names a person can read on a git host: the text's first words, then the id, which
stays the key (a renamed file is the same memory)."""

from __future__ import annotations

import uuid

import pytest

from memdesk.core import ValidationError
from memdesk.core.sync.files import id_of_path, memory_path


def _paths(machines, memory_id: str) -> list[str]:
    return sorted(path for path in machines.tree() if memory_id in path)


def test_a_file_is_named_by_its_first_words_and_renamed_with_its_text(machines):
    memory = machines.run("a", lambda s: s.add("Staging lives at staging.example.com, port 5433."))
    machines.init("a", "b")
    machines.sync("a", "b")
    short = memory["id"][:2]
    assert _paths(machines, memory["id"]) == [
        f"memories/{short}/staging-lives-at-staging-example-com--{memory['id']}.md"
    ]
    machines.run("b", lambda s: s.update(memory["id"], content="Prod lives at prod.example.com."))
    machines.sync("b", "a")
    assert _paths(machines, memory["id"]) == [
        f"memories/{short}/prod-lives-at-prod-example-com--{memory['id']}.md"
    ]
    got = machines.run("a", lambda s: s.get(memory["id"]))
    assert (got["content"], got["version"]) == ("Prod lives at prod.example.com.", 2)
    assert machines.run("a", lambda s: s.stats()["total"]) == 1  # one memory, not two


def test_a_file_named_before_slugs_is_read_and_renamed_once_with_no_copy_left(machines):
    memory = machines.run("a", lambda s: s.add("Releases are cut on Thursdays."))
    machines.init("a", "b")
    machines.sync("a")
    (new_name,) = _paths(machines, memory["id"])
    text = machines.tree()[new_name]
    old_name = memory_path(memory["id"])
    # An older memdesk elsewhere wrote it again under the id alone: two files, one memory.
    machines.push_files({old_name: text.replace("Thursdays", "Fridays")})
    machines.sync("b")
    assert machines.run("b", lambda s: s.stats()["total"]) == 1
    machines.run("b", lambda s: s.update(memory["id"], content="Releases are cut on Mondays."))
    machines.sync("b")
    assert _paths(machines, memory["id"]) == [
        f"memories/{memory['id'][:2]}/releases-are-cut-on-mondays--{memory['id']}.md"
    ]


def test_names_that_are_not_a_slug_and_an_id_are_not_memories():
    memory_id = str(uuid.uuid4())
    assert id_of_path(f"memories/ab/{memory_id}.md") == memory_id
    assert id_of_path(f"memories/ab/use-pnpm--{memory_id}.md") == memory_id
    assert id_of_path(f"memories/ab/Use-PNPM--{memory_id}.md") is None
    assert id_of_path(f"memories/ab/a--b--{memory_id}.md") is None
    assert id_of_path(f"memories/ab/../{memory_id}.md") is None
    assert memory_path(memory_id, "Café crème, très bien") == (
        f"memories/{memory_id[:2]}/cafe-creme-tres-bien--{memory_id}.md"
    )
    assert memory_path(memory_id, "日本語のメモ") == f"memories/{memory_id[:2]}/{memory_id}.md"


def test_a_file_edited_by_hand_on_windows_is_taken(machines):
    """The remote's README invites editing a memory there: an editor on Windows saves CRLF
    line ends and a byte order mark; the file was refused as not starting with ---."""
    memory = machines.run("a", lambda s: s.add("Releases are cut on Thursdays."))
    machines.init("a", "b")
    machines.sync("a")
    (name,) = _paths(machines, memory["id"])
    text = machines.tree()[name].replace("Thursdays", "Fridays").replace("version: 1", "version: 2")
    machines.push_files({name: "\ufeff" + text.replace("\n", "\r\n")})
    result = machines.sync("a")[0]
    assert result["refused"] == []
    # in this machine's name, words it never wrote: the person says whether they edited it
    [asked] = [i for i in machines.run("a", lambda s: s.inbox()) if i["type"] == "sync_disagree"]
    assert "this machine never wrote these words: edited there by hand" in asked["why"]
    machines.run("a", lambda s: s.accept([asked["key"]]))
    assert machines.run("a", lambda s: s.get(memory["id"]))["content"] == (
        "Releases are cut on Fridays."
    )


def test_a_second_machine_taking_a_name_already_writing_to_the_remote_is_refused(machines):
    """A sync tryout: two machines set up `--as ada@laptop` each; later each refused the
    other's memories as an intruder's, in its own name."""
    machines.run("a", lambda s: s.add("Builds use make."))
    machines.init("a", writer="ada@laptop")
    machines.sync("a")
    with pytest.raises(ValidationError, match="ada@laptop already writes to .* each machine needs"):
        machines.run("b", lambda s: s.sync_init(str(machines.remote), writer="ada@laptop"))
    assert machines.run("b", lambda s: s.sync_status()["remotes"]) == []
    machines.init("b", writer="ada@desktop")  # a name of its own
    machines.run("a", lambda s: s.sync_remove("origin"))
    machines.init("a", writer="ada@laptop")  # set up again where its memories are: its own
