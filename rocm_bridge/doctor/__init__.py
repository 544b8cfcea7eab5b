"""The doctor: diagnose a ROCm / CUDA + TensorFlow install.

    from rocm_bridge.doctor import examine
    report = examine()                      # this host (TensorFlow checked in a subprocess with a timeout)
    report = examine("data/doctor_examples/rocm_healthy", FakeProbe.from_file(".../probe.json"))
    report.verdict, report.exit_code, report.formula.zero_factors, report.as_dict()

Modules: probes (the host interface: SystemProbe, FakeProbe), facts (collect; the Facts record in facts_model, the
collectors in facts_host, facts_amd, facts_kernel, facts_nvidia, facts_python), checks (the Check record, rule
sources, the Python side), amd (the AMD checklist; its steps in amd_driver, amd_nodes, amd_gfx, amd_wheel),
visibility (ROCR/HIP/CUDA visibility semantics), wheels (which ROCm a wheel was built for, published pins), rules
(NVIDIA and no-GPU checklists, reconcile, verdict, Compatible formula), fixes (each fix as actions: the commands for
this machine and the same change applied to the facts), logs (the log doctor over data/log_signatures.csv), report
(Markdown for bug reports), cli (`python -m rocm_bridge doctor`). docs/doctor.md lists the rules' sources and every
example system.
"""

from __future__ import annotations

from pathlib import Path

from rocm_bridge.doctor.facts import Facts, collect
from rocm_bridge.doctor.probes import TF_TIMEOUT_S, FakeProbe, Probe, SystemProbe
from rocm_bridge.doctor.rules import Check, Report, formula, run_checks

__all__ = ["Check", "Facts", "FakeProbe", "Probe", "Report", "SystemProbe", "examine", "example_root",
           "example_sources", "example_systems", "probe_for_root"]

# Recorded example systems (also the tests' fake-system fixtures), offered on the page so a machine without a GPU can
# show what the doctor says elsewhere. Listed in teaching order.
EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "data" / "doctor_examples"
EXAMPLE_ORDER: tuple[str, ...] = (
    "rocm_healthy", "no_driver", "container_no_kfd", "kfd_denied", "not_in_render_group", "gfx1032_no_override",
    "gfx1032_override", "wheel_rocm_mismatch", "numpy2_old_tf", "tf_import_crash", "tf_import_hang",
    "nvidia_healthy", "nvidia_old_driver", "cpu_only",
    # written from real reports and docs (see each NOTES.md and docs/doctor.md)
    "rocr_empty_hides_all", "hip_invalid_index", "rocr_then_hip_out_of_range", "rocr_repeated_index",
    "slurm_rocr_plus_cuda_visible", "gpu_device_ordinal_set",
    "igpu_plus_dgpu", "override_rdna2_harmless", "override_masks_supported", "override_wrong_generation", "wheel_600_on_rocm7",
    "wheel_tf_only_name", "python312_rocm60", "cuda_tf_on_amd", "tf_rocm_on_nvidia", "tf_cpu_on_nvidia",
    "nvidia_cuda_visible_bad", "wsl2_rocm_working", "wsl2_no_runtime", "wsl2_no_rocm", "wsl2_no_dxg", "container_no_devices",
    "container_no_group", "container_seccomp_shm", "old_distro_video_group", "core_sdk_10",
    # fixes that must work on the machine in front of the doctor (issue 26)
    "secure_boot_dkms_unsigned", "rhel_dkms_key_rejected", "podman_rootless_nogroup", "apptainer_containall",
    "tf_io_overwrites_rocm", "nvidia_tf_without_and_cuda", "hip_visible_selects_igpu", "wheel_built_for_newer_rocm",
    "override_gfx1151_apu", "uv_numpy2_old_tf",
    # held-out red team: systems written from reports the rules were not built from
    "dkms_not_built_new_kernel", "rocm_libs_not_in_linker", "tf_2140600_drops_gfx1100", "debian12_python311_no_wheel",
    "miopen_kdb_missing_warning", "ubuntu_rocminfo_blocks_rocm", "torch_pins_old_cudnn", "container_video_only_render_gid",
    "gfx803_rocm62", "wsl_rocm_642_no_wsl_support",
)


def example_systems() -> list[str]:
    """Names of the recorded example systems present on disk, in teaching order."""
    return [n for n in EXAMPLE_ORDER if (EXAMPLES_DIR / n / "probe.json").is_file()]


def example_root(name: str) -> Path:
    if name not in EXAMPLE_ORDER:
        raise KeyError(name)
    return EXAMPLES_DIR / name


def example_sources(name: str) -> str:
    """The "Sources:" paragraph of an example's NOTES.md (what the recorded system was written from), one line."""
    import re

    text = (example_root(name) / "NOTES.md").read_text(encoding="utf-8")
    m = re.search(r"^Sources?:(.*?)(?:\n\n|\Z)", text, re.S | re.M)
    return " ".join(m.group(1).split()) if m else ""


def probe_for_root(root: str | Path) -> Probe:
    """A recorded system when root holds a probe.json (fixtures, demos), else this host."""
    recorded = Path(root) / "probe.json"
    return FakeProbe.from_file(recorded) if recorded.is_file() else SystemProbe()


def examine(root: str | Path = "/", probe: Probe | None = None, *, tensorflow: bool = True,
            tf_timeout_s: float = TF_TIMEOUT_S) -> Report:
    """Collect facts, run the checklist, evaluate Compatible and diagnose TensorFlow's own log output."""
    from rocm_bridge.doctor import logs

    probe = probe or probe_for_root(root)
    facts = collect(root, probe, tensorflow=tensorflow, tf_timeout_s=tf_timeout_s)
    tf_text = "\n".join(x for x in (facts.tensorflow.error, facts.tensorflow.stderr_tail) if x)
    findings = logs.diagnose(tf_text) if tf_text else []
    return Report(facts=facts, checks=run_checks(facts), formula=formula(facts), log_findings=findings)
