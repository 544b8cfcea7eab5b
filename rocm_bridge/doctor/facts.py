"""Collect the facts the checklist needs: files under a root directory, the rest through a Probe.

Every fact keeps where it came from (a path, a command, a variable) so the report can show its evidence. The Facts
record is defined in facts_model and re-exported here with its parts; collect() fills it by running the collectors in
order: facts_host (PCI bus, device nodes, WSL2, containers, the distribution), facts_amd (ROCm, amdgpu, GPUs and gfx
targets), facts_kernel (the amdgpu module, Secure Boot, MOK keys), facts_nvidia and facts_python (packages,
TensorFlow in a subprocess).
"""

from __future__ import annotations

from pathlib import Path

from rocm_bridge.doctor.facts_amd import amd_gpu_facts, rocm_facts
from rocm_bridge.doctor.facts_host import host_facts, pci_gpus
from rocm_bridge.doctor.facts_kernel import kernel_module_facts
from rocm_bridge.doctor.facts_model import CUDA_LIB_DISTS, ENV_VARS, TF_DISTS, Facts, Gpu, TensorFlowProbe
from rocm_bridge.doctor.facts_nvidia import nvidia_facts
from rocm_bridge.doctor.facts_python import python_facts
from rocm_bridge.doctor.probes import TF_TIMEOUT_S, Probe, SystemProbe

__all__ = ["CUDA_LIB_DISTS", "ENV_VARS", "TF_DISTS", "Facts", "Gpu", "TensorFlowProbe", "collect"]


def collect(root: str | Path = "/", probe: Probe | None = None, *, tensorflow: bool = True,
            tf_timeout_s: float = TF_TIMEOUT_S) -> Facts:
    """Gather every fact. tensorflow=False skips the (slow) TensorFlow subprocess."""
    root = Path(root)
    probe = probe or SystemProbe()
    env = probe.env()
    facts = Facts(root=str(root), user=probe.user_name(), groups=probe.groups(),
                  env={k: env[k] for k in ENV_VARS if k in env})

    facts.pci_gpus = pci_gpus(root)
    rocm_facts(facts, root, env)
    host_facts(facts, root, env, probe)
    kernel_module_facts(facts, root, probe)
    amd_gpu_facts(facts, root, probe)  # after rocm_facts and host_facts: it needs ROCm, /dev/kfd, WSL
    nvidia_facts(facts, root, probe)
    python_facts(facts, probe, tensorflow=tensorflow, tf_timeout_s=tf_timeout_s)  # last: it needs the platform
    return facts
