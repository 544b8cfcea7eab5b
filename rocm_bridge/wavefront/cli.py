"""`python -m rocm_bridge wavefront [--mask HEX] [--wave 32|64] [--stride N]... [--json]`

Which lanes a lane mask names and which it leaves dark on a wavefront, and the LDS bank-conflict degree of
`x = lds[lane * stride]` (32 banks of 4 bytes, one pass per 32 lanes): the numbers chapter 9's pictures draw.
"""

from __future__ import annotations

import argparse
import json

from rocm_bridge import wavefront as wf
from rocm_bridge.errors import InvalidInput
from rocm_bridge.i18n import cli_lang, t
from rocm_bridge.wavefront.draw import spans

HELP = "Lanes a mask leaves dark on a 64-lane wavefront, and LDS bank conflicts per stride (chapter 9's pictures)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mask", default="0xffffffff", help="lane mask, hex or decimal (default 0xffffffff)")
    parser.add_argument("--wave", type=int, choices=(32, 64), default=wf.WAVE64, help="lanes per wavefront")
    parser.add_argument("--stride", type=int, action="append", metavar="N",
                        help="LDS stride in 4-byte words (repeatable; default 1, 2, 32, 33)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    try:
        mask = int(str(args.mask), 0)
    except ValueError:
        raise InvalidInput("errors.not_a_number", name="--mask", value=str(args.mask)[:40]) from None
    if mask < 0 or mask >= 1 << 64:
        raise InvalidInput("formulas.errors.too_large", name="--mask", value=str(args.mask)[:40], limit="2^64 - 1")
    strides = args.stride or [1, 2, 32, 33]
    if any(s < 0 for s in strides):
        raise InvalidInput("errors.negative", name="--stride", value=min(strides))
    named, dark = wf.mask_lanes(mask, args.wave), wf.dark_lanes(mask, args.wave)
    banks = {s: wf.lds_access(s, args.wave).degree[0] for s in strides}
    if args.json:
        print(json.dumps({"mask": hex(mask), "wave": args.wave, "named": list(named), "dark": list(dark),
                          "lds_conflict_degree": banks}, indent=2))
        return 0
    lang = cli_lang()
    print(t("pictures_mech.cli.lanes", lang, mask=hex(mask), wave=args.wave, named=spans(named), dark=spans(dark),
            n=len(dark)))
    for stride, degree in banks.items():
        print(t("pictures_mech.cli.stride", lang, stride=stride, degree=degree))
    return 0
