"""The explainer pictures: one registry for the chapters, the pages, the handouts and the back-row test.

A picture explains one mechanism in a few steps (a frame per step). Its builder is headless and lives beside the
data it draws (rocm_bridge.stack.figure, rocm_bridge.formulas.figures, ...); this module only names it, as
"module:function" text, so importing the registry loads no builder and no Plotly. A builder is called as
`build(step, lang, theme) -> Frame` (plus the variant and the page context where its row asks for them) with 0 <= step < steps; a frame is an SVG document (rocm_bridge.visual.svg) or
a Plotly figure in the house layout, plus one sentence saying what the step shows.

Tour steps are data (as in Polo Club's explainers): the step sentences come from the builder, the controls
(rocm_bridge.ui.pictures: previous / play / pause / next, the step kept in the link) are the same for every picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class Frame:
    """One step of a picture: exactly one of `svg` (an SVG document) or `figure` (a Plotly figure)."""

    caption: str  # what this step shows, one sentence in the picture's language
    svg: str | None = None
    figure: Any = None


@dataclass(frozen=True)
class Picture:
    id: str  # also the widget name "picture:<id>" and the URL key "<id>_step"
    build: str  # "module:function" -> Frame
    steps: int  # frame count (1: a still picture)
    page: str  # the page (rocm_bridge.pages key) where it first appears: the back-row test opens it there
    title_key: str  # catalog key of its title (also the picture's accessible name)
    sources: tuple[str, ...] = ()  # source cells, shown under the picture (rocm_bridge.text.source_link)
    print_step: int = -1  # the step a handout prints (-1: the last)
    # Optional: one control above the picture picks a variant (e.g. which op the hero traces), kept in the link as
    # `?<id>_<variant_param>=<variant>`; the builder is then called build(step, lang, theme, variant). The first
    # variant is the default and the one a handout prints.
    variants: tuple[str, ...] = ()
    variant_param: str = "v"
    variant_label_key: str = ""  # catalog key of the control's label
    # Optional: a UI renderer "module:function" drawn below the picture, called with (step, variant) (0-based step):
    # the click-for-detail part of "overview first" (the hero opens a layer group's detail there).
    detail: str = ""
    # Optional: a UI provider "module:function" of page context, called with no arguments where the picture is
    # drawn: a mapping of strings (JSON for structured values) such as the visitor's own measurement. The builder
    # is then called with `context=` that mapping ({} in a handout or when the provider has nothing); the context
    # is part of the frame cache key.
    context: str = ""


def _index(pictures: tuple[Picture, ...]) -> dict[str, Picture]:
    out: dict[str, Picture] = {}
    for p in pictures:
        if p.id in out or p.steps < 1:
            raise ValueError(f"picture {p.id!r}: listed twice or without steps")
        out[p.id] = p
    return out


# One row per picture (add yours here; the chapter shows it with `::: widget picture:<id>`).
PICTURES: dict[str, Picture] = _index((
    Picture("hero", "rocm_bridge.stack.hero:build", 8, "ch1", "pictures.hero.title",
            ("data/stack_equivalents.csv", "data/hipify_mappings.csv (ROCm/HIPIFY docs/tables, commit 014177bc)",
             "data/tf_kernel_registry/ (TensorFlow 2.14 CUDA and ROCm kernel registries)"),
            print_step=-1, variants=("tf.matmul", "tf.nn.conv2d"), variant_param="op",
            variant_label_key="pictures.hero.op", detail="rocm_bridge.ui.stack_widgets:hero_detail"),
    Picture("envcheck", "rocm_bridge.course.envcheck_picture:build", 7, "ch8", "pictures.envcheck.title",
            ("content/en/ch8.md: tensorflow-cpu 2.21 on this project's development machine, no GPU, 2026-11",
             "https://www.tensorflow.org/api_docs/python/tf/config/set_soft_device_placement")),
    Picture("mi300x", "rocm_bridge.hardware.partitions:build", 6, "ch10", "pictures.mi300x.title",
            ("data/gpu_specs.csv (Instinct MI300X)",
             "https://rocm.docs.amd.com/projects/amdsmi/en/latest/conceptual/partition.html",
             "https://rocm.blogs.amd.com/software-tools-optimization/compute-memory-modes/README.html")),
    Picture("pytorch", "rocm_bridge.course.pytorch_picture:build", 10, "ch11", "pictures.pytorch.title",
            ("https://docs.pytorch.org/docs/stable/notes/hip.html",
             "https://github.com/triton-lang/triton (third_party/nvidia and third_party/amd backends)",
             "https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference-optimization/optimizing-triton-kernel.html")),
    # chapters 2, 3, 4, 6 (rocm_bridge.formulas.pictures)
    Picture("compatible", "rocm_bridge.formulas.pictures:compatible", 4, "ch2", "pictures_mech.compat.title",
            ("data/tf_rocm_compat.csv (AMD ROCm compatibility matrix)",), print_step=1),
    Picture("per_op_time", "rocm_bridge.formulas.pictures:per_op_time", 4, "ch3", "pictures_mech.op.title",
            ("data/formula_lab_recorded.json (bench/formula_lab_op_times.py)",), print_step=2),
    Picture("throughput", "rocm_bridge.formulas.pictures:throughput", 4, "ch4", "pictures_mech.tp.title",
            ("data/gpu_specs.csv (Instinct MI250); ResNet-50 FLOPs: He et al. 2016, Table 1",)),
    Picture("speedup", "rocm_bridge.formulas.pictures:speedup", 4, "ch6", "pictures_mech.sp.title",
            ("Amdahl, AFIPS 1967: S = 1 / ((1 - p) + p / s)",)),
    # chapter 5 and /coverage (rocm_bridge.coverage.picture)
    Picture("coverage", "rocm_bridge.coverage.picture:coverage_picture", 4, "ch5", "pictures_mech.cov.title",
            ("data/example_model_ops.json; data/tf_kernel_registry (tensorflow-2.14.0-cuda, "
             "tensorflow-rocm-2.14.0.600)",), print_step=2),
    # chapter 7 and /hardware (rocm_bridge.hardware.picture)
    Picture("roofline", "rocm_bridge.hardware.picture:roofline", 4, "ch7", "pictures_mech.roof.title",
            ("data/gpu_specs.csv (Instinct MI250, A100 80GB SXM4); data/recorded (live lab, recorded)",),
            print_step=2, context="rocm_bridge.ui.roofline_picture:context"),
    # chapter 9 (rocm_bridge.wavefront.pictures)
    Picture("wavefront", "rocm_bridge.wavefront.pictures:wavefront", 5, "ch9", "pictures_mech.wave.title",
            ("HIP docs, Warp cross-lane functions (warpSize, __ballot 64-bit): "
             "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html",)),
    Picture("occupancy", "rocm_bridge.wavefront.pictures:occupancy_picture", 7, "ch9", "pictures_mech.occ.title",
            ("data/amdgpu_targets.csv; rocm_bridge/compile/occupancy.py (LLVM GCNSubtarget::computeOccupancy)",),
            print_step=3),
    Picture("lds_banks", "rocm_bridge.wavefront.pictures:lds_banks", 4, "ch9", "pictures_mech.lds.title",
            ("ROCm Compute Profiler docs, Local data share (32 banks x 4 B, 128 B/clock): "
             "https://rocm.docs.amd.com/projects/rocprofiler-compute/en/latest/conceptual/local-data-share.html",),
            print_step=2),
    # chapter 12 (rocm_bridge.hardware.memory_picture)
    Picture("memory", "rocm_bridge.hardware.memory_picture:build", 7, "ch12", "pictures2.mem.title",
            ("data/gpu_specs.csv (Instinct MI300X: XCDs, CUs per XCD, HBM3, bandwidth, 256 MiB Infinity Cache)",
             "data/amdgpu_targets.csv (gfx940: VGPR file 512 KiB, LDS 64 KiB per CU)",
             "https://rocm.docs.amd.com/en/latest/reference/gpu-specs.html (MI300X: L1 32 KiB per CU, "
             "L2 4 MiB per XCD)",
             "https://rocm.blogs.amd.com/software-tools-optimization/compute-memory-modes/README.html (SPX: "
             "workgroups round-robin over the XCDs)",
             "https://docs.modular.com/mojo/kernels/linalg/matmul/gpu/amd/pingpong_kernel/chiplet_transform_chunked "
             "(chunked remap)"),
            print_step=5),
    Picture("exec_mask", "rocm_bridge.wavefront.exec_picture:build", 5, "ch12", "pictures2.exec.title",
            ("content/en/ch12.md (EXEC: s_and_saveexec_b64 ... s_or_b64 exec; s_cbranch_execz)",
             "AMD Instinct MI300 (CDNA3) ISA reference guide: EXEC mask, s_and_saveexec_b64, s_cbranch_execz",
             "https://llvm.org/docs/AMDGPUUsage.html"),
            print_step=2),
))


def _resolve(ref: str) -> Any:
    import importlib

    module, func = ref.split(":")
    return getattr(importlib.import_module(module), func)


def context_key(context: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    """A page context as frame() takes it: hashable, in a fixed order; only string values are kept."""
    return tuple(sorted((str(k), v) for k, v in (context or {}).items() if isinstance(v, str)))


@lru_cache(maxsize=512)
def frame(picture_id: str, step: int, lang: str, theme: str = "light", variant: str = "",
          context: tuple[tuple[str, str], ...] = ()) -> Frame:
    """The frame of `picture_id` at `step` (clamped to the picture's steps), cached per language, theme, variant
    and page context (an unknown or empty variant is the first one; pictures without variants ignore it, and
    pictures without a context provider ignore the context)."""
    spec = PICTURES[picture_id]
    step = min(max(step, 0), spec.steps - 1)
    kwargs = {"context": dict(context)} if spec.context else {}
    if spec.variants:
        out = _resolve(spec.build)(step, lang, theme, variant if variant in spec.variants else spec.variants[0],
                                   **kwargs)
    else:
        out = _resolve(spec.build)(step, lang, theme, **kwargs)
    if (out.svg is None) == (out.figure is None):
        raise ValueError(f"picture {picture_id!r} step {step}: a frame is an SVG or a figure")
    return out


def print_item(picture_id: str, lang: str) -> Any:
    """What a handout shows for the picture: its print step, light theme (rocm_bridge.course.widgets types)."""
    from rocm_bridge.course.widgets import PrintChart, PrintPicture

    spec = PICTURES[picture_id]
    f = frame(picture_id, spec.print_step % spec.steps, lang, "light")
    if f.svg is not None:
        return PrintPicture(f.svg, spec.sources, f.caption)
    return PrintChart(f.figure, spec.sources)
