"""A fact told after a request in the same sentence ("put it in vault.yml encrypted, the vault
password file lives at ~/.ansible/vault-pass") was lost with the request (core/sessions): the
sentence as a whole is a task, so nothing in it was kept. The clause after the request's comma
is read on its own when it has a subject of its own and a concrete value; after a guess, a
condition or a story it still says nothing to keep."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word", "asked"),
    [
        (
            "put the token in secrets.enc.yaml, the sops key lives at ~/.config/sops/age.txt so "
            "you can decrypt it yourself.",
            "~/.config/sops/age.txt",
            "secrets.enc.yaml",
        ),
        (
            "deploy it with the chart then, staging is the billing-stg namespace on the shared "
            "cluster.",
            "billing-stg",
            "chart",
        ),
        (
            "take that back out, the feature flags live in config/flags.toml and the admin app "
            "reads that same file.",
            "config/flags.toml",
            "take that",
        ),
        (
            "Fix the slow export while you're there, staging is at staging.shelfy.dev if you "
            "want to reproduce it.",
            "staging.shelfy.dev",
            "export",
        ),
    ],
)
def test_the_fact_after_a_request_is_kept_without_the_request(message, word, asked):
    kept = [content for content in _stored(message) if word in content]
    assert kept, _stored(message)
    assert all(asked not in content for content in kept)


@pytest.mark.parametrize(
    ("message", "clause"),
    [
        ("I think it's the pool, the timeout is 30 seconds on that endpoint.", "the timeout"),
        ("if we ever shard it, the biggest tenant would be at 99,000 rows a day.", "the biggest"),
        ("drop that, the leads don't care.", "the leads"),
        ("fix the flaky test, the CI box was at 100% CPU yesterday when it failed.", "the ci box"),
        ("run go vet before you say it's done, every time, in any Go repo I touch.", "every time"),
    ],
)
def test_a_clause_after_a_guess_or_without_a_value_is_not_stored_on_its_own(message, clause):
    assert not any(content.lower().startswith(clause) for content in _stored(message))


def test_a_plan_for_the_work_after_a_request_is_not_a_fact():
    assert _stored("open the PR for the endpoint, the cache fix goes in its own PR") == []


def test_the_fact_ends_where_the_message_goes_back_to_the_work():
    kept = _stored("build the api image here — use arm64, my laptop is an M1 Pro — and run it")
    assert kept == ["The user's laptop is an M1 Pro"]
