"""What the user says of themself is stored as said of "the user", in English a reader
trusts: the verb agrees, a past tense stays past, and someone else's "the user" is left be."""

from __future__ import annotations

import pytest

from memdesk.core.sessions.third_person import person


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I have never seen it help", "the user has never seen it help"),
        ("I rewrote it by hand last spring", "the user rewrote it by hand last spring"),
        ("I overrode the default", "the user overrode the default"),
        ("I undid that change", "the user undid that change"),
        ("exactly how I like it", "exactly how the user likes it"),
        ("the kind of fix I like", "the kind of fix the user likes"),
        ("which annotation I need", "which annotation the user needs"),
        ("every time I paste JSON", "every time the user pastes JSON"),
        ("I buzz the team", "the user buzzes the team"),
        ("it's I who decide", "it's the user who decide"),
        ("I’m based in Lyon", "the user is based in Lyon"),
        ("I’d rather not", "the user would rather not"),
        ("I'll review it", "the user will review it"),
    ],
)
def test_the_verb_after_the_user_reads_as_english(said, stored):
    assert person(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I prefer tabs", "the user prefers tabs"),
        ("i hate mocks", "the user hates mocks"),
        ("I really never use mocks", "the user really never uses mocks"),
        ("I squash-merge PRs", "the user squash-merges PRs"),
        ("I always go for Poetry", "the user always goes for Poetry"),
        ("I fix typos myself", "the user fixes typos themselves"),
        ("I study in the evening", "the user studies in the evening"),
        ("show me full files", "show the user full files"),
        ("my manager is Dana", "the user's manager is Dana"),
        ("I was on call", "the user was on call"),
        ("I can read Go", "the user can read Go"),
        # said alike in the present and the past: what the person does, mostly
        ("I read diffs on my phone", "the user reads diffs on their phone"),
        ("I never put emojis in commits", "the user never puts emojis in commits"),
    ],
)
def test_what_already_read_well_still_does(said, stored):
    assert person(said) == stored


def test_a_user_the_person_writes_about_keeps_their_own_verb():
    said = "I get paged when the user logs in twice"
    assert person(said) == "the user gets paged when the user logs in twice"
    assert person("if the user clicks save, show a toast") == (
        "if the user clicks save, show a toast"
    )


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # seen in a new user's trial: "… the files the user touched before the user commits"
        (
            "I always run prettier --write on the files I touched before I commit",
            "the user always runs prettier --write on the files they touched before they commit",
        ),
        (
            "I'm rusty, so explain it to me slowly",
            "the user is rusty, so explain it to them slowly",
        ),
        ("ping me, I was on call", "ping the user, they were on call"),
        # someone else in the sentence: "them" could be Jae, so the user is named again
        (
            "Jae owns android and I own iOS, so gradle questions go to him, not me",
            "Jae owns android and the user owns iOS, so gradle questions go to him, not the user",
        ),
    ],
)
def test_once_named_the_user_is_they(said, stored):
    assert person(said) == stored


def test_words_that_already_name_the_user_make_the_first_i_they():
    assert person("my tests run before I push", named=True) == "their tests run before they push"
