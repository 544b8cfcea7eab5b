"""Score a hipify on HIPIFY-style lit tests: the share of `// CHECK:` lines its output matches.

Each test is a CUDA file whose `// RUN:` line gives the hipify options and whose `// CHECK:` lines give expected
output lines (LLVM FileCheck). As in HIPIFY's own test driver, line comments are removed from the output before
matching (otherwise every CHECK would match its own comment); CHECK and CHECK-NEXT patterns are matched in order
with FileCheck's defaults (horizontal whitespace canonicalised, `{{regex}}` blocks, a match never spans lines).
Unlike FileCheck, a miss does not stop the file: the score counts every CHECK line, and CHECK-NOT patterns found
between their neighbours are counted as violations.

    python3 tools/hipify_lit.py [DIR]                 # default tests/hipify/conformance, our engine
    python3 tools/hipify_lit.py DIR --perl PATH       # the same files through hipify-perl as well
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "tests" / "hipify" / "conformance"
DIRECTIVE = re.compile(r"//\s*(CHECK(?:-NEXT|-NOT|-SAME|-DAG)?):(.*)$")
LINE_COMMENT = re.compile(r"//.*")  # HIPIFY's run_test: sed -Ee 's|//.+|// |g' on the output
HSPACE = re.compile(r"[ \t]+")


class Check(NamedTuple):
    kind: str
    pattern: str
    line: int


class FileScore(NamedTuple):
    name: str
    checks: int
    matched: int
    not_violations: int
    misses: list[Check]


def parse(text: str) -> tuple[list[str], list[Check]]:
    """(hipify options from the RUN line, CHECK directives)."""
    options: list[str] = []
    checks: list[Check] = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("// RUN:"):
            options = [w for w in line.split() if w.startswith("-")]
            continue
        m = DIRECTIVE.search(line)
        if m:
            checks.append(Check(m.group(1), m.group(2).strip(), n))
    return options, checks


def _regex(pattern: str) -> re.Pattern:
    parts, pos = [], 0
    for m in re.finditer(r"\{\{(.*?)\}\}|\[\[(.*?)\]\]", pattern):
        parts.append(re.escape(HSPACE.sub(" ", pattern[pos:m.start()])).replace("\\ ", " "))
        parts.append(f"(?:{m.group(1)})" if m.group(1) is not None else ".*?")
        pos = m.end()
    parts.append(re.escape(HSPACE.sub(" ", pattern[pos:])).replace("\\ ", " "))
    return re.compile("".join(parts).replace(" ", "[ ]"))


INCLUDE = re.compile(r'^#include\s*([<"])(\w+)\.h([>"])\s*$')


def _alternatives(pattern: str) -> list[re.Pattern]:
    """The pattern, and for `#include "rocblas.h"` also ROCm's current spelling `<rocblas/rocblas.h>` (counted as
    correct: the flat headers are deprecated wrappers since ROCm 5.2/6.0)."""
    out = [_regex(pattern)]
    m = INCLUDE.match(pattern.strip())
    if m:
        out.append(re.compile(rf'#include ?[<"]{m.group(2)}/{m.group(2)}\.h[>"]'))
    return out


def _search(pattern: str, text: str, pos: int):
    found = [m for rx in _alternatives(pattern) if (m := rx.search(text, pos))]
    return min(found, key=lambda m: m.start()) if found else None


def score_output(name: str, output: str, checks: list[Check]) -> FileScore:
    text = "\n".join(HSPACE.sub(" ", LINE_COMMENT.sub("//", line)) for line in output.splitlines())
    pos, matched, violations, misses = 0, 0, 0, []
    pending_not: list[Check] = []
    for check in checks:
        if check.kind == "CHECK-NOT":
            pending_not.append(check)
            continue
        m = _search(check.pattern, text, pos)
        if m:
            for nc in pending_not:
                if _regex(nc.pattern).search(text, pos, m.start()):
                    violations += 1
            pending_not = []
            matched += 1
            pos = m.end()
        else:
            misses.append(check)
    for nc in pending_not:
        if _regex(nc.pattern).search(text, pos):
            violations += 1
    counted = [c for c in checks if c.kind != "CHECK-NOT"]
    return FileScore(name, len(counted), matched, violations, misses)


def ours(text: str, options: list[str]) -> str:
    sys.path.insert(0, str(ROOT))
    from rocm_bridge.hipify.translator import Options, translate

    opts = Options(roc="-roc" in options or "--roc" in options, miopen="--miopen" in options or "-miopen" in options,
                   experimental="--experimental" in options or "-experimental" in options,
                   kernel_syntax="--hip-kernel-execution-syntax" in options)
    return translate(text, opts).output


def perl(path: Path, options: list[str], script: Path) -> str:
    args = [o for o in options if o in ("-roc", "--roc", "-miopen", "--miopen", "-experimental", "--experimental",
                                         "--hip-kernel-execution-syntax")]
    args = ["-" + a.lstrip("-") for a in args]
    done = subprocess.run(["perl", str(script), *args, str(path)], capture_output=True, text=True, timeout=120)
    return done.stdout


def run(directory: Path = DEFAULT_DIR, translate_with=None) -> list[FileScore]:
    scores = []
    for path in sorted(p for p in directory.iterdir() if p.suffix in (".cu", ".cpp", ".cuh", ".h")):
        text = path.read_text(encoding="utf-8")
        options, checks = parse(text)
        if not checks:
            continue
        output = translate_with(path, text, options) if translate_with else ours(text, options)
        scores.append(score_output(path.name, output, checks))
    return scores


def total(scores: list[FileScore]) -> tuple[int, int, float]:
    checks = sum(s.checks for s in scores)
    matched = sum(s.matched for s in scores)
    return matched, checks, 100.0 * matched / checks if checks else 0.0


def table(scores: list[FileScore], title: str) -> str:
    lines = [title, f"{'file':<40} {'CHECK':>6} {'matched':>8} {'NOT hit':>8}"]
    for s in scores:
        lines.append(f"{s.name:<40} {s.checks:>6} {s.matched:>8} {s.not_violations:>8}")
    matched, checks, pct = total(scores)
    lines.append(f"{'total':<40} {checks:>6} {matched:>8}   {pct:.1f} %")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--perl", type=Path, help="a hipify-perl script to score as well")
    parser.add_argument("--misses", action="store_true", help="list the CHECK lines not matched")
    args = parser.parse_args(argv)
    scores = run(args.directory)
    print(table(scores, "rocm_bridge hipify"))
    if args.misses:
        for s in scores:
            for c in s.misses:
                print(f"  {s.name}:{c.line}: {c.pattern}")
    if args.perl:
        pscores = run(args.directory, lambda path, _text, options: perl(path, options, args.perl))
        print()
        print(table(pscores, f"hipify-perl ({args.perl})"))
        if args.misses:
            for s in pscores:
                for c in s.misses:
                    print(f"  {s.name}:{c.line}: {c.pattern}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
