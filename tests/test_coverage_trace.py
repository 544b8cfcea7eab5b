"""Tracing with the installed TensorFlow (tensorflow-cpu is enough): the bundled models' op lists, the recorded
file, the matcher against TensorFlow's own kernel lookup, and uploads of real .keras files and SavedModels.

TensorFlow takes ~5 s to import: every model is traced once, in one module-scoped fixture, and kept tiny.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections import Counter
from pathlib import Path

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
tf = pytest.importorskip("tensorflow", reason="tensorflow-cpu is not installed (requirements-dev.txt has it)")
keras = pytest.importorskip("keras")

from rocm_bridge import coverage  # noqa: E402
from rocm_bridge.coverage import registry, trace, upload  # noqa: E402
from rocm_bridge.coverage.registry import match_op  # noqa: E402
from rocm_bridge.coverage.trace import records_from_nodes  # noqa: E402
from rocm_bridge.errors import UnsupportedFile  # noqa: E402

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def traced() -> dict[str, coverage.TracedModel]:
    return {key: coverage.trace_example(key) for key in coverage.EXAMPLES}


def ops(model: coverage.TracedModel, phase: str) -> set[str]:
    return {n.op for n in model.nodes if n.phase == phase}


def test_bundled_models_contain_the_expected_ops(traced):
    cnn = traced["small_cnn"]
    assert {"Conv2D", "BiasAdd", "Relu", "MaxPool", "MatMul", "Softmax", "Mean"} <= ops(cnn, "inference")
    # the training step brings the backward pass and the optimizer update
    assert {"Conv2DBackpropFilter", "Conv2DBackpropInput", "ReluGrad", "MaxPoolGrad", "BiasAddGrad"} <= ops(
        cnn, "training"
    )
    assert {"AssignSubVariableOp", "Sqrt"} <= ops(cnn, "training")  # Adam
    assert "Conv2DBackpropFilter" not in ops(cnn, "inference")
    assert {"Conv2D", "Relu", "AddV2", "Rsqrt"} <= ops(
        traced["resnet_block"], "inference"
    )  # BatchNorm: x * rsqrt(var + eps)
    assert {"Einsum", "Softmax", "Erfc", "SquaredDifference", "MatMul"} <= ops(traced["transformer_block"], "inference")
    lstm = traced["lstm"]
    assert {"While", "MatMul", "Sigmoid", "Tanh", "TensorListReserve"} <= ops(lstm, "inference")
    assert {"SigmoidGrad", "TanhGrad"} <= ops(lstm, "training")
    assert all(m.phases == ("inference", "training") and m.n_params > 0 for m in traced.values())


def test_mixed_precision_computes_in_bfloat16(traced):
    nodes = traced["cnn_mixed_bf16"].nodes
    assert {n.attr_dict["T"] for n in nodes if n.op in ("Conv2D", "Relu", "ReluGrad")} == {"bfloat16"}
    assert {n.attr_dict["T"] for n in nodes if n.op == "Softmax"} == {"float32"}  # the head stays float32
    assert {n.attr_dict["T"] for n in traced["small_cnn"].nodes if n.op == "Relu"} == {"float32"}


def test_nested_function_bodies_are_collected():
    @tf.function
    def loop(x):
        return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.sin(v)), (0, x))[1]

    graph = loop.get_concrete_function(tf.TensorSpec([2])).graph.as_graph_def()
    assert "Sin" not in {n.op for n in graph.node}  # only inside the While body
    nodes = trace.graph_def_nodes(graph, "inference")
    found = {n.op for n in nodes}
    assert "Sin" in found and found & {"While", "StatelessWhile"}


def test_recorded_op_lists_match_a_fresh_trace(traced):
    made_with = coverage.example_provenance()
    if (made_with["tensorflow"], made_with["keras"]) != (tf.__version__, keras.__version__):
        pytest.skip(
            f"data/example_model_ops.json was made with TF {made_with['tensorflow']}; re-run tools/export_model_ops.py"
        )
    recorded = coverage.example_op_lists()
    assert set(recorded) == set(traced)
    for key, model in traced.items():
        assert recorded[key]["ops"] == records_from_nodes(model.nodes), key
        assert recorded[key]["n_params"] == model.n_params and recorded[key]["n_nodes"] == len(model.nodes)


def _node_def(node, device: str):
    from tensorflow.core.framework import node_def_pb2
    from tensorflow.python.framework import dtypes, op_def_registry

    nd = node_def_pb2.NodeDef(name="n", op=node.op, device=device)
    op_def = op_def_registry.get(node.op)
    for a in op_def.attr if op_def else ():
        if a.HasField("default_value"):
            nd.attr[a.name].CopyFrom(a.default_value)
    for name, value in node.attrs:
        if isinstance(value, str):
            nd.attr[name].type = dtypes.as_dtype(value).as_datatype_enum
        else:
            nd.attr[name].list.type[:] = [dtypes.as_dtype(v).as_datatype_enum for v in value]
    return nd


def test_matcher_agrees_with_tensorflows_own_kernel_lookup(traced):
    """For every (op, dtypes) of the traced models, our verdict from the live registry dump equals
    TensorFlow's FindKernelDef on the installed build (via TryFindKernelClass), on GPU and on CPU."""
    from tensorflow.python.util import _pywrap_kernel_registry

    live = coverage.live_registry()
    distinct = {coverage.OpNode(n.op, n.attrs) for m in traced.values() for n in m.nodes}
    verdicts = Counter()
    for node in sorted(distinct, key=repr):
        for device, dev_name in (("GPU", "/device:GPU:0"), ("CPU", "/device:CPU:0")):
            found = bool(_pywrap_kernel_registry.TryFindKernelClass(_node_def(node, dev_name).SerializeToString()))
            ours = match_op(live, node.op, node.attr_dict, device)
            assert ours.covered == found, (node, device, ours)
            verdicts[(device, ours.status)] += 1
    # both answers occur, so the comparison can fail either way
    assert verdicts[("GPU", "no_gpu_kernel")] and verdicts[("GPU", "default")] and verdicts[("CPU", "cpu")]


def test_live_dump_reproduces_the_bundled_snapshot_of_the_same_build():
    bundled = coverage.resolve("cpu-2.21")
    if tf.__version__ != bundled.tf_version or tf.test.is_built_with_cuda() or tf.test.is_built_with_rocm():
        pytest.skip(f"installed TensorFlow {tf.__version__} is not the bundled tensorflow-cpu {bundled.tf_version}")
    live = coverage.live_registry()
    assert live.ops == bundled.ops
    assert {k: v for k, v in live.meta.items() if k != "method"} == {
        k: v for k, v in bundled.meta.items() if k != "method"
    }


def test_dump_tool_writes_a_snapshot_the_app_picks_up(tmp_path):
    import runpy

    out = tmp_path / "tensorflow-cpu-test.json.gz"
    main = runpy.run_path(str(Path(__file__).resolve().parent.parent / "tools" / "dump_kernel_registry.py"))["main"]
    assert main(["-o", str(out), "--method-note", "test run"]) == 0
    reg = registry.resolve("tensorflow-cpu-test", tmp_path)
    assert reg.tf_version == tf.__version__ and "test run" in reg.method
    assert match_op(reg, "NoOp", {}).status == "default"


def _keras_bytes(model, tmp_path: Path) -> bytes:
    path = tmp_path / "m.keras"
    model.save(path)
    return path.read_bytes()


def test_a_keras_upload_is_traced(tmp_path):
    inputs = keras.Input((4,))
    model = keras.Model(inputs, keras.layers.Dense(3, activation="relu")(inputs))
    traced = trace_upload_ok(_keras_bytes(model, tmp_path), "my model.keras")
    assert traced.name == "my model.keras" and traced.phases == ("inference", "training")
    assert {"MatMul", "BiasAdd", "Relu", "ReluGrad"} <= {n.op for n in traced.nodes}


def trace_upload_ok(data: bytes, name: str) -> coverage.TracedModel:
    return coverage.trace_upload(data, name)


def test_keras_lambda_layer_is_refused_in_safe_mode(tmp_path, monkeypatch):
    inputs = keras.Input((4,))
    model = keras.Model(inputs, keras.layers.Lambda(lambda x: x * 2)(inputs))
    data = _keras_bytes(model, tmp_path)
    with pytest.raises(UnsupportedFile) as err:
        coverage.trace_upload(data, "lambda.keras")
    assert err.value.key == "coverage.err.lambda"
    # without our own config check, Keras' safe mode still refuses it
    monkeypatch.setattr(upload, "check_keras_config", lambda config: None)
    with pytest.raises(UnsupportedFile) as err:
        coverage.trace_upload(data, "lambda.keras")
    assert err.value.key == "coverage.err.lambda"


def test_a_zipped_saved_model_is_read_without_loading_it(tmp_path):
    class Tiny(tf.Module):
        def __init__(self):
            self.w = tf.Variable(tf.ones((4, 2)))

        @tf.function(input_signature=[tf.TensorSpec((None, 4), tf.float32)])
        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w))

    module = Tiny()
    export = tmp_path / "export"
    tf.saved_model.save(module, str(export), signatures=module.__call__)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for path in sorted(export.rglob("*")):
            zf.write(path, f"my_model/{path.relative_to(export)}")
    model = coverage.trace_upload(buf.getvalue(), "saved.zip")
    found = {n.op for n in model.nodes}
    assert {"MatMul", "Relu", "ReadVariableOp"} <= found
    assert not found & {"SaveV2", "RestoreV2", "MergeV2Checkpoints"}  # checkpoint functions left out
    assert model.phases == ("inference",)
    rep = coverage.analyze(model.nodes, coverage.resolve("rocm-2.14"))
    assert rep.r_ops == 1.0
