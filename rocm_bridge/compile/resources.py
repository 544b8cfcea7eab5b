"""Per-kernel resources from the compiler's own reports.

Two sources, both produced by one `--cuda-device-only -S -Rpass-analysis=kernel-resource-usage` run:
- the remarks (clang 15): Function Name, SGPRs, VGPRs, AGPRs (gfx908 / gfx90a / gfx940), ScratchSize
  [bytes/lane], Occupancy [waves/SIMD], SGPRs Spill, VGPRs Spill, LDS Size [bytes/block];
- the code object metadata in the assembly (`amdhsa.kernels` YAML between .amdgpu_metadata directives):
  .name, .vgpr_count, .agpr_count, .sgpr_count, .group_segment_fixed_size, .private_segment_fixed_size,
  .wavefront_size, .max_flat_workgroup_size, spill counts.
Metadata is the base (it has the wave size and the workgroup bound); the remark adds the compiler's occupancy.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

_REMARK = re.compile(r"^[^\n]*?:\d+:\d+: remark: (?:Function Name: (?P<fn>\S+)|\s+(?P<key>[\w][\w \[\]/]*?): "
                     r"(?P<val>\d+)) \[-Rpass-analysis=kernel-resource-usage\]$", re.MULTILINE)
_REMARK_KEYS = {"SGPRs": "sgprs", "VGPRs": "vgprs", "AGPRs": "agprs", "ScratchSize [bytes/lane]": "scratch_bytes",
                "Occupancy [waves/SIMD]": "compiler_occupancy", "SGPRs Spill": "sgpr_spills",
                "VGPRs Spill": "vgpr_spills", "LDS Size [bytes/block]": "lds_bytes"}
_META_KEYS = {".vgpr_count": "vgprs", ".agpr_count": "agprs", ".sgpr_count": "sgprs",
              ".group_segment_fixed_size": "lds_bytes", ".private_segment_fixed_size": "scratch_bytes",
              ".wavefront_size": "wave", ".max_flat_workgroup_size": "max_block", ".vgpr_spill_count": "vgpr_spills",
              ".sgpr_spill_count": "sgpr_spills"}
_META_BLOCK = re.compile(r"^\s*\.amdgpu_metadata\s*$(.*?)^\s*\.end_amdgpu_metadata", re.MULTILINE | re.DOTALL)


@dataclass
class KernelResources:
    name: str  # mangled symbol
    display: str = ""  # demangled-looking short name
    vgprs: int = 0
    agprs: int = 0
    sgprs: int = 0
    lds_bytes: int = 0
    scratch_bytes: int = 0
    wave: int = 0
    max_block: int = 1024
    vgpr_spills: int = 0
    sgpr_spills: int = 0
    compiler_occupancy: int | None = None
    occupancy: dict[str, object] = field(default_factory=dict)  # filled by the engine (rocm_bridge.compile.occupancy)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def short_name(mangled: str) -> str:
    """`_Z5saxpyifPKfPf` -> `saxpy` (Itanium nested names: the last component); other names unchanged."""
    m = re.match(r"_Z(?:N(?:\d+\w+?)*?)?(\d+)", mangled)
    if not m:
        return mangled
    if mangled.startswith("_ZN"):
        pos, parts = 3, []
        while pos < len(mangled) and mangled[pos].isdigit():
            n = re.match(r"\d+", mangled[pos:]).group(0)
            pos += len(n)
            parts.append(mangled[pos:pos + int(n)])
            pos += int(n)
        return "::".join(parts) or mangled
    n = m.group(1)
    start = 2 + len(n)
    return mangled[start:start + int(n)] or mangled


def parse_remarks(text: str) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    current: dict[str, int] | None = None
    for m in _REMARK.finditer(text):
        if m["fn"]:
            current = out.setdefault(m["fn"], {})
        elif current is not None and m["key"] in _REMARK_KEYS:
            current[_REMARK_KEYS[m["key"]]] = int(m["val"])
    return out


def parse_metadata(asm: str) -> dict[str, dict[str, int]]:
    """Kernel records of the amdhsa.kernels metadata (a small YAML reader: only the scalar keys we need)."""
    out: dict[str, dict[str, int]] = {}
    for block in _META_BLOCK.findall(asm):
        rec: dict[str, int] = {}
        name = None
        for line in block.splitlines():
            s = line.strip()
            if s.startswith("- ") and line.startswith("  - ") and rec:  # next kernel (top-level list item)
                if name:
                    out[name] = rec
                rec, name = {}, None
            s = s[2:] if s.startswith("- ") and line.startswith("  - ") else s
            key, _, val = s.partition(":")
            val = val.strip()
            if key == ".name" and line.startswith(("    .name", "  - .name")):
                name = val
            elif key in _META_KEYS and val.isdigit() and line.startswith(("    .", "  - .")):
                rec[_META_KEYS[key]] = int(val)
        if name:
            out[name] = rec
    return out


def kernels(asm: str, remarks_text: str) -> list[KernelResources]:
    meta = parse_metadata(asm)
    remarks = parse_remarks(remarks_text)
    out = []
    for name in list(meta) + [n for n in remarks if n not in meta]:
        k = KernelResources(name=name, display=short_name(name))
        m, r = meta.get(name, {}), remarks.get(name, {})
        # the remarks win: on gfx90a the metadata's .vgpr_count is the unified total (VGPRs + AGPRs)
        for key, val in {**m, **r}.items():
            setattr(k, key, val)
        if "vgprs" not in r and m.get("agprs") and m.get("vgprs", 0) > m["agprs"]:
            k.vgprs = m["vgprs"] - m["agprs"]
        k.compiler_occupancy = r.get("compiler_occupancy")
        out.append(k)
    return out
