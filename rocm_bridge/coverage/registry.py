"""TensorFlow op-kernel registries: bundled snapshots (data/tf_kernel_registry/*.json.gz) and the live one.

A snapshot says, for every op a TensorFlow build knows, which device types (CPU, GPU, DEFAULT, ...) have a
kernel and which dtypes each kernel is constrained to. `match_op` answers the question TensorFlow's own kernel
lookup (FindKernelDef) answers: is there a kernel for this op with these attributes on this device type?
It follows TensorFlow's rules: device-specific kernels first, then the DEFAULT device type as a fallback on
any device; a kernel matches when every constrained attribute's value is in its allowed list; labelled kernels
are only picked by nodes that ask for that label (`_kernel` attribute).

Nothing here imports TensorFlow except `dump_live_registry` / `live_registry` (inside the function).
"""

from __future__ import annotations

import gzip
import json
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rocm_bridge.errors import BackendUnavailable, UnsupportedFile
from rocm_bridge.versions import parse_version

SNAPSHOT_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "tf_kernel_registry"
SNAPSHOT_SUFFIX = ".json.gz"
LIVE = "live"  # the registry name of the installed TensorFlow
MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024  # decompressed; the bundled ones are ~3 MB

# Statuses of one node against one registry, best first. "gpu" and "default" are covered.
GPU = "gpu"  # a GPU kernel matches the node's dtypes
DEFAULT = "default"  # only a DEFAULT-device kernel matches: runs on any device (NoOp, Placeholder, ...)
DTYPE_GAP = "dtype_gap"  # the op has GPU kernels, but none for these dtypes
NO_GPU_KERNEL = "no_gpu_kernel"  # the build knows the op but has no GPU kernel for it at all
UNKNOWN_OP = "unknown_op"  # the build does not know the op (renamed, removed, newer, fork-only)
NO_GPU_BUILD = "no_gpu_build"  # the build itself cannot use a GPU (tensorflow-cpu): nothing runs there
STATUSES: tuple[str, ...] = (GPU, DEFAULT, DTYPE_GAP, NO_GPU_KERNEL, UNKNOWN_OP, NO_GPU_BUILD)
# match_op(..., device="CPU") answers with these instead of GPU / NO_GPU_KERNEL
CPU = "cpu"
NO_CPU_KERNEL = "no_cpu_kernel"
COVERED: frozenset[str] = frozenset({GPU, DEFAULT, CPU})


@dataclass(frozen=True)
class Verdict:
    status: str
    # dtypes the device's kernels accept (union over its kernels), for the table's "available" column
    available: tuple[str, ...] = ()

    @property
    def covered(self) -> bool:
        return self.status in COVERED


@dataclass(frozen=True)
class Registry:
    name: str  # file stem (e.g. "tensorflow-rocm-2.14.0.600") or "live"
    meta: dict  # every top-level key of the snapshot except "ops"
    ops: dict = field(repr=False)  # op -> device type -> {"kernels", "dtypes", "defs": [{"c", "host", "label"}]}
    source: str = ""  # the file it came from, or how it was read

    @property
    def tf_version(self) -> str:
        return str(self.meta.get("tensorflow_version", "?"))

    @property
    def tf_minor(self) -> str:
        """'2.14' for '2.14.0.600': the version to compare platforms at."""
        parts = re.findall(r"\d+", self.tf_version)
        return ".".join(parts[:2]) if len(parts) >= 2 else self.tf_version

    @property
    def platform(self) -> str:
        """rocm | cuda | cpu, from the build's own build_info (not from its GPU kernels: see gpu_build)."""
        info = self.meta.get("build_info") or {}
        if info.get("is_rocm_build") or self.meta.get("is_built_with_rocm"):
            return "rocm"
        if info.get("is_cuda_build") or self.meta.get("is_built_with_cuda"):
            return "cuda"
        return "cpu"

    @property
    def gpu_build(self) -> bool:
        """Whether the build can use a GPU at all. tensorflow-cpu lists ~100 ops with generic "GPU" kernels
        (iterators, control flow) but cannot run anything on a GPU."""
        return self.platform != "cpu"

    @property
    def alias(self) -> str:
        """Short name for the CLI and URLs: rocm-2.14, cuda-2.21, cpu-2.21 (live: 'live')."""
        return LIVE if self.name == LIVE else f"{self.platform}-{self.tf_minor}"

    @property
    def label(self) -> str:
        platform = {"rocm": "ROCm", "cuda": "CUDA", "cpu": "CPU"}[self.platform]
        suffix = f" · {LIVE}" if self.name == LIVE else ""  # the registry's CLI name, not prose
        return f"TensorFlow {self.tf_version} ({platform}){suffix}"

    @property
    def method(self) -> str:
        return str(self.meta.get("method", ""))

    @property
    def n_gpu_ops(self) -> int:
        return sum(1 for devs in self.ops.values() if "GPU" in devs)

    def knows(self, op: str) -> bool:
        return op in self.ops

    def match(self, op: str, attrs: dict, device: str = "GPU") -> Verdict:
        return match_op(self, op, attrs, device)


def _values(value: object) -> list[str] | None:
    """A node attribute as a list of dtype names (type -> [t], list(type) -> [t, ...]); None if absent."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _kernel_matches(kdef: dict, attrs: dict) -> bool:
    label = kdef.get("label", "")
    if label != attrs.get("_kernel", ""):
        return False
    for name, allowed in kdef.get("c", {}).items():
        values = _values(attrs.get(name))
        if values is None:
            # TensorFlow refuses a kernel whose constrained attr is missing from the NodeDef.
            return False
        if not allowed:
            # A non-type constraint (e.g. data_format in ["NHWC"]): snapshots keep only type lists, so it
            # cannot be checked here. Only a few labelled or unusual kernels have one.
            continue
        if any(v not in allowed for v in values):
            return False
    return True


def match_op(registry: Registry, op: str, attrs: dict, device: str = "GPU") -> Verdict:
    """Does `registry` have a kernel for op with these attrs on `device` (GPU or CPU)?

    attrs maps attribute names to dtype names ("float32") or lists of them; other attributes are ignored.
    The status is the kernel-level answer; whether the build can use a GPU at all is `registry.gpu_build`.
    """
    devices = registry.ops.get(op)
    if devices is None:
        return Verdict(UNKNOWN_OP)
    own = devices.get(device)
    if own and any(_kernel_matches(k, attrs) for k in own["defs"]):
        return Verdict(GPU if device == "GPU" else CPU, tuple(own.get("dtypes", ())))
    default = devices.get("DEFAULT")
    if default and any(_kernel_matches(k, attrs) for k in default["defs"]):
        return Verdict(DEFAULT, tuple(default.get("dtypes", ())))
    if own:
        return Verdict(DTYPE_GAP, tuple(own.get("dtypes", ())))
    if default:
        return Verdict(DTYPE_GAP, tuple(default.get("dtypes", ())))
    return Verdict(NO_GPU_KERNEL if device == "GPU" else NO_CPU_KERNEL)


# --- loading ------------------------------------------------------------------------------------------------


def _validate(data: object, origin: str) -> dict:
    if not isinstance(data, dict) or not isinstance(data.get("ops"), dict) or "tensorflow_version" not in data:
        raise UnsupportedFile("coverage.err.bad_snapshot", name=origin)
    for devices in data["ops"].values():
        if not isinstance(devices, dict):
            raise UnsupportedFile("coverage.err.bad_snapshot", name=origin)
        for info in devices.values():
            if not isinstance(info, dict) or not isinstance(info.get("defs"), list):
                raise UnsupportedFile("coverage.err.bad_snapshot", name=origin)
    return data


def read_snapshot(path: Path) -> Registry:
    """Load one *.json.gz snapshot (size-capped, schema-checked)."""
    try:
        with gzip.open(path, "rb") as fh:
            raw = fh.read(MAX_SNAPSHOT_BYTES + 1)
        if len(raw) > MAX_SNAPSHOT_BYTES:
            raise UnsupportedFile("coverage.err.bad_snapshot", name=path.name)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError):
        raise UnsupportedFile("coverage.err.bad_snapshot", name=path.name) from None
    data = _validate(data, path.name)
    meta = {k: v for k, v in data.items() if k != "ops"}
    name = path.name[: -len(SNAPSHOT_SUFFIX)] if path.name.endswith(SNAPSHOT_SUFFIX) else path.stem
    return Registry(name, meta, data["ops"], source=f"data/tf_kernel_registry/{path.name}")


def snapshot_names(directory: Path | None = None) -> list[str]:
    """Every snapshot in the folder, by file stem (a dropped-in dump appears here with no code change)."""
    folder = directory or SNAPSHOT_DIR
    return sorted(p.name[: -len(SNAPSHOT_SUFFIX)] for p in folder.glob(f"*{SNAPSHOT_SUFFIX}") if p.is_file())


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime_ns: int) -> Registry:
    return read_snapshot(Path(path))


def load_snapshot(name: str, directory: Path | None = None) -> Registry:
    folder = directory or SNAPSHOT_DIR
    if name not in snapshot_names(folder):
        raise UnsupportedFile("coverage.err.unknown_registry", name=name, known=", ".join(snapshot_names(folder)))
    path = folder / f"{name}{SNAPSHOT_SUFFIX}"
    return _load_cached(str(path), path.stat().st_mtime_ns)


def list_snapshots(directory: Path | None = None) -> list[Registry]:
    """All loadable snapshots, sorted by platform then version. Broken files are skipped (see snapshot_problems)."""
    out = []
    for name in snapshot_names(directory):
        try:
            out.append(load_snapshot(name, directory))
        except UnsupportedFile:
            continue
    return sorted(out, key=lambda r: (r.platform, parse_version_safe(r.tf_version)))


def snapshot_problems(directory: Path | None = None) -> list[UnsupportedFile]:
    problems = []
    for name in snapshot_names(directory):
        try:
            load_snapshot(name, directory)
        except UnsupportedFile as err:
            problems.append(err)
    return problems


def parse_version_safe(text: str) -> tuple:
    try:
        return tuple(parse_version(text))
    except Exception:  # noqa: BLE001 - an odd version string sorts first, it never breaks the list
        return ()


def resolve(name: str, directory: Path | None = None) -> Registry:
    """A registry by file stem, alias (rocm-2.14, cuda-2.21) or 'live'. Aliases pick the newest build."""
    if name == LIVE:
        return live_registry()
    snapshots = list_snapshots(directory)
    for reg in snapshots:
        if reg.name == name:
            return reg
    by_alias = [r for r in snapshots if r.alias == name.lower()]
    if by_alias:
        return by_alias[-1]
    known = [r.alias for r in snapshots] + [r.name for r in snapshots] + [LIVE]
    raise UnsupportedFile("coverage.err.unknown_registry", name=name, known=", ".join(dict.fromkeys(known)))


def default_pair(directory: Path | None = None) -> tuple[str, str] | None:
    """The newest TensorFlow version that has both a ROCm and a CUDA snapshot: (rocm name, cuda name).

    Comparing the two platforms at one version keeps version changes out of the difference.
    """
    snapshots = list_snapshots(directory)
    rocm = {r.tf_minor: r for r in snapshots if r.platform == "rocm"}
    cuda = {r.tf_minor: r for r in snapshots if r.platform == "cuda"}
    common = sorted(set(rocm) & set(cuda), key=parse_version_safe)
    if not common:
        return None
    return rocm[common[-1]].name, cuda[common[-1]].name


# --- the installed TensorFlow ---------------------------------------------------------------------------------

_live_lock = threading.Lock()
# XLA's JIT device types register their kernels only once XLA has been used in the process: leaving them out
# keeps a dump independent of what ran before it (the bundled snapshots have none either).
LAZY_DEVICE_TYPES = frozenset({"XLA_CPU_JIT", "XLA_GPU_JIT"})


def _dtype_name(enum_value: int) -> str:
    from tensorflow.python.framework import dtypes

    return dtypes.as_dtype(enum_value).name


def dump_live_registry(method_note: str = "") -> dict:
    """The installed TensorFlow's registry as a snapshot dict (same format as the bundled files).

    Raises ImportError if TensorFlow is missing.
    """
    import tensorflow as tf
    from tensorflow.python.framework import kernels

    kernel_list = kernels.get_all_registered_kernels()
    ops: dict[str, dict[str, dict]] = {}
    for kdef in kernel_list.kernel:
        if kdef.device_type in LAZY_DEVICE_TYPES:
            continue
        entry = ops.setdefault(kdef.op, {}).setdefault(kdef.device_type, {"kernels": 0, "dtypes": set(), "defs": []})
        entry["kernels"] += 1
        constraints: dict[str, list[str]] = {}
        for c in kdef.constraint:
            # Only type lists are kept (as in the bundled snapshots); other allowed values become [].
            names = [_dtype_name(t) for t in c.allowed_values.list.type]
            constraints[c.name] = names
            entry["dtypes"].update(names)
        d: dict = {"c": constraints}
        if kdef.host_memory_arg:
            d["host"] = list(kdef.host_memory_arg)
        if kdef.label:
            d["label"] = kdef.label
        if kdef.priority:
            d["priority"] = kdef.priority
        entry["defs"].append(d)
    raw_ops = [name for name in dir(tf.raw_ops) if not name.startswith("_")]
    without_kernel = [op for op in raw_ops if op not in ops]
    out_ops: dict[str, dict] = {}
    per_device: dict[str, int] = {}
    for op in sorted(set(ops) | set(raw_ops)):
        devices = {}
        for dev in sorted(ops.get(op, {})):
            info = ops[op][dev]
            labels = sorted({d["label"] for d in info["defs"] if "label" in d})
            devices[dev] = {"kernels": info["kernels"], "dtypes": sorted(info["dtypes"])}
            if labels:
                devices[dev]["labels"] = labels
            devices[dev]["defs"] = info["defs"]
            per_device[dev] = per_device.get(dev, 0) + 1
        out_ops[op] = devices
    build_info = dict(tf.sysconfig.get_build_info())
    method = "tensorflow.python.framework.kernels.get_all_registered_kernels() in-process"
    gpus = tf.config.list_physical_devices("GPU")
    method += ", GPU present" if gpus else ", no GPU present"
    if method_note:
        method += f"; {method_note}"
    return {
        "tensorflow_version": tf.__version__,
        "method": method,
        "git_version": tf.version.GIT_VERSION,
        "build_info": {k: v for k, v in build_info.items() if isinstance(v, str | bool | int | float)},
        "is_built_with_cuda": tf.test.is_built_with_cuda(),
        "is_built_with_rocm": tf.test.is_built_with_rocm(),
        "physical_devices": [d.name for d in tf.config.list_physical_devices()],
        "n_kernel_registrations": sum(1 for k in kernel_list.kernel if k.device_type not in LAZY_DEVICE_TYPES),
        "n_raw_ops": len(raw_ops),
        "ops_per_device_type": dict(sorted(per_device.items(), key=lambda kv: -kv[1])),
        "ops_with_gpu_kernel": per_device.get("GPU", 0),
        "ops_with_any_kernel": len(ops),
        "raw_ops_without_kernel": len(without_kernel),
        "ops": out_ops,
    }


def default_snapshot_name(snapshot: dict) -> str:
    version = snapshot["tensorflow_version"]
    if snapshot.get("is_built_with_rocm"):
        return f"tensorflow-rocm-{version}"
    if snapshot.get("is_built_with_cuda"):
        return f"tensorflow-{version}-cuda"
    return f"tensorflow-cpu-{version}"


def write_snapshot(snapshot: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(snapshot, fh, separators=(",", ":"))


_live: Registry | None = None


def live_registry() -> Registry:
    """The installed TensorFlow's registry (read once per process; needs TensorFlow: ~5 s to import)."""
    global _live
    with _live_lock:
        if _live is None:
            try:
                snapshot = dump_live_registry()
            except ImportError as exc:
                raise BackendUnavailable("coverage.err.no_tensorflow", detail=str(exc)[:200]) from None
            meta = {k: v for k, v in snapshot.items() if k != "ops"}
            _live = Registry(LIVE, meta, snapshot["ops"], source="tensorflow.python.framework.kernels (live)")
        return _live
