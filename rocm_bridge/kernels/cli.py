"""`python -m rocm_bridge walkthrough [--step ID] [--target gfx942|gfx90a] [--source|--diff|--cuda|--isa]
[--json] [--lang en|zh]`: the transpose walkthrough from a shell, read from the recorded results."""

from __future__ import annotations

import argparse
import json
import sys

HELP = ("The transpose optimised step by step: for each step the AMD compile result (recorded for gfx942 with "
        "clang 22 and for gfx90a with hipcc 5.2), the time measured on the recorded GPU and its lesson.")
SHOW = ("source", "diff", "cuda", "isa")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from rocm_bridge import kernels
    from rocm_bridge.kernels import recorded

    parser.add_argument("--step", choices=kernels.ids(), help="one step only")
    parser.add_argument("--target", choices=recorded.TARGETS, default=recorded.TARGETS[0],
                        help="the AMD target whose recorded compile result is shown (default gfx942)")
    group = parser.add_mutually_exclusive_group()
    for what in SHOW:
        group.add_argument(f"--{what}", action="store_true", help=f"print the step's {what} (needs --step)")
    parser.add_argument("--json", action="store_true", help="machine-readable: every step, compile result and timing")
    parser.add_argument("--lang", choices=("en", "zh"), default=None, help="language of names and lessons")


def _as_json(target: str, lang: str) -> dict[str, object]:
    from rocm_bridge import kernels
    from rocm_bridge.kernels import lessons, recorded

    run, comp = recorded.run_record(), recorded.compile_record(target)
    rows, cols = recorded.SIZE
    steps = []
    for s in kernels.ALL:
        c = comp.steps[s.id].to_dict()
        c.pop("isa")
        t = run.timing(s.id, rows, cols)
        steps.append({"id": s.id, "number": s.number, "name": lessons.step_name(s.id, lang), "file": s.file,
                      "block": list(s.block), "floats_per_thread": s.per_thread,
                      "lesson": lessons.lesson(s, lang, run, recorded.compile_record()) if s.number else "",
                      "compile": c, "median_ms": t.median_ms, "gbs": t.gbs, "sass": run.sass.get(s.id, {})})
    return {"target": target, "compiler": comp.compiler, "compiled": comp.recorded, "gpu": run.gpu,
            "driver": run.driver, "measured": run.date, "size": [rows, cols], "method": run.method, "steps": steps}


def run(args: argparse.Namespace) -> int:
    from rocm_bridge import i18n, kernels
    from rocm_bridge.kernels import lessons, recorded

    lang = args.lang or i18n.cli_lang()
    shown = next((w for w in SHOW if getattr(args, w)), None)
    if shown and not args.step:
        print("--" + shown + " needs --step", file=sys.stderr)
        return 2
    if args.json:
        data = _as_json(args.target, lang)
        if args.step:
            data["steps"] = [s for s in data["steps"] if s["id"] == args.step]
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    if shown:
        s = kernels.step(args.step)
        text = {"source": kernels.hip_source, "diff": kernels.diff, "cuda": kernels.cuda_source,
                "isa": lambda st: recorded.compile_record(args.target).steps[st.id].isa}[shown](s)
        print(text.rstrip("\n"))
        return 0
    run_rec, comp = recorded.run_record(), recorded.compile_record(args.target)
    rows, cols = recorded.SIZE
    copy = run_rec.timing(kernels.REFERENCE.id, rows, cols)
    print(i18n.t("walkthrough.caption", lang, target=comp.target, compiler=comp.compiler, compiled=comp.recorded,
                 gpu=run_rec.gpu, driver=run_rec.driver, measured=run_rec.date))
    print(i18n.t("walkthrough.cli.header", lang))
    none = i18n.t("walkthrough.none", lang)
    for s in kernels.ALL:
        if args.step and s.id != args.step:
            continue
        c, t = comp.steps[s.id], run_rec.timing(s.id, rows, cols)
        label = lessons.step_label(s, lang) if s.number else lessons.step_name(s.id, lang)
        print(" | ".join((label, lessons.instructions(c.memory, False, none), lessons.instructions(c.memory, True, none),
                          str(c.vgprs), str(c.lds_bytes), str(c.occupancy), f"{t.median_ms:.3f}", f"{t.gbs:.0f}",
                          f"{100 * t.gbs / copy.gbs:.0f}")))
        if s.number:
            print("    " + lessons.lesson(s, lang, run_rec, recorded.compile_record()))
    return 0
