"""Load and trace an uploaded .keras file in a child process with limits (docs/security.md, threat "a 1.8 KB
.keras file takes gigabytes").

    python -m rocm_bridge.coverage.keras_worker < model.keras > result.json

Keras builds every layer of a config before it reads a single weight, so a tiny file whose config declares an
Embedding of 250,000,000 rows allocates gigabytes. The parent refuses such configs before starting this child
(upload.declared_params); this child is the second wall: it caps its own address space and CPU seconds, lowers
its priority and keeps TensorFlow to one thread, so whatever a config does it cannot take the server's memory or
its cores, and it dies with the visitor's job, not with the server.

Output: {"ok": true, "records": [...], "phases": [...], "n_params": n, "tf_version": "...", "keras_version": "..."}
        or {"ok": false, "key": "<catalog key>", "params": {...}} for a message the parent shows
        or {"ok": false, "reason": "memory" | "failed"}
"""

from __future__ import annotations

import json
import os
import sys

MEMORY_ENV, CPU_ENV, NAME_ENV, PHASES_ENV = "RB_KERAS_MEMORY", "RB_KERAS_CPU_S", "RB_KERAS_NAME", "RB_KERAS_PHASES"
# One thread: a trace does not need more, and the other visitors keep the server's other cores.
THREAD_ENV = {"TF_NUM_INTRAOP_THREADS": "1", "TF_NUM_INTEROP_THREADS": "1", "OMP_NUM_THREADS": "1",
              "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": "", "HIP_VISIBLE_DEVICES": ""}


def _limit(memory: int, cpu_s: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 5))
    os.nice(10)


def run(data: bytes, name: str, phases: tuple[str, ...]) -> dict:
    from rocm_bridge.coverage import upload
    from rocm_bridge.coverage.trace import records_from_nodes, trace_keras_model
    from rocm_bridge.errors import OutOfMemory, RocmBridgeError

    try:
        model = upload.load_keras_bytes(data, name)
        traced = trace_keras_model(model, name, phases)
    except OutOfMemory:
        return {"ok": False, "reason": "memory"}
    except RocmBridgeError as err:
        return {"ok": False, "key": err.key, "params": {k: str(v) for k, v in err.params.items()}}
    return {"ok": True, "records": records_from_nodes(traced.nodes), "phases": list(traced.phases),
            "n_params": traced.n_params, "tf_version": traced.tf_version, "keras_version": traced.keras_version,
            "notes": list(traced.notes)}


def main() -> int:
    _limit(int(os.environ.get(MEMORY_ENV, str(4 << 30))), int(os.environ.get(CPU_ENV, "120")))
    try:
        data = sys.stdin.buffer.read()
        result = run(data, os.environ.get(NAME_ENV, "model.keras"),
                     tuple(p for p in os.environ.get(PHASES_ENV, "").split(",") if p))
    except MemoryError:
        result = {"ok": False, "reason": "memory"}
    except Exception as exc:  # noqa: BLE001 - the parent shows a message; a traceback would quote server paths
        low = str(exc).lower()
        memory = "resourceexhausted" in type(exc).__name__.lower() or "out of memory" in low or "bad_alloc" in low
        result = {"ok": False, "reason": "memory" if memory else "failed",
                  "detail": f"{type(exc).__name__}: {exc}"[:300]}
    sys.stdout.write(json.dumps(result))
    sys.stdout.flush()
    os._exit(0)  # skip TensorFlow's slow teardown


if __name__ == "__main__":
    sys.exit(main())
