"""What the Timeline's count line says: its points counted as the List counts its rows."""

from __future__ import annotations

from typing import Any


def count_line(t: Any, retired: Any, drawn: tuple[float, float] | None) -> str:
    """The line for points at times `t` (retired where `retired`; numpy arrays), or for those
    the `drawn` range keeps."""
    if drawn is None:
        return points_summary(len(t), int(retired.sum()))
    kept = (t >= drawn[0]) & (t <= drawn[1])
    return range_summary(
        int((kept & ~retired).sum()), int((~retired).sum()), int((kept & retired).sum())
    )


def points_summary(points: int, retired: int) -> str:
    """The points counted as the List counts its rows (the header's number), and the retired
    memories the Timeline draws besides, as history: one number for one thing."""
    shown = points - retired
    text = f"{shown:,} {'memory' if shown == 1 else 'memories'}"
    return (
        f"{text} and {retired:,} retired on the timeline" if retired else f"{text} on the timeline"
    )


def range_summary(kept: int, shown: int, retired: int) -> str:
    """`points_summary` of what a drawn range keeps: the List's rows in it, of the timeline's."""
    text = f"{kept:,} of {shown:,} {'memory' if shown == 1 else 'memories'} in the range"
    return f"{text}, and {retired:,} retired" if retired else text
