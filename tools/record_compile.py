"""Record the compile lab's results for every page example (data/compile_recorded/<example>.json).

    python tools/record_compile.py            # all examples, gfx90a (wave64) and gfx1100 (wave32)
    python tools/record_compile.py --check    # compare with the current compiler, exit 1 on a difference

Each file names the compiler version and the date; the page shows them with the results when no compiler is
available (or ROCM_BRIDGE_COMPILE=off). tests/test_compile_recorded.py runs the check.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge.compile import examples, recorded, toolchain  # noqa: E402
from rocm_bridge.compile.engine import compile_code  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("keys", nargs="*", help="examples (default: all)")
    args = ap.parse_args(argv)
    compiler = toolchain.version()
    if not compiler:
        print("no compiler (hipcc) found", file=sys.stderr)
        return 2
    differ = 0
    for key in args.keys or examples.all_keys():
        code = examples.source(key)
        results = {t: compile_code(code, t, w, allow_unsandboxed=True) for t, w in recorded.TARGETS}
        entry = recorded.record_entry(key, code, results, compiler, str(date.today()))
        if args.check:
            old = recorded.load(key)
            same = old is not None and old["code_sha256"] == entry["code_sha256"] and all(
                recorded.comparable(old["results"][t]) == recorded.comparable(entry["results"][t])
                for t in entry["results"])
            differ += not same
            print(f"{key:28} {'same' if same else 'DIFFERENT'}")
        else:
            print(f"{key:28} -> {recorded.write(entry)}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
