"""--rocm-version rewrites of the translator: the calls of data/hipify_target_rules.csv that a target release
older than the rule's `until` does not have (the _sync shuffles and votes, cudaHostAlloc, the bfloat16 names ...)
renamed, given a comment, their mask dropped or checked, or left for a person (rocm_bridge.hipify.target holds
the rules). Also CUDA's SIMD-in-a-word intrinsics, which no HIP has, written as helpers of hipify_compat.h, and
the edit that pastes the helper sections a file needs after its last top-level #include.
"""

from __future__ import annotations

import re

from rocm_bridge.hipify.args import Rule
from rocm_bridge.hipify.calls import call_args
from rocm_bridge.hipify.includes import after_guard, insert_lines
from rocm_bridge.hipify.lexer import Lexed
from rocm_bridge.hipify.result import Result

TYPE_CHECKING = False  # not typing's: the one-line CLI run imports no typing (tests/test_hipify_result.py)
if TYPE_CHECKING:
    from rocm_bridge.hipify.translator import Options

TARGET_NAMES = ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
                 "__all_sync", "__activemask", "__syncwarp", "cudaHostAlloc", "__nv_bfloat16", "__nv_bfloat162",
                 "__match_any_sync", "__match_all_sync", "__bfloat162float", "__float2bfloat16")
# CUDA's SIMD-in-a-word intrinsics, which no HIP has: a helper of hipify_compat.h for every target (rules with no
# `until`)
HELPER_CALLS = frozenset(f"__{n}" for n in (
    "vadd2", "vsub2", "vmaxs2", "vmins2", "vmaxu2", "vminu2", "vabsdiffu2", "vadd4", "vsub4", "vmaxs4", "vmins4",
    "vmaxu4", "vminu4", "vabsdiffu4", "vabsdiffs4", "vavgu4", "vcmpeq4", "vcmpgtu4", "vcmpges4", "vsadu4"))
# (the names of data/hipify_target_rules.csv but its header rule: tests/test_hipify_target.py keeps them equal)


def target_rewrite(lexed: Lexed, name: str, start: int, end: int, hip: str, opts: Options, edits: list,
                    regroups: list, result: Result, line: int, col: int) -> str:
    """--rocm-version: the rule of data/hipify_target_rules.csv for `name` when the target is older than the rule's
    `until` (rocm_bridge.hipify.target). Returns the name to write ("" = left for a person); records the use."""
    from rocm_bridge.hipify import target as tg

    rule = tg.rule_for(name, opts.rocm_version)
    if rule is None or rule.kind == "header":
        return hip
    written = rule.replacement
    kind = rule.kind
    if kind == "manual":
        written = ""
    elif kind == "rename":
        args = call_args(lexed, end)
        if args is not None:
            edits.append((args[1] + 1, args[1] + 1, f" /* hipify: {name} -> {written} before ROCm {rule.until} */"))
    else:
        args = call_args(lexed, end)
        if args is None:
            written = ""  # not a call (a function pointer, a macro argument): left for a person
        elif kind == "drop_mask":
            spans, close = args
            if not spans:
                return hip
            regroups.append((spans, Rule("hip", None, (("remove", 0, ""),))))
            mask = lexed.text[spans[0][0]:spans[0][1]]
            if tg.full_mask(mask, _full_mask_names(lexed)):
                comment = f"/* hipify: {name} before ROCm {rule.until}; the mask named all lanes */"
            else:
                edits.append((start, start, f"(hipify_check_lanes({mask}), "))
                edits.append((close + 1, close + 1, ")"))
                _want_helper(result, "hipify_check_lanes")
                comment = f"/* hipify: {name} before ROCm {rule.until}; its lanes are checked */"
            edits.append((close + 1, close + 1, " " + comment))
            if tg.half_shuffles_needed(rule, opts.rocm_version, lexed):
                _want_helper(result, tg.HALF_SHUFFLES)  # HIP's plain shuffles take __half / __half2 from 5.6
        elif kind == "call_text":
            spans, close = args
            if spans:
                written = ""
            else:
                edits.append((end, close + 1, f" /* hipify: {name}() before ROCm {rule.until} */"))
        elif kind == "helper":
            _want_helper(result, written)
            edits.append((args[1] + 1, args[1] + 1, f" /* hipify: {name} before ROCm {rule.until} */"))
    result.target_rewrites.append(tg.TargetRewrite(line, col, name, written, rule.until, rule.note))
    return written


def helper_call(name: str, line: int, col: int, result: Result) -> str:
    """A CUDA intrinsic no HIP has, written as the helper of hipify_compat.h that the file then gets."""
    from rocm_bridge.hipify import target as tg

    rule = tg.rules()[name]
    _want_helper(result, rule.replacement)
    result.target_rewrites.append(tg.TargetRewrite(line, col, name, rule.replacement, rule.until, rule.note))
    return rule.replacement


def _want_helper(result: Result, section: str) -> None:
    if section not in result.helpers:
        result.helpers.append(section)


def _full_mask_names(lexed: Lexed) -> set[str]:
    """Names the file defines as the full 32-bit mask (#define FULL 0xffffffff, const unsigned FULL = ...)."""
    if lexed._full_masks is None:
        from rocm_bridge.hipify.lint import MASK_NAME_DEFS

        masked = lexed.masked
        lexed._full_masks = {m.group(1) for p in MASK_NAME_DEFS for m in re.finditer(p, masked)} \
            if ("0x" in masked or "0X" in masked) else set()
    return lexed._full_masks


def helper_edit(lexed: Lexed, result: Result) -> tuple[int, int, str]:
    """The helpers of hipify_compat.h the file needs, written after its last top-level #include (else where
    hip_runtime.h goes)."""
    from rocm_bridge.hipify.target import helper_sections

    sections = helper_sections()
    body = ["// hipify: helpers for the target ROCm release (rocm_bridge/hipify/hipify_compat.h)"]
    for name in result.helpers:
        body.extend(sections[name].rstrip("\n").split("\n"))
    pos = None
    if lexed.includes:
        cond = lexed.conditionals
        top = [e for s, e in lexed.includes if cond.depth(s) == cond.base_depth]
        if top:
            nl = lexed.text.find("\n", top[-1])
            pos = len(lexed.text) if nl == -1 else nl + 1
    if pos is None:
        pos = after_guard(lexed)
    return insert_lines(lexed, pos, body)
