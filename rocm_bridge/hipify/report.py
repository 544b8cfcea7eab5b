"""The translation report: numbers for the page's tables and the text the command line prints to stderr.

The conversion percentage is the course's coverage formula (rocm_bridge.formulas.coverage, chapter 5)
applied to code: R = N_supported / N_total, where N_total counts every reference to a CUDA API name that the
mapping table knows and N_supported those written out in HIP.
"""

from __future__ import annotations

from rocm_bridge.hipify.index import API_GROUPS
from rocm_bridge.hipify.lint import Finding
from rocm_bridge.hipify.messages import t
from rocm_bridge.hipify.records import record
from rocm_bridge.hipify.result import CONVERTED, EXPERIMENTAL, Info, Reference, Result

GROUP_ORDER = {g: i for i, g in enumerate(API_GROUPS)}


@record
class Summary:
    converted: int
    unsupported: int
    experimental: int
    total: int
    percentage: float | None  # None when the code references no CUDA API at all
    lines_changed: int
    lines_total: int
    headers: int
    launches: int
    launches_rewritten: int


def conversion_percentage(n_converted: int, n_total: int) -> float | None:
    """100 x the coverage formula (rocm_bridge.formulas.coverage: R = N_supported / N_total); None when there is
    nothing to convert. The counts come from the translator (0 <= converted <= total), so the formula's input
    checks cannot fail here, and the command line does not import the formulas module (its dataclasses cost more
    than the rest of a one-line run's report); tests/test_hipify_result.py checks both give the same value."""
    if n_total <= 0:
        return None
    return 100.0 * (n_converted / n_total)


def summarize(result: Result) -> Summary:
    converted = unsupported = experimental = 0
    for counts in result.counts_by_group().values():
        converted += counts.get(CONVERTED, 0)
        experimental += counts.get(EXPERIMENTAL, 0)
        unsupported += counts.get("unsupported", 0)
    total = converted + unsupported + experimental
    lines_total = result.source.count("\n") + (0 if result.source.endswith("\n") or not result.source else 1)
    return Summary(
        converted, unsupported, experimental, total, conversion_percentage(converted, total),
        result.lines_changed, lines_total,
        sum(1 for h in result.headers), len(result.launches), sum(1 for x in result.launches if x.rewritten),
    )


def group_rows(result: Result) -> list[dict[str, object]]:
    """One row per API group: converted / unsupported / experimental counts."""
    rows = []
    for group, counts in sorted(result.counts_by_group().items(), key=lambda kv: GROUP_ORDER.get(kv[0], 99)):
        rows.append({
            "api_group": group,
            "converted": counts.get(CONVERTED, 0),
            "unsupported": counts.get("unsupported", 0),
            "experimental": counts.get(EXPERIMENTAL, 0),
        })
    return rows


def reason(ref: Reference | Info, lang: str) -> str:
    if ref.status == EXPERIMENTAL:
        return t("hipify.reason.experimental", lang, version=ref.hip_experimental)
    return t("hipify.reason.unsupported", lang, library=ref.library)


def version_note(ref: Reference | Info, lang: str) -> str:
    parts = []
    if ref.cuda_deprecated:
        parts.append(t("hipify.version.cuda_deprecated", lang, version=ref.cuda_deprecated))
    if ref.cuda_removed:
        parts.append(t("hipify.version.cuda_removed", lang, version=ref.cuda_removed))
    if ref.hip_deprecated:
        parts.append(t("hipify.version.hip_deprecated", lang, version=ref.hip_deprecated, name=ref.hip_name))
    if ref.hip_removed:
        parts.append(t("hipify.version.hip_removed", lang, version=ref.hip_removed, name=ref.hip_name))
    return "; ".join(parts)


def unconverted_rows(result: Result, lang: str) -> list[dict[str, object]]:
    return [
        {"line": r.line, "col": r.col, "name": r.name, "api_group": r.api_group, "reason": reason(r, lang)}
        for r in result.unconverted
    ]


def deprecated_rows(result: Result, lang: str) -> list[dict[str, object]]:
    return [
        {"line": r.line, "col": r.col, "name": r.name, "hip_name": r.hip_name, "note": version_note(r, lang)}
        for r in result.deprecated
    ]


def lint_rows(findings: list[Finding], lang: str) -> list[dict[str, object]]:
    return [
        {"line": f.line, "col": f.col, "severity": f.severity, "rule": t(f.title_key, lang),
         "why": t(f.why_key, lang), "fix": t(f.fix_key, lang), "code": f.excerpt}
        for f in findings
    ]


def warning_lines(result: Result, findings: list[Finding], name: str, lang: str) -> list[str]:
    """file:line:col lines, like a compiler's, for unconverted / deprecated references, notes and lint.

    Each message is made once per distinct record or lint rule (a large file repeats a few hundred of them
    thousands of times) and the references are read as positions, without building a Reference each."""
    out: list[tuple[int, int, str]] = []
    refs = result.references
    said: dict[object, str] = {}
    for line, col, info in refs.where(lambda i: i.status != CONVERTED):
        msg = said.get(("u", info))
        if msg is None:
            msg = said[("u", info)] = t("hipify.cli.warn_unconverted", lang, name=info.name, reason=reason(info, lang))
        out.append((line, col, msg))
    for line, col, info in refs.where(lambda i: i.deprecated):
        msg = said.get(("d", info))
        if msg is None:
            msg = said[("d", info)] = t("hipify.cli.warn_deprecated", lang, name=info.name,
                                       note=version_note(info, lang))
        out.append((line, col, msg))
    for key, line, col in result.notes:
        if line:
            out.append((line, col, t(key, lang)))
    for launch in result.launches:
        if launch.reason:
            out.append((launch.line, launch.col, t(launch.reason, lang)))
    for rw in result.target_rewrites:  # --rocm-version (rocm_bridge.hipify.target): every use of a rule
        key = ("hipify.target.used" if rw.until else "hipify.target.helper") if rw.written else "hipify.target.left"
        out.append((rw.line, rw.col, t(key, lang, name=rw.cuda_name, written=rw.written, until=rw.until,
                                       target=result.options.rocm_version, why=t(rw.note, lang))))
    for wr in result.wave_rewrites:  # --wavefront (rocm_bridge.hipify.wavefront)
        out.append((wr.line, wr.col, t("hipify.wave.rewrite", lang, before=wr.before, after=wr.after,
                                       why=t(f"hipify.wave.{wr.rule}", lang))))
    for f in findings:
        msg = said.get(("l", f.rule, f.severity))
        if msg is None:
            msg = said[("l", f.rule, f.severity)] = t("hipify.cli.warn_lint", lang, severity=f.severity,
                                                      title=t(f.title_key, lang), fix=t(f.fix_key, lang))
        out.append((f.line, f.col, msg))
    out.sort(key=lambda x: (x[0], x[1]))
    return [f"{name}:{line}:{col}: {msg}" for line, col, msg in out]


def summary_line(result: Result, name: str, lang: str) -> str:
    s = summarize(result)
    pct = "n/a" if s.percentage is None else f"{s.percentage:.1f} %"
    return t("hipify.cli.summary", lang, name=name, converted=s.converted, total=s.total, pct=pct,
             unconverted=s.unsupported + s.experimental, lines=s.lines_changed)


def stats_text(result: Result, findings: list[Finding], name: str, lang: str) -> str:
    """The --print-stats block: per-group table, headers, launches, lines changed, lint counts."""
    s = summarize(result)
    pct = "n/a" if s.percentage is None else f"{s.percentage:.1f} %"
    lines = [t("hipify.cli.stats_title", lang, name=name)]
    lines.append("  " + t("hipify.cli.stats_refs", lang, converted=s.converted, unsupported=s.unsupported,
                          experimental=s.experimental, total=s.total))
    lines.append("  " + t("hipify.cli.stats_pct", lang, pct=pct))
    rows = group_rows(result)
    if rows:
        lines.append("  " + f"{'API group':<10} {'converted':>10} {'unsupported':>12} {'experimental':>13}")
        for row in rows:
            lines.append("  " + f"{row['api_group']:<10} {row['converted']:>10} {row['unsupported']:>12} "
                                f"{row['experimental']:>13}")
    lines.append("  " + t("hipify.cli.stats_headers", lang, n=s.headers))
    lines.append("  " + t("hipify.cli.stats_launches", lang, n=s.launches, rewritten=s.launches_rewritten))
    lines.append("  " + t("hipify.cli.stats_lines", lang, changed=s.lines_changed, total=s.lines_total))
    by_sev: dict[str, int] = {}
    for f in findings:
        by_sev[f.severity] = by_sev.get(f.severity, 0) + 1
    lines.append("  " + t("hipify.cli.stats_lint", lang, errors=by_sev.get("error", 0),
                          warnings=by_sev.get("warning", 0), infos=by_sev.get("info", 0)))
    return "\n".join(lines)


def minimum_rocm_lines(minimum, name: str, lang: str, limit: int = 8) -> list[str]:
    """The minimum-ROCm line for stderr, then one file:line:col warning per API newer than --rocm-version."""
    from rocm_bridge.hipify.minrocm import short

    if not minimum.version:
        return []
    raising = minimum.raising
    if raising:
        shown = ", ".join(f"{r.hip_name} {short(r.added)}" for r in raising[:limit])
        if len(raising) > limit:
            shown += t("hipify.minrocm.more", lang, n=len(raising) - limit)
        lines = [t("hipify.minrocm.line", lang, name=name, version=minimum.version, apis=shown)]
    else:
        lines = [t("hipify.minrocm.line_any", lang, name=name, version=minimum.version)]
    for r in minimum.too_new:
        lines.append(f"{name}:{r.line}:{r.col}: " + t("hipify.minrocm.too_new", lang, hip=r.hip_name, cuda=r.cuda_name,
                                                       added=short(r.added), target=minimum.target))
    return lines


def minimum_rows(minimum, lang: str) -> list[dict[str, object]]:
    """Rows for the page's table: the APIs that raise the minimum, newest first."""
    from rocm_bridge.hipify.minrocm import _key, short

    target = minimum.target
    return [
        {"hip_name": r.hip_name, "cuda_name": r.cuda_name, "added": short(r.added), "line": r.line, "uses": r.uses,
         "too_new": bool(target) and _key(r.added) > _key(target)}
        for r in minimum.raising
    ]
