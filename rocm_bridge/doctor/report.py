"""The doctor's report as Markdown (for bug reports) and as plain text lines (for the CLI)."""

from __future__ import annotations

from rocm_bridge.doctor import fixes
from rocm_bridge.doctor.rules import Check, Report
from rocm_bridge.i18n import t

ICONS = {"ok": "✅", "warn": "⚠️", "fail": "❌", "skipped": "⏭️"}


def check_title(c: Check, lang: str) -> str:
    return t(c.title_key, lang)


def check_message(c: Check, lang: str) -> str:
    return t(c.message_key, lang, **c.params)


def fix_steps(c: Check, report: Report, lang: str) -> list[tuple[str, list[str]]]:
    """The fix as (what this step does, its commands): one step per action, rendered from the same actions the
    apply-the-fix test runs; then the check's other commands (diagnostics, alternatives) under the plain label."""
    steps = [(t(fixes.note_key(kind, report.facts), lang), cmds)
             for kind, _, cmds in fixes.render(c.actions, report.facts)]
    done = {cmd for _, cmds in steps for cmd in cmds}
    rest = [cmd for cmd in c.fix if cmd not in done]
    if rest:
        steps.append((t("doctor.fix", lang) + ":", rest))
    return steps


def person_text(c: Check, lang: str) -> str:
    return f"{t('doctor.fix_person', lang)}: {t('doctor.person.' + c.person, lang)}" if c.person else ""


def verdict_text(report: Report, lang: str) -> str:
    v = report.verdict
    if v is None and any(c.outcome == "tf_not_run" for c in report.checks):
        return t("doctor.verdict.partial", lang)
    if v is None:
        return t("doctor.verdict.ok", lang)
    return t(f"doctor.verdict.{v.status}", lang, title=check_title(v, lang)) + " — " + check_message(v, lang)


def versions(report: Report) -> list[tuple[str, str]]:
    """(label, value) pairs of what was detected, for the report's version table."""
    f = report.facts
    tf = f.tensorflow
    dist = f.tf_dist
    rows = [
        ("platform", f.platform),
        ("ROCm", f.rocm_version or "-"),
        ("amdgpu driver", f.amdgpu_version or ("loaded (in-tree)" if f.amdgpu_loaded else "-")),
        ("AMD GPUs", ", ".join(f"{g.name} ({g.gfx})" for g in f.amd_gpus) or "-"),
        ("KFD topology (true gfx)", ", ".join(g.gfx for g in f.kfd_gpus) or "-"),
        ("ROCm layout", {"core_sdk": "ROCm Core SDK (/opt/rocm/core-<ver>)", "legacy": "/opt/rocm-<ver>"}.get(
            f.rocm_layout, "-")),
        ("environment", "WSL2" + (" (/dev/dxg)" if f.dxg_exists else " (no /dev/dxg)") if f.wsl else
         f"{f.container} container" if f.container else "-"),
        ("NVIDIA driver", f.nvidia_driver or "-"),
        ("CUDA (driver)", f.nvidia_cuda or "-"),
        ("NVIDIA GPUs", ", ".join(f"{g.name} (cc {g.compute_capability})" for g in f.nvidia_gpus) or "-"),
        ("Python", f.python),
        ("TensorFlow package", f"{dist[0]}=={dist[1]}" if dist else "-"),
        ("TensorFlow import", f"{tf.status} {tf.version}".strip()),
        ("numpy", f.packages.get("numpy") or "-"),
        ("keras", f.packages.get("keras") or "-"),
    ]
    rows += [(name, value) for name, value in f.env.items()]
    return rows


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(report: Report, lang: str = "en") -> str:
    """A self-contained Markdown report: verdict, checklist, versions, formula, TensorFlow log findings."""
    out = [f"# {t('doctor.report.heading', lang)}", "", f"**{verdict_text(report, lang)}**", ""]
    out += [f"## {t('doctor.checklist', lang)}", ""]
    for c in report.checks:
        out.append(f"- {ICONS[c.status]} **{check_title(c, lang)}** ({t('doctor.status.' + c.status, lang)}): "
                   f"{check_message(c, lang)}")
        for line in c.evidence:
            out.append("  - `" + line.replace("`", "'").replace("\n", " ⏎ ")[:300] + "`")
        if c.status == "fail" and (c.fix or c.person):
            out.append("  - " + t("doctor.fix", lang) + ":")
            for note, cmds in fix_steps(c, report, lang):
                out += [f"    {note}", "    ```", *("    " + cmd for cmd in cmds), "    ```"]
            if c.person:
                out.append(f"    **{person_text(c, lang)}**")
            elif c.actions:
                out.append(f"    _{t('doctor.fix_then_check', lang)}_")
    out += ["", f"## {t('doctor.report.versions', lang)}", "", "| | |", "|---|---|"]
    out += [f"| {_cell(k)} | {_cell(v)} |" for k, v in versions(report)]
    out += ["", f"## {t('doctor.formula.title', lang)}", ""]
    fr = report.formula
    if fr.target_tf:
        out += [t("doctor.formula.target", lang, tf=fr.target_tf), ""]
    if fr.value is None:
        out.append(t("doctor.formula.not_evaluated", lang))
    else:
        out.append(t("doctor.formula.value", lang, value=fr.value))
        if fr.zero_factors:
            out.append(" " + t("doctor.formula.zero", lang, names=", ".join(fr.zero_factors)))
    out += ["", f"| {t('doctor.formula.col_factor', lang)} | {t('doctor.formula.col_installed', lang)} | "
                f"{t('doctor.formula.col_minimum', lang)} | 1[...] |", "|---|---|---|---|"]
    for x in fr.factors:
        value = "-" if x.ok is None else str(int(x.ok))
        out.append(f"| {_cell(t('doctor.formula.factor.' + x.name, lang))} | {_cell(x.installed or '-')} | "
                   f"{_cell(x.minimum or '-')} | {value} |")
    if report.log_findings:
        out += ["", f"## {t('doctor.report.log_findings', lang)}", ""]
        for finding in report.log_findings:
            out.append(f"- **{finding.text('problem', lang)}** {finding.text('fix', lang)} ({finding.source})")
    out += ["", "_rocm_bridge doctor_", ""]
    return "\n".join(out)


def to_text(report: Report, lang: str = "en") -> str:
    """Plain lines for a terminal."""
    lines = [verdict_text(report, lang), ""]
    for c in report.checks:
        lines.append(f"[{c.status.upper():7}] {check_title(c, lang)}: {check_message(c, lang)}")
        if c.status == "fail":
            for note, cmds in fix_steps(c, report, lang):
                lines.append(f"          {note}")
                lines += [f"          $ {cmd}" for cmd in cmds]
            if c.person:
                lines.append(f"          {person_text(c, lang)}")
    fr = report.formula
    lines.append("")
    if fr.value is not None:
        parts = [f"{x.name} {x.installed or '-'} >= {x.minimum}: {int(x.ok)}" for x in fr.factors if x.ok is not None]
        lines.append(f"Compatible = {fr.value}  ({'; '.join(parts)})")
    for finding in report.log_findings:
        lines.append(f"log: {finding.text('problem', lang)}")
    return "\n".join(lines)
