"""rocm_bridge.hipify.records: the typing-free named tuple behaves as typing.NamedTuple did."""

from __future__ import annotations

import pickle

import pytest

from rocm_bridge.hipify.records import record
from rocm_bridge.hipify.result import Launch
from rocm_bridge.hipify.translator import Options


@record
class Point:
    """A documented record."""

    x: int
    y: int = 0

    @property
    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)

    @classmethod
    def of(cls, text: str) -> Point:
        return cls(*map(int, text.split(",")))


def test_fields_defaults_methods_and_tuple_behaviour():
    p = Point(3)
    assert p == (3, 0) and isinstance(p, tuple) and isinstance(p, Point)
    assert Point._fields == ("x", "y") and Point.__doc__ == "A documented record."
    assert p._replace(y=-4).norm1 == 7 and Point.of("1,2") == Point(1, 2)
    assert p._asdict() == {"x": 3, "y": 0} and repr(p) == "Point(x=3, y=0)"
    assert Point.__annotations__ == {"x": "int", "y": "int"}
    with pytest.raises(AttributeError):
        p.z = 1  # no __dict__: as small as a plain tuple


def test_engine_records_pickle_and_keep_their_defaults():
    launch = Launch(3, 5, "k", True)
    assert launch.reason == "" and pickle.loads(pickle.dumps(launch)) == launch
    opts = Options(roc=True)
    assert pickle.loads(pickle.dumps(opts)) == opts and opts.roc_groups


def test_a_field_without_default_after_one_with_default_is_refused():
    with pytest.raises(TypeError, match="without a default"):
        @record
        class Bad:
            a: int = 0
            b: int

