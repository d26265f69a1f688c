"""Timestamps: ISO 8601 UTC text of fixed width, so string order is time order."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from memdesk.core.errors import ValidationError

_AFTER_YEAR = "-%m-%dT%H:%M:%S.%f"
HINT = (
    "an ISO 8601 date or time such as 2026-05-01 or 2026-05-01T14:30:00Z, or a time ago "
    "such as 30m, 24h, 7d or 2w"
)
_AGO = re.compile(r"(\d{1,6})\s*([mhdw])")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
# What format_time writes: such a value needs only to be a real date, not re-written (a sync
# reads two per memory, and strftime was a fifth of checking a file).
_CANONICAL = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")


def format_time(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    # The year padded by hand: strftime gave year 1 as "1-01-01…", a stamp memdesk's own
    # import then refused, so the person's export and backups could not be read back.
    moment = moment.astimezone(UTC)
    return f"{moment.year:04d}" + moment.strftime(_AFTER_YEAR)[:-3] + "Z"


def now() -> str:
    return format_time(datetime.now(UTC))


def latest_believable() -> str:
    """The latest date a file from elsewhere (a sync remote, an import) may carry: a day or
    more ahead of this machine's clock is made up (year 9999 kept a file always newest, so it
    won every merge and ranked first)."""
    return format_time(datetime.now(UTC) + timedelta(days=1))


def not_ahead(stamp: str, field: str, latest: str) -> None:
    if stamp > latest:
        raise ValidationError(f"{field} is {stamp[:10]}, in the future", field=field)


# How far ahead a clock that ran fast may have dated what it wrote: such a date is set back to
# the latest believable one; further ahead it is made up ("9999"), and refused.
SKEW = timedelta(days=366)


def set_back(stamp: str, field: str, latest: str) -> str:
    """`stamp` as a file from elsewhere may carry it: brought back to `latest` when it is ahead
    by less than a clock runs fast (a memory written while the clock ran a month ahead made
    every later backup and export of the store one memdesk refused to restore), refused
    beyond."""
    if stamp <= latest:
        return stamp
    if stamp <= _skewed(latest):
        return now()  # not `latest`: ahead of the clock still, and after its own update
    raise ValidationError(f"{field} is {stamp[:10]}, in the future", field=field)


def _skewed(latest: str) -> str:
    return format_time(datetime.fromisoformat(latest.replace("Z", "+00:00")) + SKEW)


def parse_time(value: object, field: str) -> str:
    """Normalize a user-given time (naive means UTC) or raise a ValidationError naming `field`."""
    if isinstance(value, datetime):
        return format_time(value)
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"{field} must be {HINT}", field=field)
    text = value.strip()
    if _CANONICAL.fullmatch(text):
        try:
            datetime.fromisoformat(text[:-1])
            return text
        except ValueError:
            raise ValidationError(f"{field} {value!r} is not {HINT}", field=field) from None
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    ago = _AGO.fullmatch(text.lower())
    try:
        if ago:
            return format_time(datetime.now(UTC) - timedelta(**{_UNITS[ago[2]]: int(ago[1])}))
        return format_time(datetime.fromisoformat(text))
    except OverflowError:  # "0001-01-01T00:00:00+14:00" in UTC is before the calendar's start
        raise ValidationError(
            f"{field} {value!r} is outside the years 0001..9999 (in UTC)", field=field
        ) from None
    except ValueError:
        raise ValidationError(f"{field} {value!r} is not {HINT}", field=field) from None
