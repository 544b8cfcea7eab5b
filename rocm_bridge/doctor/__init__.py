"""The doctor: diagnose a ROCm / CUDA + TensorFlow install.

    from rocm_bridge.doctor import examine
    report = examine()                      # this host (TensorFlow checked in a subprocess with a timeout)
    report = examine("tests/doctor/fixtures/rocm_healthy", FakeProbe.from_file(".../probe.json"))
    report.verdict, report.exit_code, report.formula.zero_factors, report.as_dict()

Modules: probes (the host interface: SystemProbe, FakeProbe), facts (collect), rules (checklist, verdict,
Compatible formula), logs (the log doctor over data/log_signatures.csv), report (Markdown for bug reports),
cli (`python -m rocm_bridge doctor`).
"""

from __future__ import annotations

from pathlib import Path

from rocm_bridge.doctor.facts import Facts, collect
from rocm_bridge.doctor.probes import TF_TIMEOUT_S, FakeProbe, Probe, SystemProbe
from rocm_bridge.doctor.rules import Check, Report, formula, run_checks

__all__ = ["Check", "Facts", "FakeProbe", "Probe", "Report", "SystemProbe", "examine", "probe_for_root"]


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
