"""Chapter 11's picture: PyTorch on CUDA and on ROCm, layer by layer, from `model(x)` through torch.compile,
TorchInductor and Triton down to the GPU, showing which layers are the same code on both and which differ.

Headless SVG (rocm_bridge.visual.svg). The layers are chapter 11's ("torch.compile and Triton", "PyTorch on
ROCm"); Triton's stages are its two backends' (triton-lang/triton: third_party/nvidia ttir -> ttgir -> llir -> ptx
-> cubin, third_party/amd ttir -> ttgir -> llir -> amdgcn -> hsaco).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocm_bridge import i18n
from rocm_bridge.stack.figure import HIGHLIGHT, side_color
from rocm_bridge.visual import style, svg
from rocm_bridge.visual.pictures import Frame

SOURCES: tuple[str, ...] = (
    "https://docs.pytorch.org/docs/stable/notes/hip.html",
    "https://github.com/triton-lang/triton (third_party/nvidia, third_party/amd backends)",
    "https://rocm.docs.amd.com/en/latest/how-to/rocm-for-ai/inference-optimization/optimizing-triton-kernel.html",
)


@dataclass(frozen=True)
class Row:
    key: str  # catalog key suffix of its label
    cuda: str  # the block's text; for a shared row, the one block's
    rocm: str | None  # None: the same code on both (one block across both columns)
    cuda_detail: str = ""  # the second line when the row is open (code, or "@key": a catalog note)
    rocm_detail: str = ""


ROWS: tuple[Row, ...] = (
    Row("model", "y = model(x.to(\"cuda\"))", None, "torch.cuda.is_available() → True", ""),
    Row("dynamo", "TorchDynamo", None, "torch.compile(model)", ""),
    Row("inductor", "TorchInductor", None, "TORCHINDUCTOR_CACHE_DIR", ""),
    Row("triton", "Triton", None, "ttir → ttgir → llir", ""),
    Row("backend", "PTX → cubin", "AMDGCN → hsaco", "sm_90", "gfx942 · waves_per_eu"),
    Row("eager", "cuBLAS · cuDNN", "rocBLAS · hipBLASLt · MIOpen", "@aten_cuda", "@aten_hip"),
    Row("runtime", "CUDA runtime", "HIP runtime", "torch.version.cuda", "torch.version.hip"),
    Row("gpu", "NVIDIA GPU", "AMD Instinct GPU", "@warp", "@wavefront"),
)
STEPS = len(ROWS) + 2  # the overview, one step per row, the summary

W = svg.WIDTH
LABEL_W = 190
CUDA_X, ROCM_X, COL_W = 200, 600, 384
TOP, ROW_H, PITCH, OPEN_H = 84, 40, 46, 76


def _t(lang: str, key: str, **params: object) -> str:
    return i18n.t(f"pictures.pytorch.{key}", lang, **params)


def build(step: int, lang: str, theme: str = "light") -> Frame:
    at = step - 1 if 1 <= step <= len(ROWS) else -1  # the open row
    summary = step == STEPS - 1
    height = TOP + PITCH * len(ROWS) + (OPEN_H - ROW_H) + 46
    doc = svg.Svg(W, height, theme)
    pal = doc.pal
    shared = sum(1 for r in ROWS if r.rocm is None)
    head = _t(lang, f"step{step}", same=shared, total=len(ROWS))
    text, size = svg.fitted(head, svg.TITLE_PX, W - 16)
    doc.text(8, 30, text, size=size, weight="bold")
    for side, x in (("cuda", CUDA_X), ("rocm", ROCM_X)):
        doc.text(x + COL_W / 2, 68, _t(lang, f"col_{side}"), size=svg.LABEL_PX, anchor="middle", weight="bold")
    y = TOP
    same_fill = pal.part["kernel"]
    for i, row in enumerate(ROWS):
        open_ = i == at
        h = OPEN_H if open_ else ROW_H
        done = step == 0 or summary or i <= at
        label, lsize = svg.fitted(_t(lang, f"row_{row.key}"), svg.LABEL_PX, LABEL_W - 12)
        doc.text(4, y + 27, label, size=lsize, weight="bold" if open_ else "normal",
                 fill=pal.ink if done else pal.muted)
        if row.rocm is None:
            blocks = [(CUDA_X, ROCM_X + COL_W - CUDA_X, same_fill, row.cuda, row.cuda_detail)]
        else:
            blocks = [(CUDA_X, COL_W, side_color("cuda", theme), row.cuda, row.cuda_detail),
                      (ROCM_X, COL_W, side_color("rocm", theme), row.rocm, row.rocm_detail)]
        for x, w, base, main, detail in blocks:
            fill = base if done else style.blend(base, pal.background, 0.28)
            if summary and row.rocm is not None:
                fill = style.blend(base, pal.background, 0.55)
            ink = style.text_on(fill)
            doc.rect(x, y, w, h, fill=fill, stroke=HIGHLIGHT if open_ else None, rx=8)
            text, tsize = svg.fitted(main, svg.LABEL_PX, w - 24, mono=_code(main))
            doc.text(x + 12, y + 27, text, size=tsize, fill=ink, mono=_code(main), weight="bold" if open_ else "normal")
            if detail.startswith("@"):
                detail = _t(lang, detail[1:])
            if open_ and detail:
                text, dsize = svg.fitted(detail, 18, w - 24, mono=_code(detail))
                doc.text(x + 12, y + 62, text, size=dsize, fill=ink, mono=_code(detail))
        if open_ and row.rocm is None:  # a shared row: say so inside it, on the right
            note, nsize = svg.fitted(_t(lang, "same_code"), 18, 300)
            doc.text(ROCM_X + COL_W - 12, y + 27, note, size=nsize, fill=style.text_on(same_fill), anchor="end")
        y += h + (PITCH - ROW_H)
    legend = _t(lang, "legend_summary" if summary else "legend", same=shared, total=len(ROWS))
    text, lsize = svg.fitted(legend, svg.LABEL_PX, W - 16)
    doc.text(8, height - 14, text, size=lsize, fill=pal.ink)
    return Frame(_t(lang, f"caption{step}", same=shared, total=len(ROWS)), svg=doc.render(_t(lang, "label")))


def _code(text: str) -> bool:
    return text.isascii() and any(c in text for c in "()._=") and " · " not in text
