#!/usr/bin/env python3
"""Builds the models `edgebench drift`'s tests compare (each a few kB) into OUT_DIR.

  drift_cnn_fp32.onnx      image[1,3,16,16] -> (conv-bn-relu) x3 -> pool -> fc -> logits[1,10],
                           seeded weights; nodes named conv1, bn1, relu1, ..., pool, flatten, fc
  drift_cnn_int8.onnx      the same quantized to INT8 QDQ by onnxruntime.quantization's
                           quantize_static (min-max calibration on 32 seeded samples drawn like
                           edgebench's seeded inputs: uniform in [-1, 1))
  drift_cnn_int8_conv2x1.5.onnx  drift_cnn_int8.onnx damaged in one place: the scale of conv2's
                           weight DequantizeLinear multiplied by 1.5, so conv2's output is 1.5x
                           too large and drift must name conv2 as where it starts
  drift_mlp_other.onnx     another graph with the same input and output (no tensor of the CNN's
                           names inside), for the matched/unmatched counts

Deterministic: the same script gives the same files (numpy's seeded generator; the quantizer's
calibration is a deterministic function of its data).
"""
import os
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper, load, numpy_helper, save


def cnn():
    rng = np.random.default_rng(14)
    init = []

    def const(name, array):
        init.append(numpy_helper.from_array(np.asarray(array, dtype=np.float32), name))
        return name

    nodes = []
    previous, channels = "image", 3
    for i, out_channels in enumerate([8, 8, 16], start=1):
        w = rng.standard_normal((out_channels, channels, 3, 3)) * np.sqrt(2.0 / (9 * channels))
        nodes.append(helper.make_node(
            "Conv", [previous, const(f"conv{i}_w", w), const(f"conv{i}_b", rng.standard_normal(out_channels) * 0.1)],
            [f"conv{i}_out"], name=f"conv{i}", pads=[1, 1, 1, 1], kernel_shape=[3, 3]))
        nodes.append(helper.make_node(
            "BatchNormalization",
            [f"conv{i}_out", const(f"bn{i}_scale", 1 + 0.1 * rng.standard_normal(out_channels)),
             const(f"bn{i}_bias", 0.1 * rng.standard_normal(out_channels)),
             const(f"bn{i}_mean", 0.1 * rng.standard_normal(out_channels)),
             const(f"bn{i}_var", 1 + 0.1 * rng.random(out_channels))],
            [f"bn{i}_out"], name=f"bn{i}"))
        nodes.append(helper.make_node("Relu", [f"bn{i}_out"], [f"relu{i}_out"], name=f"relu{i}"))
        previous, channels = f"relu{i}_out", out_channels
    nodes.append(helper.make_node("GlobalAveragePool", [previous], ["pool_out"], name="pool"))
    nodes.append(helper.make_node("Flatten", ["pool_out"], ["flatten_out"], name="flatten"))
    nodes.append(helper.make_node(
        "Gemm", ["flatten_out", const("fc_w", rng.standard_normal((10, channels)) * 0.3),
                 const("fc_b", rng.standard_normal(10) * 0.1)],
        ["logits"], name="fc", transB=1))
    graph = helper.make_graph(
        nodes, "drift_cnn", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])], init)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def other_graph():
    rng = np.random.default_rng(15)
    w = numpy_helper.from_array(rng.standard_normal((768, 10)).astype(np.float32), "mlp_w")
    shape = numpy_helper.from_array(np.array([1, 768], dtype=np.int64), "mlp_shape")
    nodes = [helper.make_node("Reshape", ["image", "mlp_shape"], ["mlp_flat"], name="mlp_reshape"),
             helper.make_node("MatMul", ["mlp_flat", "mlp_w"], ["logits"], name="mlp_matmul")]
    graph = helper.make_graph(
        nodes, "drift_mlp_other", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])], [w, shape])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def quantize(fp32_path, int8_path):
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Seeded(CalibrationDataReader):
        def __init__(self):
            rng = np.random.default_rng(7)
            self.samples = iter([{"image": rng.uniform(-1, 1, (1, 3, 16, 16)).astype(np.float32)}
                                 for _ in range(32)])

        def get_next(self):
            return next(self.samples, None)

    quantize_static(fp32_path, int8_path, Seeded(), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8, per_channel=False)


def damage_weight_scale(model, conv_name, factor):
    """Multiplies the scale of the DequantizeLinear that feeds `conv_name`'s weight by `factor`."""
    graph = model.graph
    conv = next(n for n in graph.node if n.name == conv_name)
    dq = next(n for n in graph.node if n.op_type == "DequantizeLinear" and n.output[0] == conv.input[1])
    scale_name = dq.input[1]
    scale = next(t for t in graph.initializer if t.name == scale_name)
    users = [n.name for n in graph.node if scale_name in n.input]
    if users != [dq.name]:
        sys.exit(f"make_drift_models: scale {scale_name} is shared by {users}; cannot damage one layer")
    scale.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(scale) * np.float32(factor), scale_name))
    return model


def main():
    out = os.path.abspath(sys.argv[1])
    os.makedirs(out, exist_ok=True)
    fp32 = os.path.join(out, "drift_cnn_fp32.onnx")
    save(cnn(), fp32)
    int8 = os.path.join(out, "drift_cnn_int8.onnx")
    with tempfile.TemporaryDirectory() as scratch:
        # The quantizer writes its calibration model beside the working directory's files.
        cwd = os.getcwd()
        os.chdir(scratch)
        try:
            quantize(fp32, int8)
        finally:
            os.chdir(cwd)
    save(damage_weight_scale(load(int8), "conv2", 1.5), os.path.join(out, "drift_cnn_int8_conv2x1.5.onnx"))
    save(other_graph(), os.path.join(out, "drift_mlp_other.onnx"))


if __name__ == "__main__":
    main()
