"""Dump the installed TensorFlow's op-kernel registry as a snapshot for data/tf_kernel_registry/.

Run it on the machine whose build you want to describe (e.g. a ROCm machine with a newer tensorflow-rocm):

    python tools/dump_kernel_registry.py                       # writes data/tf_kernel_registry/<name>.json.gz
    python tools/dump_kernel_registry.py -o my-build.json.gz   # or a path of your choice
    python tools/dump_kernel_registry.py --name tensorflow-rocm-2.16.1

The output has the same format as the bundled snapshots (see data/tf_kernel_registry/README.md): the coverage
analyzer lists every *.json.gz in that folder, so a new file shows up in the app and the CLI without code changes.
No GPU is needed: kernel registration is static, the registry is the build's own.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", help="output path (default: data/tf_kernel_registry/<name>.json.gz)")
    parser.add_argument("--name", help="snapshot name (default: derived from the build, e.g. tensorflow-2.21.0-cpu)")
    parser.add_argument("--method-note", default="", help="appended to the 'method' field (how this dump was made)")
    args = parser.parse_args(argv)

    from rocm_bridge.coverage import registry

    try:
        snapshot = registry.dump_live_registry(method_note=args.method_note)
    except ImportError as exc:
        print(f"TensorFlow is not importable here: {exc}", file=sys.stderr)
        return 2
    name = args.name or registry.default_snapshot_name(snapshot)
    out = Path(args.output) if args.output else registry.SNAPSHOT_DIR / f"{name}.json.gz"
    registry.write_snapshot(snapshot, out)
    print(
        f"wrote {out}: TensorFlow {snapshot['tensorflow_version']}, {len(snapshot['ops'])} ops, "
        f"{snapshot['ops_with_gpu_kernel']} with a GPU kernel, "
        f"{'ROCm' if snapshot['is_built_with_rocm'] else 'CUDA' if snapshot['is_built_with_cuda'] else 'no GPU'} build"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
