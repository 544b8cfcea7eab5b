"""Minimum ROCm of a translated file: the oldest release that has every HIP API the output uses.

Each converted reference's HIP name has a "HIP added" version in data/hipify_mappings.csv (HIPIFY's
`HIP_*_VER_MAP`), and a mapped include its HIP header's in data/hipify_headers.csv where known (hip_added:
hip/cooperative_groups/hip_reduce.h 7.13, hip_scan.h 10.0). HIPIFY writes these as ROCm release numbers for the
runtime and the libraries alike (hipBLAS names added "5.7.0" arrived in ROCm 5.7; Debian's ROCm 5.2 `hipcc
--version` reports "HIP version: 5.2.21153"), so the largest of them is the oldest ROCm the file can compile on. Versions before 3.x predate ROCm's current
numbering; they do not raise the minimum above the FLOOR release.

`--rocm-version X` turns it into a check: every API added after X is listed (it will not compile on X).
"""

from __future__ import annotations

from rocm_bridge.hipify.index import HIP, HIP_ADDED, active_map, fields
from rocm_bridge.hipify.records import record
from rocm_bridge.hipify.target import version_key as _key
from rocm_bridge.hipify.translator import CONVERTED, Result

FLOOR = "3.5"  # below this HIPIFY's HIP versions are HIP's own 1.x/2.x numbers, not ROCm releases
RAISES_FROM = (4, 0)  # APIs added in ROCm 4.0 or later are the ones listed as raising the minimum


@record
class Requirement:
    """One HIP API of the output with the release that added it."""

    hip_name: str
    cuda_name: str
    added: str  # "5.7.0"
    line: int  # first use
    col: int
    uses: int


@record
class MinimumRocm:
    version: str  # oldest ROCm with every API: "5.7" (FLOOR when nothing needs more; "" = no HIP API used)
    requirements: list[Requirement]  # every HIP API with a known version, newest first
    target: str = ""  # --rocm-version
    too_new: tuple[Requirement, ...] = ()  # added after target

    @property
    def raising(self) -> list[Requirement]:
        """The APIs that push the minimum up (added in ROCm 4.0 or later), newest first."""
        return [r for r in self.requirements if _key(r.added) >= RAISES_FROM]


def short(version: str) -> str:
    """'5.7.0' -> '5.7'; '6.1.2' -> '6.1.2'."""
    key = _key(version)
    return ".".join(str(p) for p in (key + (0,))[: max(2, len(key))])


def valid_version(text: str) -> bool:
    parts = text.strip().split(".")
    return 1 <= len(parts) <= 3 and all(p.isascii() and p.isdigit() for p in parts)


def _header_requirements(result: Result) -> list[Requirement]:
    """The HIP headers the output includes that data/hipify_headers.csv dates (hip_added), one per header."""
    from rocm_bridge.hipify.headers import map_header

    out: dict[str, Requirement] = {}
    for change in result.headers:
        if change.reason != "mapped" or not change.hip_header:
            continue
        mapped = map_header(change.cuda_header, result.options.roc_groups)
        if mapped is None or not mapped[1].hip_added or mapped[0] != change.hip_header:
            continue
        known = out.get(change.hip_header)
        if known is None:
            out[change.hip_header] = Requirement(change.hip_header, change.cuda_header, mapped[1].hip_added,
                                                 change.line, 1, 1)
        else:
            out[change.hip_header] = known._replace(uses=known.uses + 1)
    return list(out.values())


def minimum_rocm(result: Result, target: str = "") -> MinimumRocm:
    """The minimum ROCm of result's output, and with target the APIs newer than that release."""
    table = active_map(result.options.roc, result.options.miopen)
    refs = result.references
    by_hip: dict[str, list] = {}  # HIP name -> [first reference, CUDA name, added, uses]
    rewritten = {}
    if result.target_rewrites:
        from rocm_bridge.hipify.target import rules

        rewritten = {r.cuda_name: rules()[r.cuda_name].replacement_added for r in result.target_rewrites}
    any_hip = False
    # one pass over the distinct (name, HIP name, status) records, not over every reference; they come in order
    # of first use, so the first record of a HIP name gives the CUDA name, version and line shown
    for info, first, uses in zip(refs.infos, refs.firsts, refs.counts(), strict=True):
        if info.status != CONVERTED or not info.hip_name:
            continue
        any_hip = True
        rec = table.get(info.name)
        added = fields(rec)[HIP_ADDED] if rec is not None else ""
        if rewritten and info.name in rewritten and rec is not None and info.hip_name != fields(rec)[HIP]:
            added = rewritten[info.name]  # --rocm-version wrote the target's equivalent (rocm_bridge.hipify.target)
        if not added:
            continue
        entry = by_hip.get(info.hip_name)
        if entry is None:
            by_hip[info.hip_name] = [first, info.name, added, uses]
        else:
            entry[3] += uses
    lines, cols = refs.lines, refs.cols
    reqs = [Requirement(h, cuda, added, lines[first], cols[first], uses) for h, (first, cuda, added, uses) in by_hip.items()]
    reqs += _header_requirements(result)
    any_hip = any_hip or any(h.reason == "mapped" for h in result.headers)
    reqs.sort(key=lambda r: (r.line, r.col))
    reqs.sort(key=lambda r: (_key(r.added) + (0, 0, 0))[:3], reverse=True)  # newest first, then by first use
    if not any_hip:
        version = ""
    elif reqs and _key(reqs[0].added) > _key(FLOOR):
        version = short(reqs[0].added)
    else:
        version = FLOOR
    too_new: tuple[Requirement, ...] = ()
    if target:
        too_new = tuple(r for r in reqs if _key(r.added) > _key(target))
    return MinimumRocm(version, reqs, target, too_new)
