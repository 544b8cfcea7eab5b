"""CUDA -> HIP source translation driven by data/hipify_mappings.csv: the driver, `translate`, and its Options.

Three passes over the text, each a lexer scan (rocm_bridge.hipify.lexer) so nothing inside a comment, a string,
a character literal or an include path is touched:

1. rename: every code identifier that is a CUDA API name in the active table (exact names only, so a user's
   `cudaCheck` stays) is replaced; `#define` bodies and macro arguments are code and are renamed too. Context
   rewrites happen here: overloads chosen by argument count (cudaEventCreate(&e, flags) ->
   hipEventCreateWithFlags), HIP_SYMBOL(...) around the symbol argument of the *Symbol* APIs, cub:: -> hipcub::,
   includes mapped through data/hipify_headers.csv, and hip/hip_runtime.h added to files with device code.
2. launch (only with kernel_syntax): k<<<g, b, s, st>>>(args) -> hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st,
   args), HIP_KERNEL_NAME(...) around template kernels.
3. lint is separate (rocm_bridge.hipify.lint) and reads the original text.

Where each part lives: the token pass in rename.py, its argument-dependent rewrites in calls.py, the
--rocm-version rewrites and hipify_compat.h helpers in target_rewrites.py, includes in includes.py, launches in
launch.py, --wavefront in wavefront.py. This module runs them in order, applies the edits and handles
--skip-excluded-preprocessor-conditional-blocks. Every reference found is recorded for the report
(rocm_bridge.hipify.report).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rocm_bridge.hipify import headers as hdr
from rocm_bridge.hipify.calls import OVERLOADS, SYMBOL_ARGS  # noqa: F401  (re-exported)
from rocm_bridge.hipify.edits import apply_edits
from rocm_bridge.hipify.includes import map_includes
from rocm_bridge.hipify.index import active_map, target_groups
from rocm_bridge.hipify.lexer import Lexed, lex, split_include
from rocm_bridge.hipify.records import record
from rocm_bridge.hipify.rename import inside, rename
from rocm_bridge.hipify.result import (  # noqa: F401  (re-exported: the public names of the translator)
    CONVERTED,
    EXPERIMENTAL,
    UNSUPPORTED,
    HeaderChange,
    Info,
    Launch,
    Reference,
    References,
    Result,
)
from rocm_bridge.hipify.target_rewrites import helper_edit

DEVICE_CODE = re.compile(
    r"\b(?:__global__|__device__|__shared__|__constant__|__managed__|threadIdx|blockIdx|blockDim|gridDim"
    r"|__syncthreads)\b"
)


@record
class Options:
    roc: bool = False  # --roc: rocBLAS / rocSPARSE / rocSOLVER / rocRAND instead of the hip* wrappers
    miopen: bool = False  # --miopen: cuDNN -> MIOpen instead of hipDNN
    experimental: bool = False  # --experimental: also apply mappings HIPIFY marks experimental
    kernel_syntax: bool = False  # --hip-kernel-execution-syntax: <<<>>> -> hipLaunchKernelGGL
    skip_excluded: bool = False  # --skip-excluded-preprocessor-conditional-blocks (rocm_bridge.hipify.ppeval)
    defines: tuple[str, ...] = ()  # -D NAME[=VALUE], for skip_excluded
    amap: bool = False  # --amap: with skip_excluded, still rename the CUDA names in the skipped branches
    rocm_version: str = ""  # --rocm-version: the target release ("" = the newest the table knows: no target rule)
    wavefront: bool = False  # --wavefront: rewrite the provable warp-32 idioms for any wavefront size (wavefront.py)

    @property
    def roc_groups(self) -> tuple[str, ...]:
        return target_groups(self.roc, self.miopen)


def translate(text: str, options: Options | None = None) -> Result:
    """Translate CUDA source text to HIP. Never raises on any str input."""
    opts = options or Options()
    result = Result(text, text, opts)
    lexed = lex(text, active_map(opts.roc, opts.miopen))
    result.lexed = lexed
    for offset, what in lexed.unterminated:
        line, col = lexed.line_col(offset)
        result.notes.append((f"hipify.note.unterminated_{what}", line, col))
    if opts.skip_excluded and lexed.conditionals.directives:
        _skip_excluded(lexed, opts, result)
    edits, renames_listed = rename(lexed, opts, result)
    has_device = bool(lexed.launches) or (DEVICE_CODE.search(text) is not None
                                           and DEVICE_CODE.search(lexed.masked) is not None)
    has_api_include = any(hdr.HIP_RUNTIME_API in text[s:e] or "cuda_runtime_api.h" in text[s:e]
                          for s, e in lexed.includes)
    edits += map_includes(lexed, opts, result, has_device, has_api_include)
    if opts.wavefront:
        # a target older than 6.2 drops the _sync masks (data/hipify_target_rules.csv): nothing to widen there
        from rocm_bridge.hipify.target import rule_for
        from rocm_bridge.hipify.wavefront import rewrites

        masks = rule_for("__shfl_sync", opts.rocm_version) is None
        wave_edits, result.wave_rewrites = rewrites(lexed, result.skipped, masks=masks)
        edits += wave_edits
    if result.helpers:
        edits.append(helper_edit(lexed, result))
    if ("_H" in text or "CUSPARSEAPI" in text) and "#" in text:  # every guard macro but one ends in _H_ / _H__
        from rocm_bridge.hipify.preproc import guard_edits

        for start, end, _name, guard in guard_edits(lexed.masked, lexed.conditionals, opts.roc_groups):
            if inside(result.skipped, start):
                continue
            edits.append((start, end, guard))
            result.notes.append(("hipify.tr.guard_macro", *lexed.line_col(start)))
    lines = result.changed_lines
    for start, _end, _repl in edits:
        lines.add(lexed.line_of(start))
    out = apply_edits(text, edits, () if renames_listed else result.references.edits())
    if not renames_listed:
        result.defer_rename_lines()  # their lines join changed_lines when it is first read
    if lexed.launches:
        from rocm_bridge.hipify.launch import rewrite_launches

        out = rewrite_launches(out, lexed, opts, result)
    result.output = out
    if not result.references and not lexed.includes and not lexed.launches and not has_device:
        result.notes.append(("hipify.note.no_cuda", 0, 0))
    return result


def _skip_excluded(lexed: Lexed, opts: Options, result: Result) -> None:
    """--skip-excluded-preprocessor-conditional-blocks: drop what lies in the branches a CUDA compile skips from
    the scan, so nothing there is renamed, mapped or launched (rocm_bridge.hipify.ppeval).

    With --amap (HIPIFY PR #1302: "hipify as much as possible ignoring 'default-preprocessor' behavior") the
    CUDA names in those branches are renamed all the same, as hipify-clang's raw-token pass does; their includes,
    launches and argument rewrites stay as they are (hipify-clang does those on clang's AST, which has no skipped
    branch in it)."""
    from rocm_bridge.hipify.ppeval import excluded_ranges

    paths = []
    for start, end in lexed.includes:
        parts = split_include(lexed.text[start:end])
        if parts is not None:
            paths.append((start, parts[2]))
    ranges = excluded_ranges(lexed.text, lexed.masked, lexed.conditionals, paths, opts.defines)
    if not ranges:
        return
    result.skipped = ranges
    if not opts.amap:  # --amap: their names are still renamed (rocm_bridge.hipify.rename.rename)
        lexed.keep_ids(lambda start: not inside(ranges, start))
    lexed.includes = [t for t in lexed.includes if not inside(ranges, t[0])]
    lexed.excluded_launches = {k for k, p in enumerate(lexed.launches) if inside(ranges, p)}
    note = "hipify.tr.skipped_block_amap" if opts.amap else "hipify.tr.skipped_block"
    for start, _end in ranges:
        result.notes.append((note, lexed.line_of(max(start - 1, 0)), 1))


@lru_cache(maxsize=16)
def translate_cached(text: str, options: Options) -> Result:
    """translate() memoised on (text, options): the page re-renders the same input many times."""
    return translate(text, options)
