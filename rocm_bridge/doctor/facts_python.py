"""Facts about the Python side: the interpreter, the installed packages and who installed them, and TensorFlow itself.

python_facts() records the Python version, the TensorFlow distributions, numpy, keras and the CUDA libraries from
PyPI with their installer (pip, uv, conda), whether cuDNN is in the linker cache on an NVIDIA host, and runs TensorFlow
in a subprocess with a timeout; parse_tf_result() turns that subprocess's outcome into a TensorFlowProbe (ok, missing,
import_error, crash or timeout).
"""

from __future__ import annotations

import json

from rocm_bridge.doctor.facts_model import CUDA_LIB_DISTS, TF_DISTS, Facts, TensorFlowProbe
from rocm_bridge.doctor.probes import TF_MARKER, CommandResult, Probe


def parse_tf_result(result: CommandResult) -> TensorFlowProbe:
    """Turn the TensorFlow subprocess outcome into facts: ok, missing, import_error, crash or timeout."""
    tf = TensorFlowProbe(rc=result.rc, stderr_tail=result.stderr[-4000:])
    if result.timed_out:
        tf.status = "timeout"
        return tf
    payload = None
    for line in result.stdout.splitlines():
        if line.startswith(TF_MARKER):
            try:
                payload = json.loads(line[len(TF_MARKER):])
            except json.JSONDecodeError:
                payload = None
    if payload is None:
        # No report line: the interpreter died (segfault, abort, OOM kill) before printing it.
        tf.status = "crash"
        tf.error = (result.stderr.strip().splitlines() or [f"exit code {result.rc}"])[-1][:500]
        return tf
    if "import_error" in payload:
        error = str(payload["import_error"])
        tf.status = "missing" if "No module named 'tensorflow'" in error else "import_error"
        tf.error = error[:2000]
        return tf
    tf.status = "ok"
    tf.version = str(payload.get("version", ""))
    tf.built_with_rocm = payload.get("built_with_rocm")
    tf.built_with_cuda = payload.get("built_with_cuda")
    tf.build_info = dict(payload.get("build_info") or {})
    tf.gpus = list(payload.get("gpus") or [])
    tf.matmul_device = str(payload.get("matmul_device", ""))
    tf.matmul_ok = payload.get("matmul_ok")
    tf.error = str(payload.get("gpu_error", ""))
    return tf


def python_facts(facts: Facts, probe: Probe, *, tensorflow: bool, tf_timeout_s: float) -> None:
    """Python, packages and installers, the system cuDNN (NVIDIA), then TensorFlow unless tensorflow=False."""
    facts.python = probe.python_version()
    for dist in (*TF_DISTS, "numpy", "keras", "tf-keras", *CUDA_LIB_DISTS):
        facts.packages[dist] = probe.package_version(dist)
        installer = probe.package_installer(dist) if facts.packages[dist] else None
        if installer:
            facts.installers[dist] = installer
    if facts.platform == "nvidia":
        ld = probe.run("ldconfig", ["ldconfig", "-p"])
        facts.system_cudnn = ld.ok and "libcudnn.so" in ld.stdout
    if tensorflow:
        facts.tensorflow = parse_tf_result(probe.python("tensorflow", tf_timeout_s))
