"""The project view: a tree of CUDA sources and build files in, a migrated tree and one report out.

The report covers every file: per source file the conversion percentage (the coverage formula), what is left
for a person, the lint findings and the minimum ROCm of its output; per build file what was changed and what
needs a person; for the whole project the minimum ROCm (the newest of the files') and, with a target release,
every API that will not compile there. `report_markdown` is the HIPIFY_REPORT.md written next to the migrated
files (command line tree mode and the page's zip download); `report_json` the same as data.
"""

from __future__ import annotations

from rocm_bridge.hipify import buildfiles
from rocm_bridge.hipify.lint import Finding
from rocm_bridge.hipify.minrocm import FLOOR, MinimumRocm, _key, minimum_rocm, short
from rocm_bridge.hipify.records import record
from rocm_bridge.hipify.report import summarize
from rocm_bridge.hipify.translator import Options, Result

REPORT_MD = "HIPIFY_REPORT.md"
REPORT_JSON = "hipify_report.json"


@record
class SourceEntry:
    path: str
    result: Result
    findings: tuple[Finding, ...]
    minimum: MinimumRocm


@record
class Project:
    sources: list[SourceEntry]
    builds: list[buildfiles.BuildResult]
    minimum: str  # oldest ROCm for the whole project ("" when no HIP API is used)
    target: str  # --rocm-version ("" = none)
    options: Options

    def files(self) -> list[tuple[str, str]]:
        """(path, text) of every migrated file."""
        return [(s.path, s.result.output) for s in self.sources] + [(b.path, b.output) for b in self.builds]

    @property
    def too_new(self) -> list[tuple[str, object]]:
        return [(s.path, r) for s in self.sources for r in s.minimum.too_new]

    @property
    def todos(self) -> int:
        return sum(len(b.todos) for b in self.builds)


def build_project(translated: list[tuple[str, Result, tuple[Finding, ...] | list[Finding]]],
                  build_files: list[tuple[str, str]], options: Options, target: str = "",
                  arch: str = buildfiles.DEFAULT_ARCH) -> Project:
    sources = [SourceEntry(path, result, tuple(findings), minimum_rocm(result, target))
               for path, result, findings in translated]
    builds = [buildfiles.convert(path, text, roc=options.roc, arch=arch) for path, text in build_files]
    versions = [s.minimum.version for s in sources if s.minimum.version]
    minimum = max(versions, key=_key) if versions else ""
    return Project(sources, builds, minimum, target, options)


def migrate(files: list[tuple[str, str]], options: Options | None = None, target: str = "",
            arch: str = buildfiles.DEFAULT_ARCH, run_lint: bool = True) -> Project:
    """Translate the sources and convert the build files of (path, text) pairs (other files are left out)."""
    from rocm_bridge.hipify.lint import lint
    from rocm_bridge.hipify.sources import is_source_name
    from rocm_bridge.hipify.translator import translate

    opts = options or Options()
    translated, builds = [], []
    for path, text in files:
        if buildfiles.build_kind(path):
            builds.append((path, text))
        elif is_source_name(path):
            result = translate(text, opts)
            translated.append((path, result, lint(text, result.lexed) if run_lint else []))
    return build_project(translated, builds, opts, target, arch)


def source_rows(project: Project) -> list[dict[str, object]]:
    rows = []
    for s in project.sources:
        summ = summarize(s.result)
        by_sev = {"error": 0, "warning": 0, "info": 0}
        for f in s.findings:
            by_sev[f.severity] = by_sev.get(f.severity, 0) + 1
        rows.append({
            "path": s.path, "converted": summ.converted, "total": summ.total,
            "percentage": None if summ.percentage is None else round(summ.percentage, 1),
            "left": summ.unsupported + summ.experimental, "lines_changed": summ.lines_changed,
            "lint_errors": by_sev["error"], "lint_warnings": by_sev["warning"], "lint_infos": by_sev["info"],
            "minimum_rocm": s.minimum.version, "too_new": len(s.minimum.too_new),
        })
    return rows


def totals(project: Project) -> dict[str, object]:
    from rocm_bridge.hipify.report import conversion_percentage

    rows = source_rows(project)
    converted = sum(int(r["converted"]) for r in rows)
    total = sum(int(r["total"]) for r in rows)
    pct = conversion_percentage(converted, total)
    return {"files": len(rows), "build_files": len(project.builds), "converted": converted, "total": total,
            "percentage": None if pct is None else round(pct, 1), "left": sum(int(r["left"]) for r in rows),
            "lint_errors": sum(int(r["lint_errors"]) for r in rows),
            "lint_warnings": sum(int(r["lint_warnings"]) for r in rows),
            "minimum_rocm": project.minimum, "target": project.target, "too_new": len(project.too_new),
            "build_changes": sum(len(b.changes) for b in project.builds), "build_todos": project.todos}


def raising(project: Project, limit: int = 12) -> list[tuple[str, str, str]]:
    """(hip_name, added, first file) of the APIs that raise the project's minimum, newest first."""
    seen: dict[str, tuple[str, str, str]] = {}
    for s in project.sources:
        for r in s.minimum.raising:
            if r.hip_name not in seen:
                seen[r.hip_name] = (r.hip_name, r.added, s.path)
    out = sorted(seen.values(), key=lambda x: (_key(x[1]) + (0, 0, 0))[:3], reverse=True)
    return out[:limit]


def report_json(project: Project) -> dict[str, object]:
    return {
        "totals": totals(project),
        "sources": source_rows(project),
        "raising": [{"hip_name": h, "added": short(a), "file": f} for h, a, f in raising(project, 1000)],
        "too_new": [{"file": p, "line": r.line, "col": r.col, "hip_name": r.hip_name, "cuda_name": r.cuda_name,
                     "added": short(r.added)} for p, r in project.too_new],
        "builds": [{"path": b.path, "kind": b.kind,
                    "changes": [{"line": c.line, "before": c.before, "after": c.after, "what": c.key}
                                for c in b.changes],
                    "todos": [{"line": x.line, "code": x.excerpt, "why": x.key} for x in b.todos]}
                   for b in project.builds],
    }


def _cell(value: object) -> str:
    """A Markdown table cell: user text (paths, code) inside a code span, pipes escaped."""
    text = str(value).replace("\n", " ").replace("|", "\\|").replace("`", "'")
    return f"`{text}`" if text else ""


def report_markdown(project: Project, lang: str) -> str:
    from rocm_bridge.hipify.messages import t

    tot = totals(project)
    pct = "n/a" if tot["percentage"] is None else f"{tot['percentage']} %"
    lines = [f"# {t('hipify.project.report_title', lang)}", ""]
    lines.append(t("hipify.project.report_totals", lang, files=tot["files"], builds=tot["build_files"],
                   converted=tot["converted"], total=tot["total"], pct=pct, left=tot["left"],
                   errors=tot["lint_errors"], warnings=tot["lint_warnings"]))
    lines.append("")
    if project.minimum:
        lines.append(t("hipify.project.report_minimum", lang, version=project.minimum, floor=FLOOR))
        for hip, added, path in raising(project):
            lines.append(f"- {_cell(hip)} {short(added)} ({_cell(path)})")
        lines.append("")
    if project.target:
        lines.append(t("hipify.project.report_target", lang, target=project.target, n=len(project.too_new)))
        for path, r in project.too_new:
            lines.append(f"- {_cell(path)}:{r.line}:{r.col} {_cell(r.hip_name)} {short(r.added)}")
        lines.append("")
    head = [t(f"hipify.project.col.{c}", lang) for c in ("file", "converted", "left", "lint", "minimum")]
    lines += ["## " + t("hipify.project.sources", lang), "", "| " + " | ".join(head) + " |",
              "|" + "---|" * len(head)]
    for row in source_rows(project):
        p = "n/a" if row["percentage"] is None else f"{row['percentage']} %"
        lines.append(f"| {_cell(row['path'])} | {row['converted']} / {row['total']} ({p}) | {row['left']} | "
                     f"{row['lint_errors']} / {row['lint_warnings']} | {row['minimum_rocm'] or '-'} |")
    lines.append("")
    if project.builds:
        lines += ["## " + t("hipify.project.builds", lang), ""]
        for b in project.builds:
            lines.append(f"### {_cell(b.path)}")
            lines.append("")
            for c in b.changes:
                lines.append(f"- {c.line}: {_cell(c.before)} -> {_cell(c.after)} "
                             f"({t(f'hipify.build.change.{c.key}', lang)})")
            for x in b.todos:
                lines.append(f"- **TODO** {x.line}: {_cell(x.excerpt)} - {t(f'hipify.build.todo.{x.key}', lang)}")
            lines.append("")
    lines.append(t("hipify.project.report_source", lang))
    return "\n".join(lines) + "\n"


def write_zip(project: Project, lang: str) -> bytes:
    """The migrated tree plus HIPIFY_REPORT.md and hipify_report.json, as a zip."""
    import json

    from rocm_bridge.hipify.sources import write_zip as zip_files

    files = project.files()
    files.append((REPORT_MD, report_markdown(project, lang)))
    files.append((REPORT_JSON, json.dumps(report_json(project), indent=1, ensure_ascii=False) + "\n"))
    return zip_files(files)
