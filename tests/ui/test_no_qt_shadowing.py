"""No Qt subclass of ours hides a Qt method behind a plain attribute.

`self.id = ...` on a QUndoCommand hid `QUndoCommand.id()`; Qt called it and the process died
in libshiboken with no traceback. This looks at every class in memdesk.ui and memdesk.api that
derives from a Qt class, finds each attribute it assigns (on `self` or in the class body), and
fails if a Qt base class has a member of that name.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap

import pytest
import shiboken6

import memdesk.api
import memdesk.ui


def _qt_classes() -> list[type]:
    found: dict[str, type] = {}
    for package in (memdesk.ui, memdesk.api):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for _name, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ == module.__name__ and issubclass(cls, shiboken6.Object):
                    found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return list(found.values())


def _assigned_names(cls: type) -> set[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0]
    assert isinstance(body, ast.ClassDef)
    names: set[str] = set()
    for node in ast.walk(body):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            for leaf in ast.walk(target):
                if (
                    isinstance(leaf, ast.Attribute)
                    and isinstance(leaf.value, ast.Name)
                    and leaf.value.id == "self"
                ):
                    names.add(leaf.attr)
    for statement in body.body:  # class-level constants
        if isinstance(statement, ast.Assign):
            names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    return names


def _qt_member(cls: type, name: str) -> str | None:
    for base in cls.__mro__:
        if base.__module__.startswith("PySide6") and name in vars(base):
            return f"{base.__name__}.{name}"
    return None


QT_CLASSES = _qt_classes()


def test_the_check_sees_our_qt_classes():
    names = {cls.__name__ for cls in QT_CLASSES}
    assert {"MainWindow", "StepCommand", "DetailPanel", "SocketServer"} <= names


@pytest.mark.parametrize("cls", QT_CLASSES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_no_attribute_hides_a_qt_member(cls):
    shadowed = sorted(
        f"{name} hides {member}"
        for name in _assigned_names(cls)
        if (member := _qt_member(cls, name)) is not None
    )
    assert shadowed == []


def test_the_check_catches_the_crash_that_was_seen():
    from PySide6.QtGui import QUndoCommand

    class Broken(QUndoCommand):
        def __init__(self) -> None:
            super().__init__("add")
            self.id = "a uuid"

    assert _qt_member(Broken, "id") == "QUndoCommand.id"
    assert "id" in _assigned_names(Broken)
