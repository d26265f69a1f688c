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
from memdesk.core.service import ANSWERED_BY, Rooms


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


def _chains(cls: type) -> list[tuple[str, ...]]:
    """Every attribute chain that starts at `self` in the class's own source, as names
    (`self.a.b.c` -> ("a", "b", "c")), and every private name read off anything else."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    chains, private = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        names, value = [node.attr], node.value
        while isinstance(value, ast.Attribute):
            names.insert(0, value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id == "self":
            chains.append(tuple(names))
        elif _private(node.attr) and not (isinstance(value, ast.Name) and value.id == "self"):
            private.append(("<not self>", node.attr))
    return chains + private


def _private(name: str) -> bool:
    # peewee's model description is read as `Model._meta` (its documented way).
    return name.startswith("_") and not name.startswith("__") and name != "_meta"


def test_no_name_is_reached_across_rooms_through_self(rooms):
    """A room's `self.x` is its own method or state, or a door it was given; through a door
    it calls only what that room offers (no private helper, no room behind it), and it reads
    no private name off anything but itself (an alias of a door included)."""
    room_ids = {id(room) for _name, room in _built(rooms)}
    across = []
    for name, room in _built(rooms):
        cls = type(room)
        own = set(vars(cls)) | set(vars(room))
        doors = set(_doors(room))
        for chain in set(_chains(cls)):
            first, rest = chain[0], chain[1:]
            if first == "<not self>":
                across.append(f"{name}: ._{rest[0].lstrip('_')} read off another object")
            elif first not in own:
                across.append(f"{name}: self.{first}")
            elif first in doors and rest:
                behind = getattr(vars(room)[first], rest[0], None)
                if _private(rest[0]):
                    across.append(f"{name}: self.{first}.{rest[0]} (private)")
                elif id(behind) in room_ids:
                    across.append(f"{name}: self.{first}.{rest[0]} (a room behind a door)")
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
        for room, names in ANSWERED_BY.items():
            for name in names:
                answer = getattr(service, name)
                assert _owner(answer) is getattr(service.rooms, room) or room == "desk", name
        assert isinstance(service.rooms.desk, Desk)
    finally:
        service.close()
