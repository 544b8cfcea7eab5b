"""Applying edits to a text: the last step of a translation (rocm_bridge.hipify.translator).

An edit is (start, end, replacement) on the original text: a rename, an insertion (start == end) or a
replacement of a whole argument list (regroup: arguments reordered for MIOpen, or rewritten by a rule of
rocm_bridge.hipify.args).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from rocm_bridge.hipify.args import Rule, rewrite

_FLUSH = 4096  # apply_edits appends its pieces to the output every this many


def apply_edits(text: str, edits: list[tuple[int, int, str]], renames=()) -> str:
    """text with the edits applied (sorted by (start, end), stable; an edit overlapping an earlier one is dropped).

    renames: more edits, already in offset order and none of zero width (References.edits()); on an equal
    (start, end) they go before the listed edits, which are the ones added after them.

    Memory: every _FLUSH edits the pieces are joined and appended to the result with +=, which CPython does in
    place (a str nothing else refers to is resized, not copied), so neither ~200k small strings nor a list of
    chunks as large as the output lives beside it: the peak is the output and one chunk."""
    edits.sort(key=lambda e: (e[0], e[1]))
    result = ""
    out: list[str] = []
    last = 0
    inf = float("inf")
    extra = iter(edits)
    nxt = next(extra, None)
    ns, ne = (nxt[0], nxt[1]) if nxt else (inf, inf)
    for start, end, repl in renames:
        while ns < start or (ns == start and ne < end):
            if ns >= last:
                out.append(text[last:ns])
                out.append(nxt[2])
                last = ne
            nxt = next(extra, None)
            ns, ne = (nxt[0], nxt[1]) if nxt else (inf, inf)
        if start < last:  # overlapping edit: keep the first one
            continue
        out.append(text[last:start])
        out.append(repl)
        last = end
        if len(out) > _FLUSH:
            result += "".join(out)
            out.clear()
    while nxt is not None:
        if ns >= last:
            out.append(text[last:ns])
            out.append(nxt[2])
            last = ne
        nxt = next(extra, None)
        ns, ne = (nxt[0], nxt[1]) if nxt else (inf, inf)
    if last == 0 and not result and not out:  # nothing edited (or only empty insertions at 0)
        return text
    out.append(text[last:])
    result += "".join(out)
    return result


def regroup(text: str, edits: list[tuple[int, int, str]], regroups: list) -> list[tuple[int, int, str]]:
    """Replace each reordered argument list by reorder(argument texts), with the renames inside it applied.

    Edits are sorted once and found by bisection, so thousands of such calls stay linear."""
    edits.sort(key=lambda e: (e[0], e[1]))
    starts = [e[0] for e in edits]
    dropped: set[int] = set()
    added: list[tuple[int, int, str]] = []
    for spans, reorder in regroups:
        lo, hi = spans[0][0], spans[-1][1]
        first, last = bisect_left(starts, lo), bisect_right(starts, hi)
        inner = [(k, edits[k]) for k in range(first, last) if edits[k][1] <= hi and k not in dropped]
        texts = []
        for s, e in spans:
            texts.append(apply_edits(text[s:e], [(a - s, b - s, r) for _k, (a, b, r) in inner if s <= a and b <= e]))
        seps = [text[spans[i][1]:spans[i + 1][0]] for i in range(len(spans) - 1)]
        if isinstance(reorder, Rule):
            new = None
            body = rewrite(texts, seps, reorder)
            body += "\n" * max(text.count("\n", lo, hi) - body.count("\n"), 0)
        else:
            new = reorder(texts)
        # keep the original separators when the count is unchanged (layout, newlines); else join with ", "
        if new is None:
            pass
        elif len(new) == len(texts):
            body = new[0] + "".join(sep + arg for sep, arg in zip(seps, new[1:], strict=True))
        else:
            body = ", ".join(new)
            body += "\n" * max(text.count("\n", lo, hi) - body.count("\n"), 0)
        dropped.update(k for k, _ in inner)
        added.append((lo, hi, body))
    return [e for k, e in enumerate(edits) if k not in dropped] + added
