"""Device assembly (`--cuda-device-only -S`): one listing per kernel, instruction classes a learner should
notice, and a search."""

from __future__ import annotations

import re
from dataclasses import dataclass

# class -> pattern on the mnemonic; checked in order, the first match wins
CLASSES: tuple[tuple[str, re.Pattern], ...] = (
    ("mfma", re.compile(r"^v_mfma_|^v_smfmac_|^v_wmma_")),
    ("global", re.compile(r"^(?:global|flat|buffer)_(?:load|store|atomic)")),
    ("scalar_mem", re.compile(r"^s_(?:load|buffer_load|store)_")),
    ("wait", re.compile(r"^s_waitcnt|^s_wait_")),
    ("cross_lane", re.compile(r"^v_readlane|^v_writelane|^v_readfirstlane|^ds_(?:swizzle|permute|bpermute)|^v_permlane")),
    ("lds", re.compile(r"^ds_")),
    ("barrier", re.compile(r"^s_barrier")),
    ("branch", re.compile(r"^s_(?:c?branch|cbranch_\w+|setpc|swappc|endpgm)")),
)
_DPP = re.compile(r"\b(?:row_\w+|quad_perm|wave_\w+|row_bcast\w*|dpp8)\b")
_FUNC = re.compile(r"^(?P<name>[\w.$]+):\s*(?:;.*)?$")


@dataclass(frozen=True)
class Line:
    text: str
    cls: str  # "" when no class; "dpp" for a VALU op with a DPP modifier


@dataclass(frozen=True)
class KernelAsm:
    name: str
    lines: tuple[Line, ...]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for ln in self.lines:
            if ln.cls:
                out[ln.cls] = out.get(ln.cls, 0) + 1
        return out

    @property
    def instructions(self) -> int:
        return sum(1 for ln in self.lines if is_instruction(ln.text))

    def text(self) -> str:
        return "\n".join(ln.text for ln in self.lines)


def is_instruction(line: str) -> bool:
    s = line.strip()
    return bool(s) and s[0].isalpha() and not s.endswith(":")


def classify(line: str) -> str:
    s = line.strip()
    if not is_instruction(s):
        return ""
    mnemonic = s.split(None, 1)[0]
    if mnemonic.startswith("v_") and _DPP.search(s) and not mnemonic.startswith("v_mfma"):
        return "cross_lane"
    for cls, pat in CLASSES:
        if pat.search(mnemonic):
            return cls
    return ""


def split_kernels(asm: str, names: list[str] | None = None) -> list[KernelAsm]:
    """Each function's instructions, from its label to its .Lfunc_end marker (directives dropped)."""
    out: list[KernelAsm] = []
    wanted = set(names) if names else None
    current: str | None = None
    body: list[Line] = []
    for raw in asm.splitlines():
        if current is None:
            m = _FUNC.match(raw)
            if m and not m["name"].startswith(".") and (wanted is None or m["name"] in wanted):
                current, body = m["name"], []
            continue
        if raw.startswith(".Lfunc_end"):
            out.append(KernelAsm(current, tuple(body)))
            current = None
            continue
        s = raw.strip()
        if not s or (s.startswith(".") and not s.endswith(":")) or s.startswith(";"):
            continue
        body.append(Line(raw.rstrip().replace("\t", "    ", 1).replace("\t", " "), classify(raw)))
    return out


def search(kernel: KernelAsm, query: str) -> list[tuple[int, Line]]:
    """Lines (1-based within the listing) that contain the query (case-insensitive); all lines for ''."""
    q = query.strip().lower()
    return [(i, ln) for i, ln in enumerate(kernel.lines, 1) if not q or q in ln.text.lower()]
