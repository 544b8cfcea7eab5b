"""Chapter 8's picture: the classic TensorFlow environment check as a flow, on a machine where TensorFlow sees no
GPU. With soft placement on (TensorFlow 2's default) the "GPU" matmul silently runs on the CPU and the script prints
the right matrix; turned off, the same line raises; the check that cannot lie multiplies its three factors to 0.

Headless SVG (rocm_bridge.visual.svg). What it shows is what chapter 8 measured: tensorflow-cpu 2.21 on this
project's development machine without a GPU, 2026-11 (soft placement True, `c.device` on the CPU, the error text
with soft placement off), and the script's lines as the chapter prints them.
"""

from __future__ import annotations

from rocm_bridge import i18n
from rocm_bridge.visual import style, svg
from rocm_bridge.visual.pictures import Frame

# The classic script, one line per row (content/<lang>/ch8.md "The script").
CODE: tuple[str, ...] = (
    "import tensorflow as tf",
    "tf.test.is_built_with_rocm()",
    'gpus = tf.config.list_physical_devices("GPU")',
    'with tf.device("/GPU:0"): c = tf.matmul(a, b)',
    "print(c.numpy())",
)
# Measured (chapter 8, "The trap: soft placement"): where the result was, and the error with soft placement off.
DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"
RESULT = "[[1. 3.] [3. 7.]]"
ERROR = "Could not satisfy device specification '…/device:GPU:0'. … Supported device types [CPU]."
STEPS = 7

W = svg.WIDTH
CODE_X, CODE_W = 16, 596
OUT_X, OUT_W = 628, 356
ROW_Y, ROW_H, ROW_PITCH = 62, 48, 58
HEIGHT = ROW_Y + len(CODE) * ROW_PITCH + 8 + 70 + 14 + 72 + 12  # the rows, the devices, the verdict


def _t(lang: str, key: str, **params: object) -> str:
    return i18n.t(f"pictures.envcheck.{key}", lang, **params)


# code rows run by each step: step 4 runs the matmul and the print, step 5 stops at the matmul's error, step 6 (the
# check that cannot lie) stops at the empty GPU list
REACHED = (0, 1, 2, 3, 5, 4, 3)


def _outcome(step: int, row: int, lang: str) -> tuple[str, str]:
    """(text, status) right of a code row at this step; status in ok | warn | fail | "" (not reached)."""
    if row >= REACHED[step]:
        return "", ""
    if row == 0:
        return _t(lang, "out_import"), "ok"
    if row == 1:
        return "True", "ok"
    if row == 2:
        return _t(lang, "out_empty_fail" if step == 6 else "out_empty"), "fail" if step == 6 else "warn"
    if row == 3:
        if step == 5:
            return "InvalidArgumentError", "fail"
        return _t(lang, "out_cpu"), "warn"
    return _t(lang, "out_result", result=RESULT), "warn"


def build(step: int, lang: str, theme: str = "light") -> Frame:
    doc = svg.Svg(W, HEIGHT, theme)
    pal = doc.pal
    status = pal.status
    head, size = svg.fitted(_t(lang, f"step{step}"), svg.TITLE_PX, W - 32)
    doc.text(16, 32, head, size=size, weight="bold")
    soft = step < 5
    for row, code in enumerate(CODE):
        y = ROW_Y + row * ROW_PITCH
        reached = row < REACHED[step]
        doc.rect(CODE_X, y, CODE_W, ROW_H, fill=pal.background, stroke=pal.ink if reached else pal.neutral, rx=6)
        text, csize = svg.fitted(code, 19, CODE_W - 24, mono=True)
        doc.text(CODE_X + 12, y + 31, text, size=csize, mono=True, fill=pal.ink if reached else pal.muted)
        out, state = _outcome(step, row, lang)
        if out:
            colour = status[state]
            doc.rect(OUT_X, y, OUT_W, ROW_H, fill=colour, rx=6)
            mono = out.startswith((RESULT, "Invalid"))
            text, osize = svg.fitted(out, svg.LABEL_PX, OUT_W - 24, mono=mono)
            doc.text(OUT_X + 12, y + 31, text, size=osize, fill=style.text_on(colour), mono=mono)
            doc.line(CODE_X + CODE_W + 2, y + ROW_H / 2, OUT_X - 4, y + ROW_H / 2, stroke=pal.ink, arrow=True)
    # the devices: GPU:0 not visible, CPU:0 the hotplate that takes over
    dev_y = ROW_Y + len(CODE) * ROW_PITCH + 8
    gpu_x, cpu_x, dev_w, dev_h = 16, 312, 280, 70
    # the absent GPU: a dashed outline only (a solid grey one under the dashes hid them: 1.1:1 in dark)
    doc.add(f'<rect x="{gpu_x}" y="{dev_y}" width="{dev_w}" height="{dev_h}" rx="8" fill="none" '
            f'stroke="{pal.line}" stroke-width="3" stroke-dasharray="8 6"/>')
    doc.text(gpu_x + 14, dev_y + 30, "GPU:0", size=svg.LABEL_PX, weight="bold", fill=pal.muted)
    doc.text(gpu_x + 14, dev_y + 58, svg.clip(_t(lang, "gpu_absent"), 18, dev_w - 28), size=18, fill=pal.muted)
    on_cpu = step == 4
    cpu_fill = status["warn"] if on_cpu else pal.background
    doc.rect(cpu_x, dev_y, dev_w, dev_h, fill=cpu_fill, stroke=pal.ink, rx=8)
    ink = style.text_on(cpu_fill)
    doc.text(cpu_x + 14, dev_y + 30, "CPU:0", size=svg.LABEL_PX, weight="bold", fill=ink)
    doc.text(cpu_x + 14, dev_y + 58, svg.clip(_t(lang, "cpu_hotplate"), 18, dev_w - 28), size=18, fill=ink)
    mode_x = cpu_x + dev_w + 16
    mode = _t(lang, "soft_on" if soft else "soft_off")
    text, msize = svg.fitted(mode, svg.LABEL_PX, W - mode_x - 16)
    doc.text(mode_x, dev_y + 30, text, size=msize, weight="bold", fill=pal.ink)
    mono_call = "set_soft_device_placement(False)" if not soft else "get_soft_device_placement()"
    text, msize = svg.fitted(mono_call, 18, W - mode_x - 16, mono=True)
    doc.text(mode_x, dev_y + 58, text, size=msize, mono=True, fill=pal.ink)
    if on_cpu:  # the "GPU" matmul goes to the CPU
        y3 = ROW_Y + 3 * ROW_PITCH + ROW_H
        doc.path(f"M{cpu_x + dev_w / 2},{y3 + 2} L{cpu_x + dev_w / 2},{dev_y - 4}", stroke=status["warn"], width=4,
                 arrow=True)
    # the verdict
    if step >= 4:
        vy = dev_y + dev_h + 14
        key = {4: "verdict_classic", 5: "verdict_error", 6: "verdict_product"}[step]
        colour = status["warn"] if step == 4 else status["fail"]
        doc.rect(16, vy, W - 32, 72, fill=colour, rx=8)
        ink = style.text_on(colour)
        line1, s1 = svg.fitted(_t(lang, key), 22, W - 60)
        doc.text(30, vy + 30, line1, size=s1, weight="bold", fill=ink)
        detail = {4: _t(lang, "verdict_classic_2", device=DEVICE), 5: ERROR,
                  6: _t(lang, "verdict_product_2")}[step]
        line2, s2 = svg.fitted(detail, 18, W - 60)
        doc.text(30, vy + 60, line2, size=s2, fill=ink)
    return Frame(_t(lang, f"caption{step}"), svg=doc.render(_t(lang, "label")))
