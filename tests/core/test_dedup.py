"""Dedup on add: a near-duplicate in the same layer and project is reinforced, not added again."""

from __future__ import annotations

import pytest


def test_a_near_duplicate_is_reinforced_instead_of_added(service):
    first = service.add("The build uses make and gcc on Linux", project="tools")
    again = service.add("the build uses gcc and make on linux!", project="tools")
    assert again["duplicate_of"] == first["id"]
    assert again["id"] == first["id"]
    assert again["reinforce_count"] == 1
    assert again["version"] == 1  # the content did not change
    assert again["updated_at"] >= first["updated_at"]
    assert again["content"] == "The build uses make and gcc on Linux"
    assert service.count() == 1
    assert service.get(first["id"])["reinforce_count"] == 1


def test_the_similarity_threshold_is_jaccard_point_six(service):
    first = service.add("red green blue cyan magenta")
    # {red, green, blue} / {red, green, blue, cyan, magenta} = 3/5 = 0.6: reinforced
    assert service.add("red green blue")["duplicate_of"] == first["id"]
    # {red, green} / {red, green, blue, cyan, magenta} = 2/5: a new memory
    separate = service.add("red green")
    assert "duplicate_of" not in separate
    assert service.count() == 2


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"project": "alpha"}, {"project": "beta"}),
        ({"project": "alpha"}, {}),
        ({"layer": "L0"}, {"layer": "L1"}),
    ],
)
def test_a_twin_in_another_project_or_layer_is_a_new_memory(service, first, second):
    service.add("Tests run with pytest and hypothesis", **first)
    added = service.add("Tests run with pytest and hypothesis", **second)
    assert "duplicate_of" not in added
    assert service.count() == 2


def test_dedup_can_be_turned_off_per_call(service):
    first = service.add("Coffee before standup")
    added = service.add("Coffee before standup", dedup=False)
    assert "duplicate_of" not in added
    assert added["id"] != first["id"]
    assert service.count() == 2


def test_a_deleted_memory_is_not_reinforced(service):
    first = service.add("Coffee before standup")
    service.remove(first["id"])
    added = service.add("Coffee before standup")
    assert "duplicate_of" not in added
    assert service.get(first["id"])["reinforce_count"] == 0


def test_the_most_similar_memory_is_the_one_reinforced(service):
    loose = service.add("deploy the app with docker compose on the staging host")
    close = service.add("deploy the app with docker compose on the staging host today", dedup=False)
    again = service.add("deploy the app with docker compose on the staging host now")
    # Jaccard 9/10 with `loose`, 9/11 with the newer `close`: `loose` is the nearer one.
    assert again["duplicate_of"] == loose["id"] != close["id"]


@pytest.fixture
def release_notes(service):
    """Ten memories sharing six words with the twin below, then the twin itself."""
    service.add_many(
        [{"content": f"release notes for version {n} of the mobile app"} for n in range(10)],
        dedup=False,
    )
    return service.add("release notes for the mobile app live in docs/releases")


def test_of_more_candidates_than_compared_the_closest_are_compared(
    service, release_notes, monkeypatch
):
    from memdesk.core.memory import dedup

    monkeypatch.setattr(dedup, "MAX_CANDIDATES", 2)
    again = service.add("release notes for the mobile app live in docs/releases!")
    assert again["duplicate_of"] == release_notes["id"]


def test_a_twin_in_words_too_common_to_read_is_found_by_ranking(
    service, release_notes, monkeypatch
):
    from memdesk.core.memory import dedup

    monkeypatch.setattr(dedup, "POSTINGS_BUDGET", 5)
    again = service.add("release notes for the mobile app live in docs/releases!")
    assert again["duplicate_of"] == release_notes["id"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The build uses make and gcc on Linux", "the build uses gcc and make on linux!"),
        ("Prefers pytest over unittest for tests", "prefers pytest over unittest for tests."),
        ("red green blue cyan magenta", "red green blue"),
        ("Deploys go through blue green switching", "deploys go through blue green switching"),
    ],
)
def test_a_true_restatement_reinforces(service, old, new):
    first = service.add(old)
    assert service.add(new).get("duplicate_of") == first["id"]
    assert service.count() == 1


def test_two_session_summaries_alike_are_two_sessions_not_an_update(service):
    """A window tryout: a project's session summaries were offered in the Inbox as "may
    replace 4 older memories"."""
    first = service.add("Session on api: fixed 3 failing tests, deploy on Tuesday", layer="L2")
    added = service.add("Session on api: fixed 5 failing tests, deploy on Tuesday", layer="L2")
    assert "possible_update_of" not in added
    assert service.inbox() == []
    assert service.get(first["id"])["status"] == "active"
    # said again word for word, it is still the same summary
    again = service.add("Session on api: fixed 5 failing tests, deploy on Tuesday", layer="L2")
    assert again["duplicate_of"] == added["id"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The API server listens on port 8080", "The API server listens on port 9090"),
        ("Always deploy on Fridays", "Never deploy on Fridays"),
        ("Use tabs for indentation in Go files", "Don't use tabs for indentation in Go files"),
        ("Alice owns the billing service code", "Bob owns the billing service code"),
        ("The cache is enabled in staging builds", "The cache is disabled in staging builds"),
        ("Python 3.11 is the minimum version", "Python 3.12 is the minimum version"),
        ("The release is due 2026-03-01 for web", "The release is due 2026-04-01 for web"),
    ],
)
def test_a_changed_fact_is_stored_and_linked_as_a_possible_update(service, old, new):
    first = service.add(old)
    added = service.add(new)
    assert "duplicate_of" not in added
    assert added["possible_update_of"] == first["id"]
    assert service.get(added["id"])["content"] == new
    assert {(link["relation"], link["id"]) for link in service.get(added["id"])["links"]} == {
        ("possible_update", first["id"])
    }
    assert service.count() == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Backups run at 2 and are kept for 30 days", "Backups run at 30 and are kept for 2 days"),
        (
            "Port 8080 is public and port 22 is internal",
            "Port 22 is public and port 8080 is internal",
        ),
        ("Ana reviews and Ben merges", "Ben reviews and Ana merges"),
    ],
)
def test_the_same_numbers_or_names_in_another_order_are_news(service, old, new):
    """Swapped numbers said the opposite and were taken for a restatement: the new fact was
    dropped and the old one counted as confirmed (Find Duplicates paired them too)."""
    first = service.add(old)
    second = service.add(new)
    assert second["id"] != first["id"]
    assert second.get("duplicate_of") is None


def test_what_a_newer_text_says_differently_reads_in_its_own_order():
    """ "…use pnpm (version 9)" was shown as now “9 version”: the words were sorted."""
    from memdesk.core.memory.dedup import differences

    assert differences("use pnpm", "use pnpm (version 9)") == "now “version 9”"
    assert differences("db on port 5432 as app", "db on port 6543 as admin") == (
        "no longer “5432 app”, now “6543 admin”"
    )


def test_what_an_update_says_differently_leaves_out_the_words_naming_the_old_value():
    """A red team's Inbox item read "now “6299 not”" for "… port 6299, not 5009"."""
    from memdesk.core.memory import dedup

    said = dedup.differences(
        "Service alpha listens on port 5000", "Service alpha listens on port 6000, not 5000"
    )
    assert said == "no longer “5000”, now “6000”"
    assert dedup.differences("Deploys are not allowed", "Deploys are allowed") == "no longer “not”"
