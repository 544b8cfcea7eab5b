"""Coverage of a traced model against one registry: per-node verdicts, the per-op table, R_coverage.

R_coverage = N_supported / N_total (the course's formula, rocm_bridge.formulas.coverage), counted two ways:
- by distinct op types (the course's definition): an op type is supported when every one of its nodes has a
  kernel on the GPU (a GPU kernel for its dtypes, or a DEFAULT kernel that runs on any device);
- by node count: the share of graph nodes that would run on the GPU.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rocm_bridge.coverage.registry import (
    COVERED,
    DEFAULT,
    DTYPE_GAP,
    GPU,
    NO_GPU_BUILD,
    NO_GPU_KERNEL,
    STATUSES,
    UNKNOWN_OP,
    Registry,
    match_op,
)
from rocm_bridge.coverage.trace import PHASES, OpNode
from rocm_bridge.text import csv_safe

# Worst first: an op type's status in the table is its worst node's status.
_SEVERITY = {s: i for i, s in enumerate((UNKNOWN_OP, NO_GPU_BUILD, NO_GPU_KERNEL, DTYPE_GAP, DEFAULT, GPU))}
FALLBACK: frozenset[str] = frozenset({DTYPE_GAP, NO_GPU_KERNEL})  # runs, but on the CPU (soft placement)


@dataclass(frozen=True)
class OpRow:
    """One line of the per-op table."""

    op: str
    status: str  # worst status over its nodes
    nodes: int
    dtypes: tuple[str, ...]  # dtypes this model uses with the op
    missing_dtypes: tuple[str, ...]  # of those, the ones with no GPU kernel (dtype gaps)
    gpu_dtypes: tuple[str, ...]  # dtypes the registry's GPU kernels accept
    phases: tuple[str, ...]
    status_counts: tuple[tuple[str, int], ...] = ()

    @property
    def covered(self) -> bool:
        return self.status in COVERED


@dataclass(frozen=True)
class CoverageReport:
    model: str
    registry: str  # registry name
    registry_label: str
    registry_source: str
    registry_method: str
    gpu_build: bool
    rows: tuple[OpRow, ...]
    n_nodes: int
    n_nodes_covered: int
    status_nodes: dict = field(default_factory=dict)  # status -> node count
    status_ops: dict = field(default_factory=dict)  # status -> op-type count

    @property
    def n_ops(self) -> int:
        return len(self.rows)

    @property
    def n_ops_covered(self) -> int:
        return sum(1 for r in self.rows if r.covered)

    @property
    def r_ops(self) -> float | None:
        """R_coverage by distinct op types (the course's definition); None for an empty graph."""
        return _ratio(self.n_ops_covered, self.n_ops)

    @property
    def r_nodes(self) -> float | None:
        return _ratio(self.n_nodes_covered, self.n_nodes)

    @property
    def summary_params(self) -> dict:
        """The numbers behind the headline: op types and nodes supported out of the total."""
        nodes = "—" if self.r_nodes is None else f"{self.r_nodes:.1%}"
        return {
            "r": "—" if self.r_ops is None else f"{self.r_ops:.1%}",
            "ok": self.n_ops_covered,
            "n": self.n_ops,
            "nodes": nodes,
            "k_ok": self.n_nodes_covered,
            "k": self.n_nodes,
        }

    @property
    def fallback(self) -> tuple[OpRow, ...]:
        """Op types with at least one node that would silently run on the CPU (soft placement)."""
        return tuple(r for r in self.rows if any(s in FALLBACK for s, _ in r.status_counts))

    @property
    def unknown(self) -> tuple[OpRow, ...]:
        return tuple(r for r in self.rows if r.status == UNKNOWN_OP)

    def to_dict(self) -> dict:
        return {
            "model": self.model,
            "registry": self.registry,
            "registry_label": self.registry_label,
            "source": self.registry_source,
            "method": self.registry_method,
            "gpu_build": self.gpu_build,
            "r_coverage_ops": self.r_ops,
            "r_coverage_nodes": self.r_nodes,
            "n_op_types": self.n_ops,
            "n_op_types_supported": self.n_ops_covered,
            "n_nodes": self.n_nodes,
            "n_nodes_supported": self.n_nodes_covered,
            "nodes_by_status": dict(self.status_nodes),
            "op_types_by_status": dict(self.status_ops),
            "falls_back_to_cpu": [r.op for r in self.fallback],
            "unknown_to_build": [r.op for r in self.unknown],
            "ops": [
                {
                    "op": r.op,
                    "status": r.status,
                    "nodes": r.nodes,
                    "dtypes": list(r.dtypes),
                    "missing_dtypes": list(r.missing_dtypes),
                    "gpu_dtypes": list(r.gpu_dtypes),
                    "phases": list(r.phases),
                }
                for r in self.rows
            ],
        }


def _ratio(part: int, total: int) -> float | None:
    if total == 0:
        return None
    try:
        from rocm_bridge.formulas import coverage
    except ImportError:  # the formula module is the lead's; keep working without it
        return part / total
    return coverage(n_supported=part, n_total=total)


def node_status(registry: Registry, node: OpNode) -> str:
    """The node's status on the registry's GPU; a build without GPU support covers nothing."""
    status = match_op(registry, node.op, node.attr_dict, "GPU").status
    if not registry.gpu_build and status != UNKNOWN_OP:
        return NO_GPU_BUILD
    return status


def analyze(
    nodes: Sequence[OpNode], registry: Registry, model: str = "", phases: Iterable[str] = PHASES
) -> CoverageReport:
    phases = set(phases)
    nodes = [n for n in nodes if n.phase in phases]
    # Work on distinct nodes with their counts: an uploaded graph may hold 300k nodes of a few hundred kinds
    # (docs/security.md); Counter keeps first-appearance order, so rows and dtype orders are unchanged.
    by_op: dict[str, list[tuple[OpNode, str, int]]] = defaultdict(list)
    cache: dict[OpNode, str] = {}
    # counted by identity (C speed; equal nodes are shared objects after rocm_bridge.coverage.upload); equal but
    # separate objects just give two entries of one op, merged below
    by_id = {id(n): n for n in nodes}
    for ident, count in Counter(map(id, nodes)).items():
        node = by_id[ident]
        key = OpNode(node.op, node.attrs)  # phase does not change the verdict
        if key not in cache:
            cache[key] = node_status(registry, node)
        by_op[node.op].append((node, cache[key], count))
    rows = []
    for op in sorted(by_op):
        triples = by_op[op]
        statuses = Counter()
        for _, s, c in triples:
            statuses[s] += c
        worst = min(statuses, key=_SEVERITY.__getitem__)
        dtypes = _ordered(d for n, _, _ in triples for d in n.dtypes)
        missing = _ordered(
            d for n, s, _ in triples if s == DTYPE_GAP for d in n.dtypes if d not in _gpu_dtypes(registry, op)
        )
        rows.append(
            OpRow(
                op=op,
                status=worst,
                nodes=sum(c for _, _, c in triples),
                dtypes=dtypes,
                missing_dtypes=missing,
                gpu_dtypes=_gpu_dtypes(registry, op),
                phases=tuple(p for p in PHASES if any(n.phase == p for n, _, _ in triples)),
                status_counts=tuple(sorted(statuses.items(), key=lambda kv: _SEVERITY[kv[0]])),
            )
        )
    status_nodes = Counter()
    for triples in by_op.values():
        for _, s, c in triples:
            status_nodes[s] += c
    status_ops = Counter(r.status for r in rows)
    return CoverageReport(
        model=model,
        registry=registry.name,
        registry_label=registry.label,
        registry_source=registry.source,
        registry_method=registry.method,
        gpu_build=registry.gpu_build,
        rows=tuple(rows),
        n_nodes=len(nodes),
        n_nodes_covered=sum(c for s, c in status_nodes.items() if s in COVERED),
        status_nodes={s: status_nodes[s] for s in STATUSES if status_nodes[s]},
        status_ops={s: status_ops[s] for s in STATUSES if status_ops[s]},
    )


def _gpu_dtypes(registry: Registry, op: str) -> tuple[str, ...]:
    return tuple((registry.ops.get(op) or {}).get("GPU", {}).get("dtypes", ()))


def _ordered(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


@dataclass(frozen=True)
class Difference:
    op: str
    statuses: tuple[str, ...]  # one per report, in the order given


def differences(reports: Sequence[CoverageReport]) -> list[Difference]:
    """Op types whose status differs between registries (e.g. ROCm 2.14 vs CUDA 2.14)."""
    tables = [{r.op: r.status for r in rep.rows} for rep in reports]
    ops = sorted(set().union(*tables)) if tables else []
    out = []
    for op in ops:
        statuses = tuple(t.get(op, "") for t in tables)
        if len(set(statuses)) > 1:
            out.append(Difference(op, statuses))
    return out


CSV_COLUMNS = ("op", "status", "nodes", "dtypes", "missing_dtypes", "gpu_dtypes", "phases", "registry", "model")


def to_csv(reports: Sequence[CoverageReport]) -> str:
    """The per-op tables of one or more reports as CSV text (one row per registry and op)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rep in reports:
        for r in rep.rows:
            writer.writerow(
                [
                    r.op,
                    r.status,
                    r.nodes,
                    " ".join(r.dtypes),
                    " ".join(r.missing_dtypes),
                    " ".join(r.gpu_dtypes),
                    " ".join(r.phases),
                    rep.registry,
                    csv_safe(rep.model),
                ]
            )
    return buf.getvalue()
