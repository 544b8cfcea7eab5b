"""The CUDA and ROCm software stacks side by side, built from data/stack_equivalents.csv.

One row of the table is one layer: the CUDA component, its ROCm twin, the HIP portable layer where one
exists, the role and the sources. This module turns the rows into components with stable ids
("cuda.math-blas", "rocm.math-blas", "hip.math-blas") that pages can put in a URL, and adds what the
explorer needs on top: the layer order, "trace an op" paths, the HIP-on-NVIDIA path, the terminology table
and the API counts per library from data/hipify_mappings.csv.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from functools import lru_cache

from rocm_bridge.data import data_path, read_csv
from rocm_bridge.errors import InvalidInput

STACK_CSV = "stack_equivalents.csv"
HIPIFY_CSV = "hipify_mappings.csv"
SIDES: tuple[str, ...] = ("cuda", "hip", "rocm")
VENDOR_OF_SIDE = {"cuda": "NVIDIA", "rocm": "AMD", "hip": "HIP"}

# Layers grouped into tiers, bottom (hardware) to top (tools). The tier decides the order in the diagram.
TIERS: tuple[str, ...] = (
    "hardware",
    "driver",
    "runtime",
    "compiler",
    "programming",
    "math",
    "dl",
    "communication",
    "inference",
    "frameworks",
    "tools",
    "monitoring",
)
_TIER_OF_LAYER: dict[str, str] = {
    "hardware": "hardware",
    "interconnect": "hardware",
    "kernel driver": "driver",
    "low-level runtime": "runtime",
    "runtime API": "runtime",
    "ISA / IR": "compiler",
    "compiler": "compiler",
    "runtime compilation": "compiler",
    "programming model": "programming",
    "platform macros": "programming",
    "GPU selection env var": "programming",
    "porting tool": "programming",
    "parallel primitives": "math",
    "parallel algorithms": "math",
    "DL primitives": "dl",
    "communication": "communication",
    "inference optimizer": "inference",
    "compiler (XLA)": "frameworks",
    "frameworks (TensorFlow)": "frameworks",
    "containers": "frameworks",
    "profiler (tracing)": "tools",
    "profiler (kernel analysis)": "tools",
    "annotation API": "tools",
    "debugger": "tools",
    "monitoring CLI": "monitoring",
    "fleet monitoring": "monitoring",
    "device query": "monitoring",
    "system validation": "monitoring",
}

# The layers shown when the explorer is embedded in a chapter (compact mode): the path of a TF op plus the
# everyday tools.
COMPACT_LAYERS: tuple[str, ...] = (
    "hardware",
    "kernel-driver",
    "low-level-runtime",
    "runtime-api",
    "compiler",
    "isa-ir",
    "programming-model",
    "math-blas",
    "dl-primitives",
    "communication",
    "frameworks-tensorflow",
    "monitoring-cli",
)

# Short labels for the diagram where the first words of the data cell are not a name. The full cell text is
# always shown next to the label in the detail panel.
_SHORT: dict[tuple[str, str], str] = {
    ("kernel-driver", "cuda"): "NVIDIA driver",
    ("kernel-driver", "rocm"): "amdgpu driver",
    ("low-level-runtime", "hip"): "HIP (hipModule*/hipCtx*)",
    ("runtime-api", "hip"): "HIP runtime API",
    ("isa-ir", "cuda"): "PTX / SASS",
    ("isa-ir", "rocm"): "AMDGPU ISA code objects",
    ("math-structured-sparsity", "rocm"): "via hipSPARSELt",
    ("math-tensor-contractions", "rocm"): "via hipTensor",
    ("dl-primitives", "hip"): "hipDNN (HIPIFY tables)",
    ("communication", "hip"): "RCCL (NCCL API)",
    ("fleet-monitoring", "rocm"): "RDC",
    ("device-query", "cuda"): "deviceQuery / nvidia-smi -L",
    ("system-validation", "rocm"): "RVS, ROCm Bandwidth Test",
    ("gpu-selection-env-var", "hip"): "CUDA_VISIBLE_DEVICES (also read by HIP)",
    ("containers", "cuda"): "NVIDIA Container Toolkit",
    ("containers", "rocm"): "docker --device=/dev/kfd",
    ("frameworks-tensorflow", "cuda"): "tensorflow[and-cuda]",
    ("frameworks-tensorflow", "rocm"): "tensorflow-rocm",
    ("interconnect", "rocm"): "Infinity Fabric (xGMI)",
    ("profiler-tracing", "rocm"): "rocprofv3",
}

# Map a layer to the hipify api_group whose CUDA names it owns, for the API counts in the detail panel.
API_GROUP_OF_LAYER: dict[str, str] = {
    "runtime-api": "runtime",
    "low-level-runtime": "driver",
    "math-blas": "blas",
    "math-fft": "fft",
    "math-rng": "rand",
    "math-solvers": "solver",
    "math-sparse": "sparse",
    "parallel-primitives": "cub",
    "runtime-compilation": "rtc",
    "dl-primitives": "dnn",
}

# hipify api_group -> (CUDA library, HIP target, ROC target or None). Names from hipify_mappings.SOURCE.md.
API_GROUP_LIBRARIES: dict[str, tuple[str, str, str | None]] = {
    "runtime": ("CUDA Runtime API", "HIP runtime", None),
    "driver": ("CUDA Driver API", "HIP runtime", None),
    "device": ("CUDA device functions", "HIP device functions", None),
    "complex": ("cuComplex", "hipComplex", None),
    "rtc": ("NVRTC", "hipRTC", None),
    "blas": ("cuBLAS", "hipBLAS", "rocBLAS"),
    "sparse": ("cuSPARSE", "hipSPARSE", "rocSPARSE"),
    "solver": ("cuSOLVER", "hipSOLVER", "rocSOLVER"),
    "rand": ("cuRAND", "hipRAND", "rocRAND"),
    "fft": ("cuFFT", "hipFFT", None),
    "dnn": ("cuDNN", "hipDNN", "MIOpen"),
    "cub": ("CUB", "hipCUB", None),
}

# Layer rows that belong in the terminology table next to the category=terminology rows.
TERMINOLOGY_LAYERS: tuple[str, ...] = (
    "compiler",
    "isa-ir",
    "programming-model",
    "monitoring-cli",
    "debugger",
    "gpu-selection-env-var",
    "platform-macros",
)


def slug(text: str) -> str:
    """'math: BLAS' -> 'math-blas'; 'ISA / IR' -> 'isa-ir'; 'frameworks (TensorFlow)' -> 'frameworks-tensorflow'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _absent(cell: str) -> bool:
    # "(none; source is CUDA)" and "(no single equivalent named in sources)" state that nothing exists.
    return not cell.strip() or cell.strip().startswith(("(none", "(no "))


def short_name(cell: str) -> str:
    """The name at the start of a data cell: 'rocBLAS (AMD-native)' -> 'rocBLAS'."""
    head = re.split(r" \(|; |: |, ", cell.strip())[0].strip()
    return head.strip("()") or cell.strip()


def split_sources(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in text.split(" | ") if s.strip())


@dataclass(frozen=True)
class Component:
    id: str  # "<side>.<layer slug>"
    side: str  # cuda | hip | rocm
    layer: str  # layer slug
    layer_name: str  # the layer as written in the data ("math: BLAS")
    name: str  # short label for the diagram
    full: str  # the whole data cell
    role: str
    note: str
    sources: tuple[str, ...]

    @property
    def vendor(self) -> str:
        return VENDOR_OF_SIDE[self.side]


@dataclass(frozen=True)
class Layer:
    slug: str
    name: str  # as in the data
    tier: str
    role: str
    note: str
    sources: tuple[str, ...]
    cuda: str  # data cells; "" where the data says there is none
    rocm: str
    hip: str

    def component_id(self, side: str) -> str | None:
        return f"{side}.{self.slug}" if getattr(self, side) else None


@lru_cache(maxsize=1)
def layers() -> tuple[Layer, ...]:
    """The category=layer rows, ordered bottom (hardware) to top (monitoring), stable within a tier."""
    rows = [r for r in read_csv(STACK_CSV) if r["category"] == "layer"]
    out = []
    for row in rows:
        name = row["layer"]
        if name not in _TIER_OF_LAYER and not name.startswith("math"):
            raise ValueError(f"{STACK_CSV}: layer {name!r} has no tier; add it to _TIER_OF_LAYER")
        out.append(
            Layer(
                slug=slug(name),
                name=name,
                tier=_TIER_OF_LAYER.get(name, "math"),
                role=row["role"],
                note=row["note"],
                sources=split_sources(row["source"]),
                cuda="" if _absent(row["cuda_component"]) else row["cuda_component"],
                rocm="" if _absent(row["rocm_component"]) else row["rocm_component"],
                hip="" if _absent(row["hip_portable_layer"]) else row["hip_portable_layer"],
            )
        )
    order = {tier: i for i, tier in enumerate(TIERS)}
    return tuple(sorted(out, key=lambda layer: order[layer.tier]))  # sorted() is stable


def layer(layer_slug: str) -> Layer:
    for item in layers():
        if item.slug == layer_slug:
            return item
    raise InvalidInput("stack.error.unknown_layer", value=layer_slug)


@lru_cache(maxsize=1)
def _components() -> dict[str, Component]:
    out: dict[str, Component] = {}
    for lay in layers():
        for side in SIDES:
            cell = getattr(lay, side)
            if not cell:
                continue
            cid = f"{side}.{lay.slug}"
            out[cid] = Component(
                id=cid,
                side=side,
                layer=lay.slug,
                layer_name=lay.name,
                name=_SHORT.get((lay.slug, side), short_name(cell)),
                full=cell,
                role=lay.role,
                note=lay.note,
                sources=lay.sources,
            )
    return out


def components() -> tuple[Component, ...]:
    """Every component, bottom layer first, CUDA then HIP then ROCm within a layer."""
    return tuple(_components().values())


def component(component_id: str) -> Component:
    """Look a component up by id; an unknown id raises InvalidInput (a bad deep link, say)."""
    try:
        return _components()[component_id]
    except KeyError:
        raise InvalidInput("stack.error.unknown_component", value=str(component_id)[:80]) from None


def find(name: str) -> Component:
    """Look a component up by its name as a user would type it ('cuBLAS', 'rocblas', 'hipcc')."""
    wanted = name.strip().lower()
    for comp in components():
        if comp.name.lower() == wanted:
            return comp
    for comp in components():
        if re.search(rf"(?<![\w-]){re.escape(wanted)}(?![\w-])", comp.full.lower()):
            return comp
    raise InvalidInput("stack.error.unknown_component", value=name[:80])


def twin(component_id: str) -> Component | None:
    """The other vendor's component in the same layer: cuBLAS <-> rocBLAS. For a HIP component, the AMD one
    it runs on by default (its NVIDIA counterpart is `counterparts(...)['cuda']`)."""
    comp = component(component_id)
    other = {"cuda": "rocm", "rocm": "cuda", "hip": "rocm"}[comp.side]
    return _components().get(f"{other}.{comp.layer}")


def counterparts(component_id: str) -> dict[str, Component | None]:
    """The three sides of the component's layer: {'cuda': ..., 'hip': ..., 'rocm': ...} (None where absent)."""
    comp = component(component_id)
    return {side: _components().get(f"{side}.{comp.layer}") for side in SIDES}


def terminology() -> list[dict[str, str]]:
    """The terminology table: concept, CUDA term, ROCm term, what it means, source.

    The category=terminology rows (SM/CU, warp/wavefront, shared memory/LDS ...) plus the everyday tool pairs
    from the layer rows (nvcc/hipcc, PTX/AMDGPU ISA, nvidia-smi/amd-smi ...).
    """
    rows = []
    for row in read_csv(STACK_CSV):
        if row["category"] == "terminology":
            s = slug(row["layer"])
            rows.append(
                (
                    row["layer"],
                    f"stack.term.{s}",
                    f"stack.termrole.{s}",
                    row["cuda_component"],
                    row["rocm_component"],
                    row["role"],
                    row["source"],
                )
            )
    for lay in layers():
        if lay.slug in TERMINOLOGY_LAYERS:
            rocm = lay.rocm if lay.slug != "compiler" else f"{lay.hip}; {lay.rocm}"
            rows.append(
                (
                    lay.name,
                    f"stack.layer.{lay.slug}",
                    f"stack.role.{lay.slug}",
                    lay.cuda,
                    rocm,
                    lay.role,
                    " | ".join(lay.sources),
                )
            )
    return [
        {"concept": c, "concept_key": ck, "role_key": rk, "cuda": cu, "rocm": ro, "role": role, "source": src}
        for c, ck, rk, cu, ro, role, src in rows
    ]


# --- trace an op ------------------------------------------------------------------------------------------

KERNEL_REGISTRIES = {
    "cuda": "tf_kernel_registry/tensorflow-2.14.0-cuda.json.gz",
    "rocm": "tf_kernel_registry/tensorflow-rocm-2.14.0.600.json.gz",
}
_TF_COMPAT_SOURCE = (
    "github.com/ROCm/ROCm docs/compatibility/ml-compatibility/tensorflow-compatibility.rst "
    "(critical ROCm libraries for TensorFlow; feature table)"
)


@dataclass(frozen=True)
class OpTrace:
    op: str  # the Python call, "tf.matmul"
    raw_op: str  # the registered TensorFlow op, "MatMul"
    library_layer: str  # the layer slug of the kernel library
    path: tuple[str, ...]  # layer slugs, top (framework) to bottom (hardware)

    def component_ids(self, side: str) -> tuple[str, ...]:
        return tuple(f"{side}.{s}" for s in self.path if f"{side}.{s}" in _components())


_OP_PATH = ("runtime-api", "low-level-runtime", "kernel-driver", "hardware")
TRACES: dict[str, OpTrace] = {
    "tf.matmul": OpTrace("tf.matmul", "MatMul", "math-blas", ("frameworks-tensorflow", "math-blas", *_OP_PATH)),
    "tf.nn.conv2d": OpTrace(
        "tf.nn.conv2d", "Conv2D", "dl-primitives", ("frameworks-tensorflow", "dl-primitives", *_OP_PATH)
    ),
}


def trace(op: str) -> OpTrace:
    try:
        return TRACES[op]
    except KeyError:
        raise InvalidInput("stack.error.unknown_op", value=str(op)[:80], known=", ".join(TRACES)) from None


@lru_cache(maxsize=4)
def _registry(side: str) -> dict:
    with gzip.open(data_path(KERNEL_REGISTRIES[side]), "rt", encoding="utf-8") as fh:
        return json.load(fh)


def gpu_kernel_dtypes(raw_op: str, side: str) -> tuple[str, ...]:
    """Dtypes of the op's GPU kernels in the build's registry snapshot (TF 2.14, CUDA or ROCm); () if none."""
    entry = _registry(side)["ops"].get(raw_op, {})
    return tuple(entry.get("GPU", {}).get("dtypes", ()))


def trace_sources(op: str) -> tuple[str, ...]:
    """Where each step of a trace comes from: the registry snapshots for the op, the stack table for the rest."""
    tr = trace(op)
    sources = [f"data/{KERNEL_REGISTRIES['cuda']}", f"data/{KERNEL_REGISTRIES['rocm']}", _TF_COMPAT_SOURCE]
    for lay in tr.path:
        for src in layer(lay).sources:
            if src not in sources:
                sources.append(src)
    return tuple(sources)


# HIP source compiled for NVIDIA: hipcc hands the code to nvcc and the HIP API is a thin layer over the CUDA
# runtime, so everything below the HIP layer is the CUDA stack (hip_portable_layer 'hipcc (calls nvcc on
# NVIDIA or HIP-Clang on AMD)', platform macro __HIP_PLATFORM_NVIDIA__).
HIP_ON_NVIDIA_PATH: tuple[tuple[str, str], ...] = (
    ("hip.programming-model", "hip.compiler"),
    ("hip.compiler", "cuda.compiler"),
    ("cuda.compiler", "cuda.isa-ir"),
    ("hip.runtime-api", "cuda.runtime-api"),
    ("hip.math-blas", "cuda.math-blas"),
    ("cuda.runtime-api", "cuda.low-level-runtime"),
    ("cuda.low-level-runtime", "cuda.kernel-driver"),
    ("cuda.kernel-driver", "cuda.hardware"),
)
HIP_ON_AMD_PATH: tuple[tuple[str, str], ...] = (
    ("hip.programming-model", "hip.compiler"),
    ("hip.compiler", "rocm.compiler"),
    ("rocm.compiler", "rocm.isa-ir"),
    ("hip.runtime-api", "rocm.runtime-api"),
    ("hip.math-blas", "rocm.math-blas"),
    ("rocm.runtime-api", "rocm.low-level-runtime"),
    ("rocm.low-level-runtime", "rocm.kernel-driver"),
    ("rocm.kernel-driver", "rocm.hardware"),
)
HIP_PATH_SOURCES: tuple[str, ...] = (
    "github.com/ROCm/HIP docs/how-to/hip_porting_guide.md",
    "data/stack_equivalents.csv (compiler row: 'hipcc (calls nvcc on NVIDIA or HIP-Clang on AMD)'; "
    "platform macros row: `__HIP_PLATFORM_NVIDIA__`)",
)


def hip_path(on_nvidia: bool) -> tuple[tuple[str, str], ...]:
    return HIP_ON_NVIDIA_PATH if on_nvidia else HIP_ON_AMD_PATH


# --- API counts -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ApiCount:
    api_group: str
    cuda_library: str
    hip_library: str
    roc_library: str | None
    cuda_names: int  # distinct CUDA names in the HIPIFY tables for this group
    with_hip: int  # of those, names with a translation in the default (hip) target
    with_roc: int | None  # names with a translation in the --roc / MIOpen target; None if no such target

    @property
    def hip_share(self) -> float:
        return self.with_hip / self.cuda_names if self.cuda_names else 0.0


@lru_cache(maxsize=1)
def api_counts() -> tuple[ApiCount, ...]:
    """CUDA names per api_group in data/hipify_mappings.csv and how many have a HIP / ROC equivalent."""
    names: dict[str, set[str]] = {}
    hip: dict[str, set[str]] = {}
    roc: dict[str, set[str]] = {}
    for row in read_csv(HIPIFY_CSV):
        group = row["api_group"]
        names.setdefault(group, set()).add(row["cuda_name"])
        target = hip if row["variant"] == "hip" else roc
        bucket = target.setdefault(group, set())
        if row["hip_name"].strip():
            bucket.add(row["cuda_name"])
    out = []
    for group in API_GROUP_LIBRARIES:
        if group not in names:
            continue
        cuda_lib, hip_lib, roc_lib = API_GROUP_LIBRARIES[group]
        out.append(
            ApiCount(
                api_group=group,
                cuda_library=cuda_lib,
                hip_library=hip_lib,
                # ROC counts for the groups with a ROCm library target only: the runtime types' few ROC names
                # (cudaStream_t -> miopenAcceleratorQueue_t) are MIOpen's, not a runtime target
                roc_library=roc_lib if group in roc and roc_lib else None,
                cuda_names=len(names[group]),
                with_hip=len(hip.get(group, ())),
                with_roc=len(roc[group]) if group in roc and roc_lib else None,
            )
        )
    return tuple(out)


def api_count_for_layer(layer_slug: str) -> ApiCount | None:
    group = API_GROUP_OF_LAYER.get(layer_slug)
    return next((c for c in api_counts() if c.api_group == group), None)


API_COUNT_SOURCE = "data/hipify_mappings.csv: ROCm/HIPIFY docs/tables/*.md at commit 014177bc (2024-10-24), MIT licence"
STACK_SOURCE = "data/stack_equivalents.csv"
