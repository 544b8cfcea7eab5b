"""Per-kernel resources from the compiler's own reports.

Two sources, both produced by one `--cuda-device-only -S -Rpass-analysis=kernel-resource-usage` run:
- the remarks (clang 15): Function Name, SGPRs, VGPRs, AGPRs (gfx908 / gfx90a / gfx940), ScratchSize
  [bytes/lane], Occupancy [waves/SIMD], SGPRs Spill, VGPRs Spill, LDS Size [bytes/block];
- the code object metadata in the assembly (`amdhsa.kernels` YAML between .amdgpu_metadata directives):
  .name, .vgpr_count, .agpr_count, .sgpr_count, .group_segment_fixed_size, .private_segment_fixed_size,
  .wavefront_size, .max_flat_workgroup_size, spill counts.
Metadata is the base (it has the wave size and the workgroup bound); the remark adds the compiler's occupancy.

clang 22 writes the resource counts of its assembly as symbols (`.set k.num_vgpr, max(44, amdgpu.max_num_vgpr)`)
and its occupancy as an expression, `; Occupancy: occupancy(MaxWaves, Granule, TotalVGPRs, Generation,
InitOccupancy, SGPRs, VGPRs)` (LLVM AMDGPUMCExpr). `parse_symbols` reads the numbers and `occupancy_expr`
evaluates the expression the way LLVM does, so the compiler's own figure is known without the remarks.
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


_SET = re.compile(r"^\s*\.set\s+(?P<name>[\w.$]+)\.(?P<key>num_vgpr|num_agpr),\s*max\((?P<val>\d+)", re.MULTILINE)
_OCC_EXPR = re.compile(r"^; Occupancy: occupancy\((?P<a>\d+), (?P<b>\d+), (?P<c>\d+), (?P<d>\d+), (?P<e>\d+), "
                       r"max\((?P<name>[\w.$]+?)\.numbered_sgpr", re.MULTILINE)
_LABEL = re.compile(r"^([A-Za-z_][\w$]*):")
_OCC_NUM = re.compile(r"^; Occupancy: (\d+)\s*$")
_GFX10 = 9  # LLVM's AMDGPUSubtarget::Generation value of GFX10 (SGPRs stop limiting occupancy there)


def parse_symbols(asm: str) -> dict[str, dict[str, int]]:
    """clang 22: num_vgpr / num_agpr per kernel from the `.set` lines, plus the occupancy expression's constants."""
    out: dict[str, dict[str, int]] = {}
    for m in _SET.finditer(asm):
        out.setdefault(m["name"], {})["vgprs" if m["key"] == "num_vgpr" else "agprs"] = int(m["val"])
    current = None
    for line in asm.splitlines():  # a fully resolved figure is printed as a number after the kernel's body
        if m := _LABEL.match(line):
            current = m.group(1)
        elif current and (m := _OCC_NUM.match(line)):
            out.setdefault(current, {})["compiler_occupancy"] = int(m.group(1))
    for m in _OCC_EXPR.finditer(asm):
        out.setdefault(m["name"], {}).update(occ_max_waves=int(m["a"]), occ_granule=int(m["b"]),
                                             occ_total_vgprs=int(m["c"]), occ_generation=int(m["d"]),
                                             occ_init=int(m["e"]))
    return out


def occupancy_expr(max_waves: int, granule: int, total_vgprs: int, generation: int, init: int, sgprs: int,
                   vgprs: int) -> int:
    """LLVM's AMDGPUMCExpr occupancy(): min(init, by SGPRs (before GFX10), by VGPRs).

    >>> occupancy_expr(8, 8, 512, 8, 8, 12, 196)
    2
    >>> occupancy_expr(16, 24, 1536, 11, 16, 9, 164)
    9
    """
    occ = init
    if sgprs and generation < _GFX10:
        occ = min(occ, 10 if sgprs <= 80 else 9 if sgprs <= 88 else 8 if sgprs <= 100 else 7, max_waves)
    if vgprs and vgprs >= granule:
        rounded = -(-vgprs // granule) * granule
        occ = min(occ, min(max(total_vgprs // rounded, 1), max_waves))
    return occ


def total_vgprs(vgprs: int, agprs: int, unified: bool) -> int:
    """Registers per lane the kernel holds (LLVM totalnumvgprs: AGPRs after the VGPRs aligned to 4 on gfx90a+)."""
    if unified and agprs:
        return -(-vgprs // 4) * 4 + agprs
    return max(vgprs, agprs)


def kernels(asm: str, remarks_text: str) -> list[KernelResources]:
    meta = parse_metadata(asm)
    remarks = parse_remarks(remarks_text)
    symbols = parse_symbols(asm)
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
        sym = symbols.get(name)
        if sym and "vgprs" in sym:  # clang 22: the symbols are exact (the metadata's count is the unified total)
            k.vgprs, k.agprs = sym["vgprs"], sym.get("agprs", 0)
        if sym and "compiler_occupancy" in sym and k.compiler_occupancy is None:
            k.compiler_occupancy = sym["compiler_occupancy"]
        if sym and "occ_init" in sym and k.compiler_occupancy is None:
            unified = sym["occ_total_vgprs"] == 512 and sym["occ_generation"] < _GFX10 and sym["occ_granule"] == 8
            k.compiler_occupancy = occupancy_expr(sym["occ_max_waves"], sym["occ_granule"], sym["occ_total_vgprs"],
                                                  sym["occ_generation"], sym["occ_init"], k.sgprs,
                                                  total_vgprs(k.vgprs, k.agprs, unified))
        out.append(k)
    return out
