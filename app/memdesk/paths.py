"""Where memdesk keeps its files: one place, so the app, the CLI and agents agree."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "memdesk"
DB_ENV = "MEMDESK_DB"


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def log_dir() -> Path:
    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def default_db_path() -> Path:
    return data_dir() / "memdesk.db"


def resolve_db_path(cli_value: str | os.PathLike[str] | None = None) -> Path:
    """`--db` wins over `MEMDESK_DB`, which wins over the data folder default."""
    chosen = cli_value or os.environ.get(DB_ENV) or default_db_path()
    return Path(chosen).expanduser().resolve()
