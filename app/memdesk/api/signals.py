"""Emitting a Qt signal from Python, safely on PySide6 6.12.0.

PySide6 6.12.0 returns the result of `SignalInstance.emit()` (True) without taking a
reference to it, so every Python-side emit leaves `True` one reference short; after enough
emits CPython aborts with "bool_dealloc: deallocating True or False". `emit` gives the
reference back on that version only. Remove this module once 6.12.0 is excluded in
pyproject.toml (see /work/notes/api-needs.md).
"""

from __future__ import annotations

import ctypes
from typing import Any

import PySide6
from PySide6.QtCore import SignalInstance

_DROPS_RESULT_REFERENCE = PySide6.__version__ == "6.12.0"


def emit(signal: SignalInstance, *args: Any) -> None:
    result = signal.emit(*args)
    if _DROPS_RESULT_REFERENCE and isinstance(result, bool):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(result))
