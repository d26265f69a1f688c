"""Validation: every bad value fails with an error naming its field, and nothing is written."""

from __future__ import annotations

import pytest

from memdesk.core import IdentityFull, MemdeskError, TooLarge, ValidationError, clock


@pytest.fixture
def existing(service):
    return service.add("Already here", tags=["keep"])


BAD_ADDS = [
    ({"content": ""}, "content"),
    ({"content": "   \n\t "}, "content"),
    ({"content": 42}, "content"),
    ({"layer": "L3"}, "layer"),
    ({"layer": "l1"}, "layer"),
    ({"kind": "opinion"}, "kind"),
    ({"tags": "python"}, "tags"),
    ({"tags": ["ok", 3]}, "tags"),
    ({"tags": ["ok", "  "]}, "tags"),
    ({"tags": ["x" * 65]}, "tags"),
    ({"tags": [f"t{n}" for n in range(33)]}, "tags"),
    ({"created_at": "yesterday"}, "created_at"),
    ({"created_at": "2024-02-30"}, "created_at"),
    ({"importance": 1.5}, "importance"),
    ({"importance": "high"}, "importance"),
    ({"importance": float("nan")}, "importance"),
    ({"project": "p" * 201}, "project"),
    ({"task": 7}, "task"),
    ({"colour": "red"}, "colour"),
]


@pytest.mark.parametrize(("fields", "field"), BAD_ADDS)
def test_a_bad_field_on_add_is_named_and_nothing_is_written(service, existing, dump, fields, field):
    fields = {"content": "A valid memory", **fields}
    before = dump()
    with pytest.raises(ValidationError) as caught:
        service.add(fields.pop("content"), **fields)
    assert caught.value.field == field
    assert caught.value.code == "invalid"
    assert field.rstrip("s") in caught.value.message
    assert dump() == before


def test_content_over_64_kib_is_too_large(service, existing, dump):
    before = dump()
    with pytest.raises(TooLarge) as caught:
        service.add("é" * (32 * 1024 + 1))  # 65,538 bytes in UTF-8
    assert caught.value.code == "too_large"
    assert caught.value.field == "content"
    assert "65,538 bytes" in caught.value.message
    assert "64 KiB" in caught.value.message
    assert dump() == before


def test_content_of_exactly_64_kib_is_accepted(service):
    memory = service.add("a" * (64 * 1024))
    assert len(service.get(memory["id"])["content"]) == 64 * 1024


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"content": ""}, "content"),
        ({"kind": "opinion"}, "kind"),
        ({"layer": "L9"}, "layer"),
        ({"tags": [None]}, "tags"),
        ({"importance": -0.1}, "importance"),
        ({"content": "x" * (65 * 1024)}, "content"),
    ],
)
def test_a_bad_field_on_update_is_named_and_nothing_changes(service, existing, dump, fields, field):
    before = dump()
    with pytest.raises(MemdeskError) as caught:
        service.update(existing["id"], **fields)
    assert caught.value.field == field
    assert dump() == before


def test_content_is_stored_trimmed(service):
    assert service.add("  padded text \n")["content"] == "padded text"


def test_add_many_adds_all_in_order(service):
    added = service.add_many(
        [{"content": "first", "tags": ["a"]}, {"content": "second", "layer": "L0"}], dedup=False
    )
    assert [m["content"] for m in added] == ["first", "second"]
    assert [m["layer"] for m in added] == ["L1", "L0"]
    assert service.count() == 2


def test_add_many_with_one_bad_item_adds_none_and_names_the_item(service, existing, dump):
    before = dump()
    with pytest.raises(ValidationError) as caught:
        service.add_many([{"content": "fine"}, {"content": "also fine", "layer": "L5"}])
    assert caught.value.field == "layer"
    assert caught.value.message.startswith("items[1]: ")
    assert dump() == before


def test_add_many_that_fails_midway_in_the_database_rolls_back(service, existing, dump):
    before = dump()
    with pytest.raises(IdentityFull):
        service.add_many(
            [
                {"content": "first half " + "a" * 600, "layer": "L0"},
                {"content": "second half " + "b" * 600, "layer": "L0"},
            ]
        )
    assert dump() == before


def test_add_many_needs_a_list_of_objects(service):
    with pytest.raises(ValidationError) as caught:
        service.add_many(["just text"])
    assert caught.value.field == "items"


def test_errors_convert_to_a_dict_for_the_api(service):
    with pytest.raises(ValidationError) as caught:
        service.add("x", kind="opinion")
    out = caught.value.to_dict()
    assert out["code"] == "invalid"
    assert out["field"] == "kind"
    assert "opinion" in out["message"]


@pytest.mark.parametrize(
    "written",
    ["2026-13-01T10:00:00.000Z", "2026-02-30T10:00:00.000Z", "２０２６-05-01T10:00:00.000Z"],
)
def test_a_time_in_the_stored_format_must_still_be_a_real_date(written):
    with pytest.raises(ValidationError, match="updated_at"):
        clock.parse_time(written, "updated_at")


@pytest.mark.parametrize("written", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_time_past_the_calendar_in_utc_is_refused_with_a_sentence(service, written):
    """A well-formed time whose UTC is year 0 or 10000 answered "internal" to every call that
    takes a date, and filled the person's log with tracebacks."""
    with pytest.raises(ValidationError, match="outside the years 0001..9999"):
        clock.parse_time(written, "since")
    with pytest.raises(ValidationError, match="created_at"):
        service.add("a note", created_at=written)
    with pytest.raises(ValidationError, match="since"):
        service.list_memories(since=written)


def test_a_time_in_the_stored_format_is_kept_as_written():
    assert clock.parse_time("2026-05-01T10:00:00.250Z", "t") == "2026-05-01T10:00:00.250Z"
    assert clock.parse_time("2026-05-01T10:00:00Z", "t") == "2026-05-01T10:00:00.000Z"


def test_a_project_name_cannot_look_like_another(service):
    """A red team's agents wrote into projects "аpi" (a Cyrillic а), "a pi" (a no-break
    space) and "api․" (a one-dot leader): the sidebar showed six projects that looked like
    three. Look-alike characters are made what they look like; mixed look-alike scripts are
    refused."""
    from memdesk.core import agent

    bot = agent("claude-code")
    assert service.add("One", project="a\u00a0pi", actor=bot)["project"] == "a pi"
    assert service.add("Two", project="api\u2024", actor=bot)["project"] == "api."
    assert service.add("Three", project="\uff41\uff50\uff49", actor=bot)["project"] == "api"
    with pytest.raises(ValidationError, match="mixes cyrillic and latin"):
        service.add("Four", project="\u0430pi", actor=bot)
