"""Both machines changed the same memory: the person decides, nothing is overwritten unasked,
and after the decision every machine holds the same."""

from __future__ import annotations

import io

import pytest


@pytest.fixture
def both_edited(machines):
    """A memory both machines edited differently since their last sync; b synced first."""
    memory = machines.run("a", lambda s: s.add("Releases go out on Tuesdays."))
    machines.init("a", "b")
    machines.sync("a", "b")
    machines.run("a", lambda s: s.update(memory["id"], content="Releases go out on Mondays."))
    machines.run("b", lambda s: s.update(memory["id"], content="Releases go out on Thursdays."))
    machines.sync("b")
    result = machines.sync("a")[0]
    assert result["conflicts"] == 1
    return memory["id"]


def _content(machines, name, memory_id):
    return machines.run(name, lambda s: s.get(memory_id)["content"])


def _sync_item(machines, name):
    items = [i for i in machines.run(name, lambda s: s.inbox()) if i["type"].startswith("sync_")]
    assert len(items) == 1
    return items[0]


def test_two_machines_disagreeing_ask_the_person_and_keep_both_versions(machines, both_edited):
    item = _sync_item(machines, "a")
    assert item["type"] == "sync_disagree"
    assert item["content"] == "Releases go out on Thursdays."  # the other machine's
    assert "[-Mondays.-] {+Thursdays.+}" in item["why"]
    # Until decided, neither side overwrites the other, however often they sync.
    machines.sync("a", "b", "a", "b")
    assert _content(machines, "a", both_edited) == "Releases go out on Mondays."
    assert _content(machines, "b", both_edited) == "Releases go out on Thursdays."
    assert len([i for i in machines.run("a", lambda s: s.inbox()) if i["type"] != "extract"]) == 1


def test_accepting_takes_the_other_version_everywhere(machines, both_edited):
    key = _sync_item(machines, "a")["key"]
    machines.run("a", lambda s: s.accept([key]))
    machines.sync("a", "b")
    assert _content(machines, "a", both_edited) == "Releases go out on Thursdays."
    assert machines.shared("a") == machines.shared("b")


def test_rejecting_keeps_this_version_and_sends_it(machines, both_edited):
    key = _sync_item(machines, "a")["key"]
    machines.run("a", lambda s: s.reject([key]))
    machines.sync("a", "b")
    assert _content(machines, "b", both_edited) == "Releases go out on Mondays."
    assert machines.shared("a") == machines.shared("b")


def test_accepting_with_new_words_sends_them(machines, both_edited):
    key = _sync_item(machines, "a")["key"]
    machines.run("a", lambda s: s.accept([key], content="Releases go out on Wednesdays."))
    machines.sync("a", "b")
    assert _content(machines, "b", both_edited) == "Releases go out on Wednesdays."


def test_the_same_edit_on_both_machines_is_no_conflict(machines):
    memory = machines.run("a", lambda s: s.add("The linter is ruff."))
    machines.init("a", "b")
    machines.sync("a", "b")
    for name in ("a", "b"):
        machines.run(name, lambda s: s.update(memory["id"], content="The linter is ruff 0.8."))
    results = machines.sync("a", "b", "a")
    assert [r["conflicts"] for r in results] == [0, 0, 0]
    assert machines.shared("a") == machines.shared("b")


def test_deleted_there_edited_here_keeps_the_edit_and_asks(machines):
    memory = machines.run("a", lambda s: s.add("CI runs on GitHub Actions."))
    machines.init("a", "b")
    machines.sync("a", "b")
    machines.run("b", lambda s: s.remove(memory["id"]))
    machines.run("a", lambda s: s.update(memory["id"], content="CI runs on Buildkite."))
    machines.sync("b", "a", "b")
    for name in ("a", "b"):
        got = machines.run(name, lambda s: s.get(memory["id"]))
        assert (got["status"], got["content"]) == ("active", "CI runs on Buildkite.")
    # The machine that found the clash asks, once.
    asked = _sync_item(machines, "a")
    assert asked["type"] == "sync_deleted_there"
    assert not [i for i in machines.run("b", lambda s: s.inbox()) if i["type"] != "extract"]
    # The person still wants it gone: deleted everywhere (in each Trash) after the syncs.
    machines.run("a", lambda s: s.accept([asked["key"]]))
    machines.sync("a", "b")
    assert machines.run("b", lambda s: s.get(memory["id"])["status"]) == "deleted"


def test_deleted_here_edited_there_brings_the_edit_back_and_asks(machines):
    memory = machines.run("a", lambda s: s.add("CI runs on GitHub Actions."))
    machines.init("a", "b")
    machines.sync("a", "b")
    machines.run("b", lambda s: s.update(memory["id"], content="CI runs on Buildkite."))
    machines.run("a", lambda s: s.remove(memory["id"]))
    machines.sync("b", "a")
    got = machines.run("a", lambda s: s.get(memory["id"]))
    assert (got["status"], got["content"]) == ("active", "CI runs on Buildkite.")
    asked = _sync_item(machines, "a")
    assert asked["type"] == "sync_deleted_here"
    machines.run("a", lambda s: s.reject([asked["key"]]))
    machines.sync("a", "b")
    assert machines.shared("a") == machines.shared("b")


def test_replaced_here_reworded_there_asks_and_loses_no_words(machines):
    """A red team corrected a memory on one machine while the other reworded it: merged field
    by field, the new words sat in the retired memory, reaching no one, and nobody was asked."""
    memory = machines.run("a", lambda s: s.add("CI runs on GitHub Actions."))
    machines.init("a", "b")
    machines.sync("a", "b")
    machines.run("b", lambda s: s.update(memory["id"], content="CI runs on Buildkite."))
    machines.run("a", lambda s: s.correct(memory["id"], "CI runs on Jenkins."))
    machines.sync("b", "a")
    asked = _sync_item(machines, "a")
    assert asked["type"] == "sync_disagree"
    assert "CI runs on Buildkite." in str(asked)
    machines.sync("a", "b")
    for machine in ("a", "b"):  # the correction stands meanwhile, on both
        texts = machines.run(machine, lambda s: [m["content"] for m in s.list_memories()])
        assert "CI runs on Jenkins." in texts


def test_a_sync_is_one_step_that_undo_takes_back_exactly(machines):
    memory = machines.run("a", lambda s: s.add("Docs live in docs/."))
    machines.init("a", "b")
    machines.sync("a", "b")
    added = machines.run("a", lambda s: s.add("The changelog is CHANGELOG.md."))
    machines.run("a", lambda s: s.update(memory["id"], content="Docs live in site/."))
    machines.sync("a")
    before = machines.shared("b")
    steps = []
    machines.run("b", lambda s: s.sync(on_step=steps.append))
    assert len(steps) == 1
    assert set(steps[0].ids) == {memory["id"], added["id"]}
    machines.run("b", lambda s: s.apply_step(steps[0], undo=True))
    after_undo = machines.shared("b")
    assert after_undo[memory["id"]]["content"] == before[memory["id"]]["content"]
    assert added["id"] not in after_undo


@pytest.mark.parametrize("stop", ["private", "kept local"])
def test_what_this_machine_stopped_sharing_is_never_changed_by_a_sync(machines, stop):
    """#34 item 1: a memory this machine no longer shares was overwritten by another
    machine's edit, its version going backwards (3 -> 2) and no one asked."""
    memory = machines.run("a", lambda s: s.add("Staging is at db-2.internal", project="shop"))
    machines.init("a", "b")
    machines.sync("a", "b")

    def stop_sharing(s):
        s.update(memory["id"], content="Staging is at db-3.internal")
        if stop == "private":
            s.update(memory["id"], visibility="private")
        else:
            s.sync_local("shop")
        return s.get(memory["id"])

    before = machines.run("a", stop_sharing)
    machines.run("b", lambda s: s.update(memory["id"], content="Staging is at db-9.internal"))
    machines.sync("b")
    result = machines.sync("a")[0]
    after = machines.run("a", lambda s: s.get(memory["id"]))
    assert (after["content"], after["version"]) == (before["content"], before["version"])
    assert any(memory["id"] in line for line in result["kept_here"])  # and it says why
    assert result["refused"] == []  # the person's choice, not a file that failed a check


@pytest.mark.parametrize("stop", ["private", "kept local"])
def test_a_memory_shared_again_is_compared_afresh_not_held_for_good(machines, stop):
    """Kept here while another machine edited it, then shared again: every sync said "sent
    0, took 0", neither side's edits went anywhere, and no one was asked."""
    memory = machines.run("a", lambda s: s.add("Staging is at db-2.internal", project="shop"))
    machines.init("a", "b")
    machines.sync("a", "b")

    def stop_sharing(s):
        if stop == "private":
            s.update(memory["id"], visibility="private")
        else:
            s.sync_local("shop")

    def share_again(s):
        if stop == "private":
            s.update(memory["id"], visibility="shared")
        else:
            s.sync_local("shop", local=False)
        s.update(memory["id"], content="Staging is at db-3.internal")

    machines.run("a", stop_sharing)
    machines.run("b", lambda s: s.update(memory["id"], content="Staging is at db-9.internal"))
    machines.sync("b", "a")
    machines.run("a", share_again)
    result = machines.sync("a")[0]
    assert memory["id"] not in result["held"]
    asked = [i for i in machines.run("a", lambda s: s.inbox()) if i["type"] == "sync_disagree"]
    assert [i["memories"][0]["id"] for i in asked] == [memory["id"]]
    assert "this memory changed here and on origin" in asked[0]["why"]  # it did


@pytest.mark.parametrize("stop", ["private", "kept local"])
def test_a_memory_shared_again_unchanged_here_is_not_asked_as_changed_here(machines, stop):
    """A sync tryout: made private, then shared again as it was, while another machine
    edited it; the Inbox said it "changed here and on origin", which it had not."""
    memory = machines.run("a", lambda s: s.add("Staging is at db-2.internal", project="shop"))
    machines.init("a", "b")
    machines.sync("a", "b")
    machines.run("b", lambda s: s.update(memory["id"], tags=["staging"]))
    machines.sync("b", "a")  # what both last agreed on is the second version

    def keep_here(s, shared=False):
        if stop == "private":
            s.update(memory["id"], visibility="shared" if shared else "private")
        else:
            s.sync_local("shop", local=not shared)

    machines.run("a", keep_here)
    machines.run("b", lambda s: s.update(memory["id"], content="Staging is at db-9.internal"))
    machines.sync("b", "a")
    machines.run("a", lambda s: keep_here(s, shared=True))
    assert machines.sync("a")[0]["conflicts"] == 1

    [asked] = [i for i in machines.run("a", lambda s: s.inbox()) if i["type"] == "sync_disagree"]
    assert "this memory changed here" not in asked["why"]
    assert "while this machine did not share it there" in asked["why"]
    assert "shared again now, it is unchanged here" in asked["why"]
    assert "[-db-2.internal-] {+db-9.internal+}" in asked["why"]
    # asked again with newer words from there: still what happened
    machines.run("b", lambda s: s.update(memory["id"], content="Staging is at db-10.internal"))
    machines.sync("b", "a")
    [asked] = [i for i in machines.run("a", lambda s: s.inbox()) if i["type"] == "sync_disagree"]
    assert "[-db-2.internal-] {+db-10.internal+}" in asked["why"]
    assert "shared again now, it is unchanged here" in asked["why"]


def test_different_fields_changed_on_each_side_merge_without_asking(machines):
    """#34: tags changed on one machine and the text on the other conflicted as a whole
    memory."""
    memory = machines.run("a", lambda s: s.add("Releases go out on Tuesdays.", tags=["ops"]))
    machines.init("a", "b")
    machines.sync("a", "b")
    machines.run("a", lambda s: s.update(memory["id"], tags=["ops", "release"]))
    machines.run("b", lambda s: s.update(memory["id"], content="Releases go out on Thursdays."))
    machines.sync("b")
    result = machines.sync("a")[0]
    assert result["conflicts"] == 0
    machines.sync("b", "a")
    for name in ("a", "b"):
        merged = machines.run(name, lambda s: s.get(memory["id"]))
        assert merged["content"] == "Releases go out on Thursdays."
        assert merged["tags"] == ["ops", "release"]
        assert not [i for i in machines.run(name, lambda s: s.inbox()) if i["type"] != "extract"]
    assert machines.shared("a") == machines.shared("b")
    history = machines.run("a", lambda s: s.history(memory["id"]))
    assert len(history) >= 3  # the merge is a version of its own, the earlier ones kept


@pytest.mark.parametrize("answer", ["reject", "accept"])
def test_a_third_machines_other_field_survives_whatever_the_person_decides(machines, answer):
    """A changed the text, C the tags, B the text: B's person kept B's words, and C's tags
    were lost on every machine (taken nowhere while the question waited)."""
    memory = machines.run("a", lambda s: s.add("Use bun for JS.", tags=["js"]))
    machines.init("a", "b", "c")
    machines.sync("a", "b", "c")
    machines.run("a", lambda s: s.update(memory["id"], content="Use pnpm 9 for JS."))
    machines.sync("a")
    machines.run("c", lambda s: s.update(memory["id"], tags=["js", "pkg"]))
    machines.sync("c")
    machines.run("b", lambda s: s.update(memory["id"], content="Use bun 1.2 for JS."))
    assert machines.sync("b")[0]["conflicts"] == 1
    assert machines.run("b", lambda s: s.get(memory["id"]))["tags"] == ["js", "pkg"]
    item = _sync_item(machines, "b")
    assert "tags" not in item["why"]  # asked only of what disagrees
    machines.run("b", lambda s: getattr(s, answer)([item["key"]]))
    machines.sync("b", "a", "c", "b")
    words = "Use bun 1.2 for JS." if answer == "reject" else "Use pnpm 9 for JS."
    for name in ("a", "b", "c"):
        now = machines.run(name, lambda s: s.get(memory["id"]))
        assert (now["content"], now["tags"]) == (words, ["js", "pkg"])
    versions = [v["version"] for v in machines.run("b", lambda s: s.history(memory["id"]))]
    assert versions == sorted(set(versions))  # never back to an earlier number


def test_what_another_machine_changes_while_the_question_waits_reaches_every_machine(machines):
    """A red team's third machine changed the tags and a fourth the importance while the
    person had yet to decide the words: nothing came while the question waited, and keeping
    this machine's words dropped the tags everywhere."""
    memory = machines.run("a", lambda s: s.add("Releases leave on Tuesday.", tags=["release"]))
    machines.init("a", "b", "c", "d")
    machines.sync("a", "b", "c", "d")
    machines.run("a", lambda s: s.update(memory["id"], content="Releases leave on Wednesday."))
    machines.run("b", lambda s: s.update(memory["id"], content="Releases leave on Thursday."))
    machines.sync("a")
    assert machines.sync("b")[0]["conflicts"] == 1
    machines.sync("c")
    machines.run("c", lambda s: s.update(memory["id"], tags=["release", "calendar"]))
    machines.sync("c", "d")
    machines.run("d", lambda s: s.update(memory["id"], importance=0.9))
    machines.sync("d", "b")
    waiting = machines.run("b", lambda s: s.get(memory["id"]))
    assert (waiting["tags"], waiting["importance"]) == (["release", "calendar"], 0.9)
    key = _sync_item(machines, "b")["key"]
    machines.run("b", lambda s: s.reject([key]))
    for _ in range(2):
        machines.sync("b", "a", "c", "d")
    for name in "abcd":
        now = machines.run(name, lambda s: s.get(memory["id"]))
        assert (now["content"], now["tags"], now["importance"]) == (
            "Releases leave on Thursday.",
            ["release", "calendar"],
            0.9,
        )
        versions = [v["version"] for v in machines.run(name, lambda s: s.history(memory["id"]))]
        assert versions == sorted(set(versions))


def test_a_merge_goes_out_in_the_name_of_whoever_wrote_its_words(machines):
    """A teammate reworded the person's rule while the person changed its tags: merged, it
    went out to the team as the person's (their machine's name on the teammate's words),
    and the person's agents were given it unquoted as their own rule."""
    memory = machines.run("a", lambda s: s.add("Release on Thursdays.", project="acme"))
    machines.run("a", lambda s: s.sync_init(str(machines.remote), writer="ada@laptop"))
    machines.run("b", lambda s: s.sync_init(str(machines.remote), writer="bo@work"))
    machines.sync("a", "b")
    machines.run("b", lambda s: s.update(memory["id"], content="Release on Fridays."))
    machines.run("a", lambda s: s.update(memory["id"], tags=["release"]))
    machines.sync("b")
    assert machines.sync("a")[0]["conflicts"] == 0
    merged = machines.run("a", lambda s: s.get(memory["id"]))
    assert (merged["content"], merged["tags"]) == ("Release on Fridays.", ["release"])
    pushed = "".join(text for name, text in machines.tree().items() if memory["id"] in name)
    assert 'writer: "bo@work"' in pushed


def test_a_disagreement_shows_every_field_that_differs_with_both_values(machines):
    memory = machines.run("a", lambda s: s.add("Releases go out on Tuesdays.", tags=["ops"]))
    machines.init("a", "b")
    machines.sync("a", "b")
    machines.run("a", lambda s: s.update(memory["id"], tags=["ops", "release"]))
    machines.run("b", lambda s: s.update(memory["id"], tags=["ops", "friday"]))
    machines.sync("b")
    assert machines.sync("a")[0]["conflicts"] == 1
    why = _sync_item(machines, "a")["why"]
    assert "tags: [-ops, release-] {+ops, friday+}" in why  # it said only "also differs: tags"


def test_who_wrote_each_version_is_not_listed_as_a_field_that_differs(machines):
    memory = machines.run("a", lambda s: s.add("Releases go out on Tuesdays.", tags=["ops"]))
    machines.run("a", lambda s: s.sync_init(str(machines.remote), writer="ada@laptop"))
    machines.run("b", lambda s: s.sync_init(str(machines.remote), writer="ada@desktop"))
    machines.sync("a", "b")
    machines.run("a", lambda s: s.update(memory["id"], content="Releases go out on Mondays."))
    machines.run("b", lambda s: s.update(memory["id"], content="Releases go out on Fridays."))
    machines.sync("b")
    assert machines.sync("a")[0]["conflicts"] == 1
    why = _sync_item(machines, "a")["why"]
    assert "{+Fridays.+}" in why
    assert "writer:" not in why  # no field of the memory: who wrote it is said as such
    assert "The other version is by ada@desktop." in why


def test_a_restored_backup_takes_back_what_the_remote_holds_and_asks_about_the_rest(
    machines,
):
    """A red team restored a backup on one machine: the memory added since was neither taken
    back nor sent away, every sync said "sent 0, took 0", and the machines stayed different
    for good."""
    memory = machines.run("a", lambda s: s.add("Releases go out on Tuesdays."))
    machines.init("a", "b")
    machines.sync("a", "b")
    backup = machines.run("a", lambda s: s.backup()["name"])
    machines.run("a", lambda s: s.update(memory["id"], content="Releases go out on Mondays."))
    added = machines.run("a", lambda s: s.add("The changelog lives in CHANGES.md"))
    machines.sync("a", "b")
    machines.run("a", lambda s: s.restore_backup(backup))

    machines.sync("a", "b", "a")
    assert machines.run("a", lambda s: s.get(added["id"])["status"]) == "active"
    assert machines.run("b", lambda s: s.get(added["id"])["status"]) == "active"
    item = _sync_item(machines, "a")  # the person decides which words stand
    assert item["content"] == "Releases go out on Mondays."
    assert _content(machines, "a", memory["id"]) == "Releases go out on Tuesdays."


def test_an_edit_taken_over_a_deletion_here_leaves_one_number_per_version_and_reads_back(
    machines, tmp_path
):
    """A sync tryout: deleted here, edited there, both as version 2. The history then held
    two version 2s, and neither the export nor any later backup could be read back."""
    memory = machines.run("a", lambda s: s.add("Prefers pytest."))
    machines.init("a", "b")
    machines.sync("a", "b")
    machines.run("a", lambda s: s.remove(memory["id"]))
    machines.run("b", lambda s: s.update(memory["id"], content="Prefers pytest with xdist."))
    machines.sync("a", "b", "a")
    versions = [v["version"] for v in machines.run("a", lambda s: s.history(memory["id"]))]
    assert versions == list(range(1, len(versions) + 1))
    exported = machines.run("a", lambda s: s.export("json"))
    assert machines.run("c", lambda s: s.import_json(exported))["added"] == 1
    machines.sync("a", "b")  # this machine's next number goes out
    assert machines.shared("a") == machines.shared("b")


@pytest.mark.parametrize("answer", ["reject", "accept"])
def test_a_question_shows_the_other_machines_newest_words_and_the_answer_overwrites_nothing_unseen(
    machines, both_edited, answer
):
    """A sync tryout: b edited again while a's question waited. a's Inbox still showed b's
    first words and its sync said nothing; keeping a's words then went out over b's newest
    edit, which nobody had seen, and the history held two version 3s."""
    machines.run("b", lambda s: s.update(both_edited, content="Releases go out on Fridays."))
    machines.sync("b")
    assert machines.sync("a")[0]["conflicts"] == 1  # said again, not "took 0"
    item = _sync_item(machines, "a")
    assert item["content"] == "Releases go out on Fridays."
    assert "{+Fridays.+}" in item["why"]
    machines.run("a", lambda s: getattr(s, answer)([item["key"]]))
    machines.sync("a", "b", "a")
    words = "Releases go out on Mondays." if answer == "reject" else "Releases go out on Fridays."
    assert _content(machines, "b", both_edited) == words
    assert machines.shared("a") == machines.shared("b")  # each history numbered apart
    for name in "ab":
        assert not [i for i in machines.run(name, lambda s: s.inbox()) if i["type"] != "extract"]


def test_asked_at_the_terminal_a_conflict_names_both_versions_and_what_each_key_does(
    machines, both_edited, run, monkeypatch
):
    """A sync tryout: `inbox --ask` offered "[y] keep" for a conflict, which took the other
    machine's version, and both `inbox` and `--ask` cut off the sentence saying so."""
    db = machines.root / "a.db"
    out = run("inbox", db=db)[1]
    assert "reject to keep this one" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("k\nn\n"))  # "k" is not offered here
    out = run("inbox", "--ask", db=db)[1]
    assert "[y] take origin's version  [n] keep this machine's" in out
    assert (
        "on origin:\n    Releases go out on Thursdays.\n  here:\n    Releases go out on Mondays."
        in out
    )
    assert "reject to keep this one" in out.replace("\n  ", " ")
    assert "kept this machine's" in out
    machines.sync("a", "b")
    assert _content(machines, "b", both_edited) == "Releases go out on Mondays."
