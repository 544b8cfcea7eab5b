"""The pictures of chapters 1, 8, 10 and 11: each opens its chapter right after the story, in both languages, and
draws what its sources say (the chapter's measurement, data/gpu_specs.csv, the layers chapter 11 names)."""

from __future__ import annotations

import re

import pytest

from rocm_bridge import i18n
from rocm_bridge.course import content
from rocm_bridge.course import envcheck_picture as env
from rocm_bridge.course import pytorch_picture as pt
from rocm_bridge.data import read_csv
from rocm_bridge.hardware import partitions
from rocm_bridge.visual import pictures

OPENERS = {"ch1": "hero", "ch8": "envcheck", "ch10": "mi300x", "ch11": "pytorch"}


def _texts(doc: str) -> list[str]:
    return [re.sub(r"&#x27;|&quot;", "'", t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", doc)]


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize(("chapter", "pid"), OPENERS.items())
def test_chapter_opens_with_its_picture_after_the_story(chapter, pid, lang):
    blocks = content.load(chapter, lang)
    assert blocks[0].kind == "story"
    assert (blocks[1].kind, blocks[1].text) == ("widget", f"picture:{pid}")
    assert pictures.PICTURES[pid].page == chapter


def test_envcheck_shows_what_chapter_8_measured():
    chapter = "\n".join(b.text for b in content.load("ch8", "en"))
    for line in env.CODE[2:]:  # the script's lines as the chapter prints them
        assert line.split(": ")[-1].split("(")[0] in chapter, line
    assert env.DEVICE in chapter
    assert "Could not satisfy device specification" in chapter and "Supported device types [CPU]" in chapter
    trap = _texts(env.build(4, "en").svg)
    assert any(env.RESULT in t for t in trap) and any("CPU:0" in t for t in trap)
    fixed = _texts(env.build(5, "en").svg)
    assert "InvalidArgumentError" in fixed and not any(env.RESULT in t for t in fixed)  # the error stops it
    verdict = " ".join(_texts(env.build(6, "en").svg))
    assert "= 1 × 0 = 0" in verdict


def test_mi300x_counts_come_from_the_spec_table():
    row = next(r for r in read_csv("gpu_specs.csv") if r["model"] == partitions.MODEL)
    chip = partitions.chip()
    assert (chip.xcds, chip.cus_per_xcd, chip.cus) == (8, 38, int(row["compute_units_or_sms"].split()[0]))
    for step, (mode, nps) in enumerate(partitions.MODES):
        texts = _texts(partitions.build(step, "en").svg)
        gpus = {t for t in texts if t.startswith("GPU ")}
        if mode:
            assert len(gpus) == partitions.GPUS[mode] and any(f"compute-partition {mode}" in t for t in texts)
            domains = [t for t in texts if t.startswith("NUMA ")]
            assert len(domains) == partitions.DOMAINS[nps]
            assert all(t.endswith(f"{chip.memory_gb // len(domains)} GB") for t in domains)
        else:
            assert not gpus


def test_pytorch_marks_the_shared_layers_and_the_backends_differ():
    shared = [r.key for r in pt.ROWS if r.rocm is None]
    assert shared == ["model", "dynamo", "inductor", "triton"]
    backend = next(r for r in pt.ROWS if r.key == "backend")
    assert "PTX" in backend.cuda and "AMDGCN" in backend.rocm
    assert "4 of 8 layers" in " ".join(_texts(pt.build(pt.STEPS - 1, "en").svg))
    zh = " ".join(_texts(pt.build(6, "zh").svg))
    assert "hipify" in zh and "hipified" not in zh  # the notes are translated


def test_picture_command_lists_and_writes_a_frame(tmp_path, capsys):
    import xml.etree.ElementTree as ET

    from rocm_bridge.cli import EXIT_ERROR, main

    assert main(["picture"]) == 0
    listing = capsys.readouterr().out
    assert all(pid in listing for pid in pictures.PICTURES)
    out = tmp_path / "hero.svg"
    assert main(["picture", "hero", "--step", "4", "--variant", "tf.nn.conv2d", "--lang", "zh", "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert "miopenConvolutionForward" in "".join(root.itertext())
    assert "MIOpen" in capsys.readouterr().err  # the step's sentence
    assert main(["picture", "hero", "--step", "9"]) == EXIT_ERROR
    assert "1 to 8" in capsys.readouterr().err


@pytest.mark.parametrize(("chapter", "pid"), [("ch1", "hero"), ("ch10", "mi300x")])
def test_the_handout_prints_the_chapter_picture_as_svg(app_test, chapter, pid):
    at = app_test("views/handout.py", lang="zh", ho_doc=chapter)
    assert not at.exception
    svgs = [m.value for m in at.markdown if m.value.startswith('<svg class="rb-picture"')]
    assert svgs and svgs[0] == pictures.frame(pid, pictures.PICTURES[pid].steps - 1, "zh", "light").svg
