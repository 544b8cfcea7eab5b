"""Facts about the NVIDIA stack: the driver, the CUDA version it supports, its GPUs and the CUDA toolkit.

nvidia_facts() reads the kernel module's version file (/proc/driver/nvidia/version), asks NVML (in a subprocess,
through the probe), else nvidia-smi, for the driver, CUDA version and GPUs with their compute capability, and reads
the toolkit's /usr/local/cuda/version.json.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

from rocm_bridge.doctor.facts_model import Facts, Gpu, read_text
from rocm_bridge.doctor.probes import Probe


def nvidia_facts(facts: Facts, root: Path, probe: Probe) -> None:
    """NVIDIA: NVML, else nvidia-smi; the kernel module's version file; the CUDA toolkit."""
    proc = read_text(root, "/proc/driver/nvidia/version")
    if proc:
        m = re.search(r"Kernel Module\s+(?:for\s+\S+\s+)?(\d+\.\d+(?:\.\d+)?)", proc) or re.search(r"(\d{3}\.\d+(?:\.\d+)?)", proc)
        if m:
            facts.nvidia_driver, facts.nvidia_driver_source = m.group(1), "/proc/driver/nvidia/version"
    nvml = probe.python("nvml", 20)
    if nvml.ok:
        try:
            data = json.loads(nvml.stdout.strip().splitlines()[-1])
            facts.nvidia_driver = facts.nvidia_driver or data.get("driver", "")
            facts.nvidia_driver_source = facts.nvidia_driver_source or "NVML"
            facts.nvidia_cuda = data.get("cuda", "")
            facts.nvidia_gpus = [Gpu(name=g.get("name", ""), gfx="", source="nvml",
                                     compute_capability=g.get("compute_capability", "")) for g in data.get("gpus", [])]
        except (json.JSONDecodeError, IndexError, AttributeError):
            pass
    if not facts.nvidia_gpus and (facts.nvidia_driver or proc is not None):
        smi = probe.run("nvidia-smi", ["nvidia-smi", "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"])
        if smi.ok:
            for line in smi.stdout.strip().splitlines():
                parts = [p.strip() for p in line.split(",")]
                if len(parts) >= 2:
                    facts.nvidia_gpus.append(Gpu(name=parts[0], gfx="", source="nvidia-smi",
                                                 compute_capability=parts[2] if len(parts) > 2 else ""))
                    facts.nvidia_driver = facts.nvidia_driver or parts[1]
                    facts.nvidia_driver_source = facts.nvidia_driver_source or "nvidia-smi"
    cuda_json = read_text(root, "/usr/local/cuda/version.json")
    if cuda_json:
        with contextlib.suppress(json.JSONDecodeError, AttributeError):
            facts.cuda_toolkit = json.loads(cuda_json).get("cuda", {}).get("version", "")
