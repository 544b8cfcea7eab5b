"""Wavefront-correct code (`--wavefront`): rewrite the warp-32 idioms the lint can prove, for any wavefront size.

CUDA warps have 32 lanes; AMD CDNA GPUs (gfx9: MI100 ... MI300) run 64-lane wavefronts and RDNA GPUs 32 (wave32)
or 64. HIP's `warpSize` holds the size at run time, so a rewrite in terms of warpSize is right on both. Only
what is provably lane arithmetic is rewritten; everything else stays a lint finding with its exact line.

    shuffle reduction   for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(m, v, o);   16 -> warpSize / 2
                        (the loop variable must be an argument of a __shfl_down / __shfl_xor / __shfl_up call
                        in the loop's body; `o >>= 1` and `o > 0` / `o >= 1` / `o != 0` too)
    butterfly up        for (int o = 1; o < 32; o *= 2) ... __shfl_xor...(.., o)        32 -> warpSize
    lane / warp id      threadIdx.x % 32 -> threadIdx.x % warpSize, threadIdx.x / 32 -> / warpSize,
                        threadIdx.x & 31 -> & (warpSize - 1), threadIdx.x >> 5 -> / warpSize
                        (only right after threadIdx.x / .y / .z: a variable named lane or tid is not proof)
    full lane mask      the mask argument of a _sync warp function written as 0xffffffff -> ~0ull (HIP's
                        _sync functions take a 64-bit mask; all ones names every lane on 64 and on 32 lanes)

Each rewrite is a `WaveRewrite` (line, column, before, after, rule) in Result.wave_rewrites, listed by the report.
"""

from __future__ import annotations

import re

from rocm_bridge.hipify.records import record

_SHFL = r"__shfl_(?:down|xor|up)(?:_sync)?[ \t]*\("
# for ( [type] v = 16 ; v > 0 ; v /= 2 )  -- group 1: the variable, group 2: the start value
_DOWN_LOOP = re.compile(
    r"for[ \t]*\([ \t]*(?:(?:unsigned|signed|int|auto|const|long|short|size_t|uint32_t|int32_t)[ \t]+)*"
    r"(\w+)[ \t]*=[ \t]*(16)[ \t]*;[ \t]*\1[ \t]*(?:>[ \t]*0|>=[ \t]*1|!=[ \t]*0)[ \t]*;[ \t]*"
    r"(?:\1[ \t]*/=[ \t]*2|\1[ \t]*>>=[ \t]*1|\1[ \t]*=[ \t]*\1[ \t]*/[ \t]*2|\1[ \t]*=[ \t]*\1[ \t]*>>[ \t]*1)"
    r"[ \t]*\)")
# for ( [type] v = 1 ; v < 32 ; v *= 2 )  -- group 1: the variable, group 2: the bound
_UP_LOOP = re.compile(
    r"for[ \t]*\([ \t]*(?:(?:unsigned|signed|int|auto|const|long|short|size_t|uint32_t|int32_t)[ \t]+)*"
    r"(\w+)[ \t]*=[ \t]*1[ \t]*;[ \t]*\1[ \t]*<[ \t]*(32)[ \t]*;[ \t]*"
    r"(?:\1[ \t]*\*=[ \t]*2|\1[ \t]*<<=[ \t]*1|\1[ \t]*=[ \t]*\1[ \t]*\*[ \t]*2|\1[ \t]*=[ \t]*\1[ \t]*<<[ \t]*1)"
    r"[ \t]*\)")
_LANE = re.compile(r"threadIdx[ \t]*\.[ \t]*[xyz][ \t]*(%[ \t]*32|/[ \t]*32|&[ \t]*31|>>[ \t]*5)(?![\w.])")
_SYNC_CALL = re.compile(r"__(?:shfl(?:_up|_down|_xor)?|ballot|any|all|match_any|match_all|syncwarp)_sync[ \t]*\(|"
                        r"__syncwarp[ \t]*\(")
_MASK32 = re.compile(r"0[xX][fF]{8}(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)?$")
_LANE_NEW = {"%": "% warpSize", "/": "/ warpSize", "&": "& (warpSize - 1)", ">": "/ warpSize"}


@record
class WaveRewrite:
    line: int
    col: int
    before: str
    after: str
    rule: str  # reduction | butterfly | lane | mask


def _body_end(masked: str, pos: int, lexed) -> int:
    """End of the statement or block that starts at or after pos."""
    while pos < len(masked) and masked[pos] in " \t\r\n":
        pos += 1
    if pos < len(masked) and masked[pos] == "{":
        close = lexed.brackets()[0].get(pos)
        return len(masked) if close is None else close
    end = masked.find(";", pos)
    return len(masked) if end == -1 else end


def _uses_in_shuffle(masked: str, var: str, start: int, end: int) -> bool:
    """True when var is a whole argument word of a shuffle call between start and end."""
    for m in re.finditer(_SHFL, masked[start:end]):
        call_end = masked.find(";", start + m.end())
        args = masked[start + m.end():end if call_end == -1 else min(call_end, end)]
        if re.search(r"(?<![\w.])" + re.escape(var) + r"(?!\w)", args):
            return True
    return False


def rewrites(lexed, skip=(), masks: bool = True) -> tuple[list[tuple[int, int, str]], list[WaveRewrite]]:
    """(edits, what each does) for the provable warp-32 idioms of the text (masked: comments and literals are
    never touched). `skip`: ranges to leave (branches a --skip-excluded run skips)."""
    masked = lexed.masked
    edits: list[tuple[int, int, str]] = []
    out: list[WaveRewrite] = []

    def add(s: int, e: int, new: str, rule: str) -> None:
        if any(a <= s < b for a, b in skip):
            return
        edits.append((s, e, new))
        line, col = lexed.line_col(s)
        out.append(WaveRewrite(line, col, lexed.text[s:e], new, rule))

    if "__shfl" in masked:
        for pattern, new, rule in ((_DOWN_LOOP, "warpSize / 2", "reduction"), (_UP_LOOP, "warpSize", "butterfly")):
            for m in pattern.finditer(masked):
                if m.start() and masked[m.start() - 1] in _WORD:
                    continue
                body_end = _body_end(masked, m.end(), lexed)
                if _uses_in_shuffle(masked, m.group(1), m.end(), body_end + 1):
                    add(m.start(2), m.end(2), new, rule)
    if "threadIdx" in masked:
        for m in _LANE.finditer(masked):
            op = m.group(1)
            add(m.start(1), m.end(1), _LANE_NEW[op[0]], "lane")
    if masks and "_sync" in masked:
        for m in _SYNC_CALL.finditer(masked):
            if m.start() and masked[m.start() - 1] in _WORD or "syncwarp" in m.group():
                continue
            group = lexed.group(m.end() - 1)
            if group is None:
                continue
            first_end = group[1][0] if group[1] else group[0]
            s, e = lexed.strip(m.end(), first_end)
            if _MASK32.match(lexed.text[s:e]):
                add(s, e, "~0ull", "mask")
    edits.sort()
    out.sort(key=lambda w: (w.line, w.col))
    return edits, out


_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def simulate_reduction(start: str, cond: str, step: str, kind: str, lanes: int, values: list[int],
                       width: int | None = None) -> list[int]:
    """Run a shuffle-reduction loop `for (o = start; cond; step) v += __shfl_<kind>(v, o[, width])` over one
    wavefront of `lanes` lanes, as the hardware does (every lane reads its source lane's value before any writes;
    a lane whose source is outside its width segment keeps its own value, as CUDA and HIP specify). The C
    expressions are evaluated with warpSize = lanes: the loop header is taken from the translated text."""
    env = {"warpSize": lanes}
    width = width or lanes
    v = list(values)
    o = _c_eval(start, env)
    while _c_eval(cond, {**env, "o": o}):
        src = []
        for lane in range(lanes):
            base = lane - lane % width
            if kind == "down":
                s = lane + o
                src.append(s if s < base + width else lane)
            elif kind == "up":
                s = lane - o
                src.append(s if s >= base else lane)
            else:  # xor
                s = lane ^ o
                src.append(s if base <= s < base + width else lane)
        v = [v[lane] + v[src[lane]] for lane in range(lanes)]
        o = _c_eval(step, {**env, "o": o})
    return v


def _c_eval(expr: str, env: dict[str, int]) -> int:
    """A C integer expression of the loop header (o /= 2, o >>= 1, warpSize / 2, o > 0 ...) in env."""
    expr = expr.strip()
    m = re.fullmatch(r"(\w+)\s*(/=|>>=|\*=|<<=)\s*(\d+)", expr)
    if m:
        a, op, b = env[m.group(1)], m.group(2), int(m.group(3))
        return {"/=": a // b if b else 0, ">>=": a >> b, "*=": a * b, "<<=": a << b}[op]
    py = re.sub(r"(\w+)", lambda w: str(env[w.group(1)]) if w.group(1) in env else w.group(1), expr)
    if not re.fullmatch(r"[\d\s+\-*/<>=!()]+", py):
        raise ValueError(f"not a loop-header expression: {expr!r}")
    return int(eval(py.replace("/", "//")))  # noqa: S307 (digits and operators only, checked above)
