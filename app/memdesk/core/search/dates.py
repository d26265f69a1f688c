"""Dates named in a query ("on 9 November, 2022", "in July 2023", "in June", "2023-05-08").

A memory written on a day the query names is very likely what it asks about, so retrieval
gives those memories a bonus. Only `created_at` is used; nothing extra is indexed.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import peewee

from memdesk.store import Memory

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_NUMBER = (
    {m: n for n, m in enumerate(_MONTHS, 1)}
    | {m[:3]: n for n, m in enumerate(_MONTHS, 1)}
    | {"sept": 9}
)
_M = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_D = r"(\d{1,2})(?:st|nd|rd|th)?"
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DAY_MONTH = re.compile(rf"\b{_D}\s+(?:of\s+)?{_M}\b,?\s*(\d{{4}})?", re.I)
_MONTH_DAY = re.compile(rf"\b{_M}\s+{_D}\b(?:,?\s*(\d{{4}}))?", re.I)
_MONTH = re.compile(rf"\b{_M}\b,?\s*(\d{{4}})?", re.I)
SLACK_DAYS = 1  # "on the 9th" may be written late on the 8th in another time zone
MAX_MENTIONS = 8  # beyond this the text is a list or noise, not a question about a time


def mentioned(text: str) -> peewee.Expression | None:
    """A condition on Memory.created_at that holds for the dates `text` names, or None."""
    found: list[peewee.Expression] = []
    taken: list[tuple[int, int]] = []

    def free(match: re.Match[str]) -> bool:
        return not any(start <= match.start() < end for start, end in taken)

    def between(low: str, high: str) -> None:
        found.append((Memory.created_at >= low) & (Memory.created_at < high))

    def day(when: date | None) -> None:
        if when is not None:
            between(_shifted(when, -SLACK_DAYS), _shifted(when, SLACK_DAYS + 1))

    def month(number: int, year: str | None) -> None:
        if year:
            first = _date(year, number, 1)
            if first is not None:  # (year 0 is no year)
                after = _date(first.year + (number == 12), number % 12 + 1, 1)
                between(first.isoformat(), after.isoformat() if after else _AFTER_ALL)
        else:
            found.append(peewee.fn.substr(Memory.created_at, 6, 2) == f"{number:02d}")

    for match in _ISO.finditer(text):
        taken.append(match.span())
        day(_date(match[1], match[2], match[3]))
    for pattern, day_first in ((_DAY_MONTH, True), (_MONTH_DAY, False)):
        for match in filter(free, pattern.finditer(text)):
            d, m, y = (
                (match[1], match[2], match[3]) if day_first else (match[2], match[1], match[3])
            )
            taken.append(match.span())
            number = _MONTH_NUMBER[m.lower()]
            if y:
                day(_date(y, number, d))
            else:
                month(number, None)
    for match in filter(free, _MONTH.finditer(text)):
        if match[1].lower() == "may" and not match[2]:
            continue  # a bare "may" is nearly always the verb
        month(_MONTH_NUMBER[match[1].lower()], match[2])
    if not found or len(found) > MAX_MENTIONS:
        return None
    condition = found[0]
    for more in found[1:]:
        condition |= more
    return condition


_AFTER_ALL = "10000"  # sorts after every ISO time: the end of the calendar


def _shifted(when: date, days: int) -> str:
    """`when` moved by `days`, as ISO text; at the calendar's ends, its end (a query naming
    9999-12-31 or 0001-01-01 failed every search, context and prompt hook with it)."""
    try:
        return (when + timedelta(days=days)).isoformat()
    except OverflowError:
        return date.min.isoformat() if days < 0 else _AFTER_ALL


def _date(year: str | int, month: str | int, day: str | int) -> date | None:
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None
