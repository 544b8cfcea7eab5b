"""Decode the Plotly figures an AppTest run rendered (Plotly 7 stores numeric arrays as base64 'bdata')."""

from __future__ import annotations

import base64
import json
import struct
from typing import Any

_DTYPES = {"f8": "d", "f4": "f", "i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I", "i8": "q", "u8": "Q"}


def decode(value: Any) -> Any:
    """A Plotly array as a Python list: typed {'dtype', 'bdata'} arrays are unpacked; lists pass through."""
    if isinstance(value, dict) and "bdata" in value:
        code = _DTYPES[value["dtype"]]
        raw = base64.b64decode(value["bdata"])
        items = list(struct.unpack(f"<{len(raw) // struct.calcsize(code)}{code}", raw))
        shape = value.get("shape")
        if shape and isinstance(shape, str) and "," in shape:
            rows, cols = (int(n) for n in shape.split(","))
            return [items[r * cols : (r + 1) * cols] for r in range(rows)]
        return items
    return value


def figures(at) -> list[dict]:
    """Every Plotly figure on the page, as dicts, in page order (iterating at.main walks nested blocks too)."""
    out = []
    for el in at.main:
        proto = getattr(el, "proto", None)
        spec = getattr(proto, "spec", None) if proto is not None else None
        if isinstance(spec, str) and spec.startswith("{") and '"data"' in spec:
            out.append(json.loads(spec))
    return out


def by_title(at, fragment: str) -> dict:
    for fig in figures(at):
        title = fig.get("layout", {}).get("title", {})
        text = title.get("text", "") if isinstance(title, dict) else str(title)
        if fragment in text:
            return fig
    raise AssertionError(f"no figure titled with {fragment!r}; titles: {[titles(f) for f in figures(at)]}")


def titles(fig: dict) -> str:
    title = fig.get("layout", {}).get("title", {})
    return title.get("text", "") if isinstance(title, dict) else str(title)


def trace(fig: dict, name: str) -> dict:
    for tr in fig["data"]:
        if tr.get("name") == name:
            return tr
    raise AssertionError(f"no trace {name!r}; traces: {[t.get('name') for t in fig['data']]}")
