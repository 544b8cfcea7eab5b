"""`python -m rocm_bridge picture [ID] [--step N] [--lang zh] [--theme dark] [--variant V] [-o FILE]`: the explainer
pictures from a shell. Without an ID it lists them; with one it writes a frame as SVG (or, for a Plotly frame, the
figure's JSON), so a teacher can put the exact step on a slide."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "List the explainer pictures, or write one step of one as SVG (Plotly frames: figure JSON)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("picture", nargs="?", help="picture id (omit to list them), e.g. hero, envcheck, mi300x")
    parser.add_argument("--step", type=int, default=1, help="the step, counted from 1 as in the link (default 1)")
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--theme", choices=("light", "dark"), default="light")
    parser.add_argument("--variant", default="", help="for a picture with variants, e.g. --variant tf.nn.conv2d")
    parser.add_argument("-o", "--output", help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    from rocm_bridge import i18n
    from rocm_bridge.errors import InvalidInput
    from rocm_bridge.visual import pictures

    if not args.picture:
        for pid, spec in pictures.PICTURES.items():
            variants = f"  variants: {', '.join(spec.variants)}" if spec.variants else ""
            print(f"{pid:<12} {spec.steps:>2} steps  {spec.page:<6} {i18n.t(spec.title_key, args.lang)}{variants}")
        return 0
    spec = pictures.PICTURES.get(args.picture)
    if spec is None:
        raise InvalidInput("pictures.error.unknown", value=args.picture[:80], known=", ".join(pictures.PICTURES))
    if not 1 <= args.step <= spec.steps:
        raise InvalidInput("pictures.error.step", value=args.step, steps=spec.steps)
    if args.variant and args.variant not in spec.variants:
        raise InvalidInput("pictures.error.variant", value=args.variant[:80], known=", ".join(spec.variants) or "-")
    frame = pictures.frame(spec.id, args.step - 1, args.lang, args.theme, args.variant)
    text = frame.svg if frame.svg is not None else frame.figure.to_json()
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    print(frame.caption, file=sys.stderr)
    return 0
