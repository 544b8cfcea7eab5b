"""`@record`: a typed named tuple without importing `typing` (the command line's start-up budget).

`typing` costs about 8 ms of CPU to import, a tenth of a one-line `python -m rocm_bridge hipify` run, and the
engine used it only for `typing.NamedTuple`. A record is written the same way, fields as annotations, defaults
as values, methods and properties as usual:

    @record
    class Launch:
        line: int
        kernel: str
        reason: str = ""

and becomes a subclass of `collections.namedtuple("Launch", "line kernel reason", defaults=("",))`: a tuple
with `_fields`, `_replace`, `_asdict`, equality and pickling as before.
"""

from __future__ import annotations

from collections import namedtuple

_CLASS_ONLY = ("__dict__", "__weakref__", "__annotations__")


def record(cls: type) -> type:
    own = cls.__dict__
    names = list(own.get("__annotations__", {}))
    defaults = [own[name] for name in names if name in own]
    if any(name in own for name in names[: len(names) - len(defaults)]):
        raise TypeError(f"{cls.__name__}: a field without a default follows one with a default")
    base = namedtuple(cls.__name__, names, defaults=defaults or None, module=cls.__module__)
    body = {key: value for key, value in own.items() if key not in names and key not in _CLASS_ONLY}
    body["__slots__"] = ()
    body["__annotations__"] = own.get("__annotations__", {})
    return type(cls.__name__, (base,), body)
