"""Target-aware translation (`--rocm-version X`): where the chosen ROCm release lacks the HIP API the table maps a
CUDA name to, and an equivalent exists in it, write the equivalent; where none does, leave it for a person.

Every rewrite is a row of data/hipify_target_rules.csv: the CUDA name, `until` (the ROCm release that makes the
rule unnecessary: it applies when the target is older), the kind, what is written, a catalog note and the source.
Kinds:

    drop_mask  a _sync warp function: the plain one without the mask argument (__shfl_sync(m, v, s) -> __shfl(v, s));
               when the mask is not "all lanes", hipify_check_lanes(m) runs first (a comma expression), from
               hipify_compat.h, which traps if a lane of the mask is not active
    call_text  the whole call becomes the replacement (__activemask() -> __ballot(1))
    helper     the call goes to a helper of hipify_compat.h, written into the file (__syncwarp -> hipify_syncwarp)
    rename     another name (cudaHostAlloc -> hipHostMalloc while hipHostAlloc is deprecated)
    header     a CUDA header maps to another HIP header (cuda_bf16.h -> hip/hip_bfloat16.h before 5.6)
    manual     no faithful equivalent: left for a person, the note says why

Every use is recorded in Result.target_rewrites (line, column, CUDA name, what was written, the rule's `until`,
its note key), which the command line prints and the report lists.
"""

from __future__ import annotations

import os
import re

from rocm_bridge.hipify.index import DATA_DIR
from rocm_bridge.hipify.records import record

RULES_CSV = os.path.join(DATA_DIR, "hipify_target_rules.csv")
COMPAT_H = os.path.join(os.path.dirname(os.path.realpath(__file__)), "hipify_compat.h")

# "all lanes": the full 32-bit (or 64-bit) mask, ~0, -1, or the lanes that are active anyway
FULL_MASK = re.compile(r"^\(?\s*(?:0[xX](?:[fF]{8}){1,2}[uUlL]*|~0[uUlL]*|-1|~0x0|__activemask\s*\(\s*\))\s*\)?$")


@record
class TargetRule:
    cuda_name: str
    until: str  # the ROCm release that makes the rule unnecessary
    kind: str
    replacement: str
    replacement_added: str
    note: str  # catalog key
    source: str


@record
class TargetRewrite:
    """One use of a rule in a file (the report lists each)."""

    line: int
    col: int
    cuda_name: str
    written: str  # what was written ("" = left for a person)
    until: str
    note: str


_rules: dict[str, TargetRule] | None = None


def rules() -> dict[str, TargetRule]:
    """The rules by CUDA name (read once; a plain split, the last column is the quoted source)."""
    global _rules
    if _rules is None:
        import csv

        with open(RULES_CSV, newline="", encoding="utf-8") as fh:
            _rules = {r["cuda_name"]: TargetRule(**r) for r in csv.DictReader(fh)}
    return _rules


def names() -> frozenset[str]:
    """The CUDA names with a rule (checked on translate's contextual path)."""
    return frozenset(rules())


def version_key(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.strip().split("."):
        if not (piece.isascii() and piece.isdigit()):
            break
        parts.append(int(piece))
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts) or (0,)


def applies(rule: TargetRule, target: str) -> bool:
    """True when the target is older than the release that makes the rule unnecessary (a rule without `until`:
    no release has the API, every target)."""
    if not rule.until:
        return True
    return bool(target) and version_key(target) < version_key(rule.until)


def rule_for(name: str, target: str) -> TargetRule | None:
    rule = rules().get(name)
    return rule if rule is not None and applies(rule, target) else None


def full_mask(arg: str, full_names: set[str]) -> bool:
    """True when a mask argument names all lanes (a literal, or a name the file defines as 0xffffffff)."""
    arg = arg.strip()
    return FULL_MASK.match(arg) is not None or arg in full_names


# CUDA's cuda_fp16.hpp overloads every shuffle for __half and __half2; HIP's plain __shfl / __shfl_up / __shfl_down /
# __shfl_xor got those overloads in ROCm 5.6 (ROCm/clr 32a9249d3 "Added support for half/half2 data types for warp
# shuffle functions", in rocm-5.6.0, not in ROCm/hipamd rocm-5.5.1). Before, the plain shuffle a drop_mask rule
# writes does not take them: hipcc 5.2 says "call to '__shfl_xor' is ambiguous" for a __half and "no matching
# function" for a __half2 (tests/test_hipify_target.py). A file that uses a half type then gets 5.6's overloads.
HALF_SHUFFLES = "hipify_shfl_half"  # the section of hipify_compat.h
HALF_SHUFFLES_UNTIL = "5.6"
HALF_SHUFFLES_SOURCE = ("ROCm/clr 32a9249d3 (in rocm-5.6.0; ROCm/hipamd rocm-5.5.1 lacks it): __half / __half2 "
                        "overloads of __shfl, __shfl_up, __shfl_down, __shfl_xor in amd_hip_fp16.h")
_HALF_TYPE = re.compile(r"(?<![\w.])(?:__half2?|half2?|__half2_raw|__half_raw)(?!\w)")


def half_shuffles_needed(rule: TargetRule, target: str, lexed) -> bool:
    """True when a _sync shuffle is written as the plain one for a target before 5.6 in a file whose code (comments
    and literals blanked) uses a half type; the scan runs once per file."""
    if rule.note != "hipify.target.sync_shuffle" or not target or version_key(target) >= version_key(HALF_SHUFFLES_UNTIL):
        return False
    found = getattr(lexed, "_half_types", None)
    if found is None:
        found = lexed._half_types = _HALF_TYPE.search(lexed.masked) is not None
    return found


def helper_sections() -> dict[str, str]:
    """hipify_compat.h's sections by name."""
    with open(COMPAT_H, encoding="utf-8") as fh:
        text = fh.read()
    out: dict[str, str] = {}
    for chunk in re.split(r"^// @@ ", text, flags=re.M)[1:]:
        name, _, body = chunk.partition("\n")
        body = body[:body.rindex("#endif") + len("#endif")]  # comments between sections belong to none
        out[name.strip()] = body.strip() + "\n"
    return out
