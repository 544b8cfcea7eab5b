"""Kernel-registry snapshots and the matcher (no TensorFlow needed)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rocm_bridge import coverage
from rocm_bridge.coverage import registry
from rocm_bridge.coverage.registry import DEFAULT, DTYPE_GAP, GPU, NO_GPU_KERNEL, UNKNOWN_OP, Registry, match_op
from rocm_bridge.errors import UnsupportedFile

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rocm():
    return coverage.resolve("rocm-2.14")


@pytest.fixture(scope="module")
def cuda():
    return coverage.resolve("cuda-2.14")


def test_bundled_snapshots_load_with_their_build_type():
    by_alias = {r.alias: r for r in coverage.list_snapshots()}
    assert set(by_alias) >= {"rocm-2.14", "cuda-2.14", "cuda-2.21", "cpu-2.21"}
    assert by_alias["rocm-2.14"].platform == "rocm" and by_alias["rocm-2.14"].tf_version == "2.14.0.600"
    assert by_alias["cuda-2.14"].platform == "cuda"
    # tensorflow-cpu lists ops with generic GPU kernels, but its build_info says it cannot use a GPU
    cpu = by_alias["cpu-2.21"]
    assert cpu.n_gpu_ops > 100 and not cpu.gpu_build
    assert by_alias["rocm-2.14"].gpu_build and by_alias["cuda-2.21"].gpu_build
    # counts agree with the README's table
    assert by_alias["rocm-2.14"].n_gpu_ops == 693 and by_alias["cuda-2.14"].n_gpu_ops == 703


def test_default_pair_compares_rocm_and_cuda_at_the_same_version():
    assert coverage.default_pair() == ("tensorflow-rocm-2.14.0.600", "tensorflow-2.14.0-cuda")


def test_resolve_by_file_stem_alias_and_unknown_name():
    assert coverage.resolve("tensorflow-2.21.0-cuda").alias == "cuda-2.21"
    assert coverage.resolve("CUDA-2.14").name == "tensorflow-2.14.0-cuda"
    with pytest.raises(UnsupportedFile) as err:
        coverage.resolve("rocm-9.99")
    assert "rocm-2.14" in err.value.message("en")


def test_bf16_relu_is_a_dtype_gap_on_rocm_214_but_covered_on_cuda_214(rocm, cuda):
    for op in ("Relu", "Elu", "Selu", "LeakyRelu"):
        assert match_op(rocm, op, {"T": "bfloat16"}).status == DTYPE_GAP, op
        assert match_op(cuda, op, {"T": "bfloat16"}).status == GPU, op
        assert match_op(rocm, op, {"T": "float32"}).status == GPU, op
    gap = match_op(rocm, "Relu", {"T": "bfloat16"})
    assert "bfloat16" not in gap.available and "float16" in gap.available and not gap.covered


def test_default_only_ops_are_covered_everywhere(rocm, cuda):
    # NoOp has only a DEFAULT kernel (and a TPU_SYSTEM one): it runs on any device
    assert "GPU" not in rocm.ops["NoOp"] and "DEFAULT" in rocm.ops["NoOp"]
    for reg in (rocm, cuda):
        verdict = match_op(reg, "NoOp", {})
        assert verdict.status == DEFAULT and verdict.covered
        assert match_op(reg, "Placeholder", {"dtype": "float32"}).status == DEFAULT


def test_default_kernel_is_also_a_fallback_when_gpu_kernels_miss_the_dtype():
    # Identity has GPU and DEFAULT kernels in real builds; a synthetic registry makes the rule visible
    reg = Registry(
        "t",
        {"tensorflow_version": "9.9", "build_info": {"is_rocm_build": True}},
        {
            "Op": {
                "GPU": {"dtypes": ["float32"], "defs": [{"c": {"T": ["float32"]}}]},
                "DEFAULT": {"dtypes": ["int32"], "defs": [{"c": {"T": ["int32"]}}]},
            }
        },
    )
    assert match_op(reg, "Op", {"T": "float32"}).status == GPU
    assert match_op(reg, "Op", {"T": "int32"}).status == DEFAULT
    assert match_op(reg, "Op", {"T": "bfloat16"}).status == DTYPE_GAP


def test_unknown_op_differs_from_no_gpu_kernel(rocm, cuda):
    # the ROCm fork has its own Dropout op; upstream CUDA 2.14 does not know it
    assert match_op(rocm, "Dropout", {"T": "float32"}).status == GPU
    assert match_op(cuda, "Dropout", {"T": "float32"}).status == UNKNOWN_OP
    # MatrixDeterminant: both know it, only CUDA has a GPU kernel
    assert match_op(rocm, "MatrixDeterminant", {"T": "float32"}).status == NO_GPU_KERNEL
    assert match_op(cuda, "MatrixDeterminant", {"T": "float32"}).status == GPU
    assert match_op(cuda, "NoSuchOpAnywhere", {}).status == UNKNOWN_OP


def test_constraint_rules_follow_tensorflow(rocm):
    # list(type) attributes: every element must be allowed
    reg = Registry(
        "t",
        {"tensorflow_version": "9.9"},
        {
            "Op": {
                "GPU": {
                    "dtypes": [],
                    "defs": [{"c": {"Tin": ["float32", "int32"]}}, {"c": {"T": ["half"]}, "label": "x"}],
                }
            }
        },
    )
    assert match_op(reg, "Op", {"Tin": ["float32", "int32"]}).status == GPU
    assert match_op(reg, "Op", {"Tin": ["float32", "bool"]}).status == DTYPE_GAP
    # a constrained attr missing from the node: TensorFlow refuses the kernel
    assert match_op(reg, "Op", {}).status == DTYPE_GAP
    # labelled kernels only match nodes that ask for the label
    assert match_op(reg, "Op", {"T": "half"}).status == DTYPE_GAP
    assert match_op(reg, "Op", {"T": "half", "_kernel": "x"}).status == GPU
    # AvgPoolGrad's cudnn-labelled kernels are not what an unlabelled node gets; its plain kernels are
    assert match_op(rocm, "AvgPoolGrad", {"T": "float32"}).status == GPU


def test_a_dumped_snapshot_dropped_in_the_folder_is_picked_up(tmp_path, rocm):
    snapshot = dict(rocm.meta) | {"tensorflow_version": "2.16.1", "ops": {"Relu": rocm.ops["Relu"]}}
    snapshot["ops"] = {"Relu": json.loads(json.dumps(rocm.ops["Relu"]))}
    snapshot["ops"]["Relu"]["GPU"]["defs"].append({"c": {"T": ["bfloat16"]}})
    registry.write_snapshot(snapshot, tmp_path / "tensorflow-rocm-2.16.1.json.gz")
    (tmp_path / "broken.json.gz").write_bytes(b"not gzip")
    assert registry.snapshot_names(tmp_path) == ["broken", "tensorflow-rocm-2.16.1"]
    loaded = registry.list_snapshots(tmp_path)
    assert [r.alias for r in loaded] == ["rocm-2.16"]
    assert match_op(loaded[0], "Relu", {"T": "bfloat16"}).status == GPU
    assert [p.params["name"] for p in registry.snapshot_problems(tmp_path)] == ["broken.json.gz"]
    assert registry.resolve("rocm-2.16", tmp_path).tf_version == "2.16.1"


def test_snapshot_schema_is_checked(tmp_path):
    path = tmp_path / "x.json.gz"
    with gzip.open(path, "wt") as fh:
        json.dump({"ops": {"Relu": {"GPU": "oops"}}, "tensorflow_version": "1"}, fh)
    with pytest.raises(UnsupportedFile):
        registry.read_snapshot(path)
    with gzip.open(path, "wt") as fh:
        json.dump([1, 2], fh)
    with pytest.raises(UnsupportedFile):
        registry.read_snapshot(path)


def test_example_op_lists_need_no_tensorflow():
    probe = (
        "import sys\nfrom rocm_bridge import coverage\n"
        "lists = coverage.example_op_lists()\n"
        "rep = coverage.analyze(coverage.example_nodes('cnn_mixed_bf16'), coverage.resolve('rocm-2.14'))\n"
        "print(sorted(lists), rep.status_ops.get('dtype_gap'), 'tensorflow' in sys.modules, 'pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [
        "['cnn_mixed_bf16',",
        "'lstm',",
        "'resnet_block',",
        "'small_cnn',",
        "'transformer_block']",
        "2",
        "False",
        "False",
    ]
