"""The Date chip's periods, as a person reads them: on the date the list shows (Updated)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memdesk.core import clock
from memdesk.core.clock import format_time
from tests.ui.window_helpers import open_window, settle, shown_texts


def _choose(chip, text: str) -> None:
    menu = chip.menu()
    menu.aboutToShow.emit()  # filled as it opens
    next(a for a in menu.actions() if a.text() == text).trigger()


def test_last_7_days_shows_the_rows_updated_in_them(qtbot, service, tmp_path, monkeypatch):
    long_ago = format_time(datetime.now(UTC) - timedelta(days=60))
    with monkeypatch.context() as then:
        then.setattr(clock, "now", lambda: long_ago)
        edited = service.add("The CI runs on GitHub Actions", created_at=long_ago)
        service.add("The staging host is in Frankfurt", created_at=long_ago)
    service.update(edited["id"], content="The CI runs on Forgejo Actions")
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    settle(window)

    chip = window.browser.chips._chips["since"]
    _choose(chip, "Updated in the last 7 days")
    settle(window)
    # the edited one, dated today in the Updated column; not the one last changed 60 days ago
    assert shown_texts(window) == ["The CI runs on Forgejo Actions"]
    assert chip.text() == "Date: Updated in the last 7 days  ✕"
