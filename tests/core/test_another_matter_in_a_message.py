"""A later statement in a message is stored beside the first when the person tells it as
another matter ("oh and …", "fyi …"); otherwise it is more often the task's context, and
the person confirms it."""

from memdesk.core.sessions import gapfill


def _found(message: str) -> dict[str, str]:
    return {f.content: f.confidence for f in gapfill.find([message])}


def test_a_later_statement_told_as_another_matter_is_stored():
    found = _found(
        "the export job runs nightly at 2am. oh and anything that changes the invoice layout "
        "has to go past Hana before it merges"
    )
    assert found[
        "Anything that changes the invoice layout has to go past Hana before it merges"
    ] == (gapfill.HIGH)
    found = _found(
        "ok the cron is fine. we keep the raw files in s3://acme-raw/landing. fyi the warehouse "
        "tables are all partitioned by load_date"
    )
    assert [c for c, conf in found.items() if conf == gapfill.HIGH and "load_date" in c]


def test_a_later_plain_statement_still_waits_for_the_person():
    found = _found(
        "we keep the raw files in s3://acme-raw/landing. the warehouse tables are all "
        "partitioned by load_date"
    )
    assert [c for c, conf in found.items() if conf != gapfill.HIGH and "load_date" in c]
