"""An export is written whole or not at all, and privately."""

from __future__ import annotations

import pytest

from memdesk import whole_file


def test_a_write_that_fails_leaves_the_earlier_file_and_no_hidden_copy(tmp_path):
    target = tmp_path / "memories.json"
    target.write_text("the export of last week")

    def fills_the_disk() -> None:
        with whole_file.writing(target) as out:
            out.write("half of this week's")
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        fills_the_disk()
    assert target.read_text() == "the export of last week"
    assert [p.name for p in tmp_path.iterdir()] == ["memories.json"]


def test_a_copy_whose_writer_is_alive_is_left_alone(tmp_path):
    import os

    working = tmp_path / f".other.json.{os.getppid()}.memdesk-partial"
    working.write_text("another export under way")
    with whole_file.writing(tmp_path / "mine.json") as out:
        out.write("mine")
    assert sorted(p.name for p in tmp_path.iterdir()) == [working.name, "mine.json"]
    assert (tmp_path / "mine.json").stat().st_mode & 0o077 == 0
