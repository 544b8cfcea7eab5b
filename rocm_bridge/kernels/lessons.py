"""What the widget, the handout and the CLI say about each step, built from the recorded (or live) results:
the lesson sentence with its figures filled in, and the per-step table. Headless; text through the catalog."""

from __future__ import annotations

from rocm_bridge import i18n, kernels
from rocm_bridge.kernels import recorded
from rocm_bridge.kernels.compile import StepCompile


def step_name(step_id: str, lang: str) -> str:
    return i18n.t(f"walkthrough.step.{step_id}.name", lang)


def step_label(s: kernels.Step, lang: str) -> str:
    return i18n.t("walkthrough.step_label", lang, n=s.number, name=step_name(s.id, lang))


def lesson_params(s: kernels.Step, run: recorded.RunRecord, comp: recorded.CompileRecord,
                  rows: int = recorded.SIZE[0], cols: int = recorded.SIZE[1]) -> dict[str, str]:
    """The figures a lesson sentence quotes, all read from the records: the speed-up over the step before, the
    share of the copy's bandwidth, the LDS bytes the padding adds."""
    t = run.timing(s.id, rows, cols)
    copy = run.timing(kernels.REFERENCE.id, rows, cols)
    before = kernels.previous(s)
    speedup = run.timing(before.id, rows, cols).median_ms / t.median_ms if before else 1.0
    extra = comp.steps[s.id].lds_bytes - comp.steps[before.id].lds_bytes if before else 0
    return {"speedup": f"{speedup:.2f}", "pct_copy": f"{100 * t.gbs / copy.gbs:.0f}", "lds_extra": str(extra)}


def lesson(s: kernels.Step, lang: str, run: recorded.RunRecord | None = None,
           comp: recorded.CompileRecord | None = None) -> str:
    run = run or recorded.run_record()
    comp = comp or recorded.compile_record()
    return i18n.t(f"walkthrough.step.{s.id}.lesson", lang, **lesson_params(s, run, comp))


def instructions(counts: dict[str, int], lds: bool, none: str) -> str:
    """'global_load_dwordx4 ×1, global_store_dwordx4 ×1' (static counts in the kernel's listing)."""
    picked = [(m, n) for m, n in counts.items() if m.startswith("ds_") == lds and not m.startswith("s_")]
    return ", ".join(f"{m} ×{n}" for m, n in picked) or none


def step_rows(s: kernels.Step, lang: str, comp_step: StepCompile, source: str,
              run: recorded.RunRecord | None = None) -> list[tuple[str, str, str]]:
    """(what, value, where it comes from) for one step: the AMD compile result, then the measured run."""
    run = run or recorded.run_record()
    t = lambda key, **p: i18n.t(key, lang, **p)  # noqa: E731
    none = t("walkthrough.none")
    rows, cols = recorded.SIZE
    timing = run.timing(s.id, rows, cols)
    copy = run.timing(kernels.REFERENCE.id, rows, cols)
    measured = t("walkthrough.src.run", gpu=run.gpu)
    sass = run.sass.get(s.id, {})
    return [
        (t("walkthrough.row.global"), instructions(comp_step.memory, False, none), source),
        (t("walkthrough.row.lds"), instructions(comp_step.memory, True, none), source),
        (t("walkthrough.row.vgprs"), f"{comp_step.vgprs} / {comp_step.sgprs}", source),
        (t("walkthrough.row.lds_bytes"), str(comp_step.lds_bytes), source),
        (t("walkthrough.row.occupancy"), str(comp_step.occupancy if comp_step.occupancy is not None else "?"), source),
        (t("walkthrough.row.block"), f"{s.block[0]} × {s.block[1]} = {s.threads} / {s.per_thread}", s.file),
        (t("walkthrough.row.sass"), ", ".join(f"{m} ×{n}" for m, n in sass.items()) or none, measured),
        (t("walkthrough.row.time", rows=rows, cols=cols), f"{timing.median_ms:.3f} ms", measured),
        (t("walkthrough.row.gbs"), f"{timing.gbs:.0f} GB/s", measured),
        (t("walkthrough.row.pct_copy"), f"{100 * timing.gbs / copy.gbs:.0f}%", measured),
        *counter_rows(s, lang),
    ]


def counter_rows(s: kernels.Step, lang: str) -> list[tuple[str, str, str]]:
    """The hardware counters of the step's CUDA twin (ncu), where the run recorded them."""
    rec = recorded.counter_record()
    if rec is None or s.id not in rec.steps:
        return []
    c = rec.steps[s.id]
    src = i18n.t("walkthrough.src.ncu", lang, gpu=rec.gpu, rows=rec.rows, cols=rec.cols)
    return [
        (i18n.t("walkthrough.row.conflicts", lang), f"{c.bank_conflicts_ld:,.0f} / {c.bank_conflicts_st:,.0f}", src),
        (i18n.t("walkthrough.row.sectors", lang), f"{c.sectors_per_request_ld:.1f} / {c.sectors_per_request_st:.1f}",
         src),
        (i18n.t("walkthrough.row.dram", lang), f"{c.dram_over_ideal(rec.rows, rec.cols):.2f}×", src),
    ]


def published_rows(lang: str) -> list[tuple[str, ...]]:
    """AMD's published figures for the same kernel class, with the bandwidth worked out from the published time."""
    out = []
    for p in recorded.published():
        like = step_label(kernels.step(p.like_step), lang) if p.like_step else "–"
        peak = p.peak_gbs()
        out.append((p.gpu, p.kernel, like, f"{p.rows} × {p.cols} {p.dtype}", f"{p.time_us:g}", f"{p.gbs:.0f}",
                    f"{100 * p.gbs / peak:.0f}%" if peak else "–"))
    return out


def published_sources() -> list[str]:
    """The sources of the published rows, each once, in table order."""
    return list(dict.fromkeys(p.source for p in recorded.published()))


def published_header(lang: str) -> tuple[str, ...]:
    cols = ("gpu", "kernel", "like", "size", "time", "gbs", "peak")
    return tuple(i18n.t(f"walkthrough.published.col.{c}", lang) for c in cols)
