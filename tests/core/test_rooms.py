"""The service's rooms show their doors: each room is given, when it is built, the rooms it
uses (its constructor lists them), and reaches nothing else through `self`."""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import fields

import pytest

from memdesk.core import MemoryService
from memdesk.core.desk import Desk
from memdesk.core.service import DOORS, Rooms


@pytest.fixture
def rooms(tmp_path):
    service = MemoryService.open(tmp_path / "m.db")
    yield service.rooms
    service.close()


def _built(rooms: Rooms) -> list[tuple[str, object]]:
    return [(f.name, getattr(rooms, f.name)) for f in fields(rooms)]


def _doors(room: object) -> list[str]:
    return [p for p in inspect.signature(type(room).__init__).parameters if p != "self"]


def _owner(value: object) -> object:
    """The room a door leads to: the room itself, or the room whose answer a function is."""
    return getattr(value, "__self__", value)


def test_every_room_is_given_only_rooms_built_before_it(rooms):
    built = _built(rooms)
    order = {id(room): n for n, (_name, room) in enumerate(built)}
    wrong = []
    for n, (name, room) in enumerate(built[1:], start=1):  # the desk is given the database
        for door in _doors(room):
            given = _owner(vars(room)[door])
            if order.get(id(given), n) >= n:
                wrong.append(f"{name}.{door} leads to a room not built before it")
    assert wrong == []


def test_no_room_inherits_another_rooms_rules(rooms):
    mixed = [
        f"{name}: {[c.__name__ for c in type(room).__mro__[1:-1]]}"
        for name, room in _built(rooms)
        if type(room).__mro__[1:] != (object,)
    ]
    assert mixed == []


def _reaches(cls: type) -> list[tuple[str, str | None]]:
    """Every `self.name` (and `self.name.attribute`) in the class's own source."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        if _is_self(node.value):
            found.append((node.attr, None))
        elif isinstance(node.value, ast.Attribute) and _is_self(node.value.value):
            found.append((node.value.attr, node.attr))
    return found


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def test_no_name_is_reached_across_rooms_through_self(rooms):
    """A room's `self.x` is its own method or state, or a door it was given; through a door
    it calls only what that room offers (no private helper)."""
    across = []
    for name, room in _built(rooms):
        cls = type(room)
        own = set(vars(cls)) | set(vars(room))
        doors = set(_doors(room))
        for first, second in _reaches(cls):
            if first not in own:
                across.append(f"{name}: self.{first}")
            elif first in doors and second is not None and second.startswith("_"):
                across.append(f"{name}: self.{first}.{second} (private)")
    assert sorted(set(across)) == []


def test_a_door_never_hides_a_method_of_the_room(rooms):
    hidden = [
        f"{name}.{door}"
        for name, room in _built(rooms)
        for door in _doors(room)
        if door in vars(type(room))
    ]
    assert hidden == []


def test_the_service_answers_through_the_rooms_it_names(tmp_path):
    service = MemoryService.open(tmp_path / "m.db")
    try:
        for room, names in DOORS.items():
            for name in names:
                answer = getattr(service, name)
                assert _owner(answer) is getattr(service.rooms, room) or room == "desk", name
        assert isinstance(service.rooms.desk, Desk)
    finally:
        service.close()
