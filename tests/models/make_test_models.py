#!/usr/bin/env python3
"""Builds the small ONNX models the tests use (each well under 1 MB) into OUT_DIR.

  vit_micro.onnx     a ViT-shaped network (scripts/models/make_vit.py --preset micro)
  vit_micro_dynamic.onnx  the same with a symbolic batch axis
  mlp_dynamic.onnx   x[batch, 8] -> MatMul -> Relu -> y[batch, 4]; "batch" is symbolic
  two_unnamed.onnx   x[?, 8] with an unnamed dynamic first axis
  truncated.onnx     the first half of mlp_dynamic.onnx: a corrupt file
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "models"))
import make_vit  # noqa: E402


def mlp(batch_dim):
    rng = np.random.default_rng(1)
    w = numpy_helper.from_array(rng.standard_normal((8, 4)).astype(np.float32), "w")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"], name="matmul"),
             helper.make_node("Relu", ["h"], ["y"], name="relu")]
    graph = helper.make_graph(
        nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch_dim, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch_dim, 4])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    save(make_vit.build(**make_vit.PRESETS["micro"], seed=0), os.path.join(out, "vit_micro.onnx"))
    save(make_vit.build(**make_vit.PRESETS["micro"], seed=0, dynamic_batch=True),
         os.path.join(out, "vit_micro_dynamic.onnx"))
    save(mlp("batch"), os.path.join(out, "mlp_dynamic.onnx"))
    save(mlp(None), os.path.join(out, "two_unnamed.onnx"))
    data = open(os.path.join(out, "mlp_dynamic.onnx"), "rb").read()
    open(os.path.join(out, "truncated.onnx"), "wb").write(data[: len(data) // 2])


if __name__ == "__main__":
    main()
