#!/usr/bin/env python3
"""Writes a Vision Transformer as ONNX with random weights (latency-faithful, accuracy-meaningless).

The graph has the real ViT structure: a patch-embedding convolution, a class token, position
embeddings, pre-norm encoder blocks (LayerNormalization, multi-head self-attention, GELU MLP)
and a classification head. Presets:
  base  ViT-B/16: 224x224, hidden 768, 12 layers, 12 heads (86 M parameters, ~344 MB)
  tiny  ViT-Ti/16: 224x224, hidden 192, 12 layers, 3 heads (5.7 M parameters, ~23 MB)
  micro for tests: 32x32, patch 8, hidden 32, 2 layers, 2 heads (~40 KB)
"""
import argparse
import math

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

PRESETS = {
    "base": dict(image=224, patch=16, hidden=768, layers=12, heads=12, classes=1000),
    "tiny": dict(image=224, patch=16, hidden=192, layers=12, heads=3, classes=1000),
    "micro": dict(image=32, patch=8, hidden=32, layers=2, heads=2, classes=10),
}


class GraphBuilder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.count = 0

    def name(self, prefix):
        self.count += 1
        return f"{prefix}_{self.count}"

    def weight(self, prefix, shape, scale=0.02):
        n = self.name(prefix)
        value = (self.rng.standard_normal(shape) * scale).astype(np.float32)
        self.inits.append(numpy_helper.from_array(value, n))
        return n

    def const(self, prefix, value):
        n = self.name(prefix)
        self.inits.append(numpy_helper.from_array(np.asarray(value), n))
        return n

    def op(self, op_type, inputs, **attrs):
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def linear(self, x, d_in, d_out):
        return self.op("Add", [self.op("MatMul", [x, self.weight("w", (d_in, d_out))]),
                               self.weight("b", (d_out,))])

    def layer_norm(self, x, d):
        gamma = self.const("ln_scale", np.ones(d, np.float32))
        beta = self.const("ln_bias", np.zeros(d, np.float32))
        return self.op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=1e-6)

    def gelu(self, x):
        scaled = self.op("Div", [x, self.const("sqrt2", np.float32(math.sqrt(2.0)))])
        erf = self.op("Erf", [scaled])
        one_plus = self.op("Add", [erf, self.const("one", np.float32(1.0))])
        half_x = self.op("Mul", [x, self.const("half", np.float32(0.5))])
        return self.op("Mul", [half_x, one_plus])


def build(image, patch, hidden, layers, heads, classes, seed, dynamic_batch=False):
    """dynamic_batch: the batch axis is the symbol "batch" (as torch.onnx.export with
    dynamic_axes writes it); shapes then flow through Shape/Expand and Reshape's 0."""
    g = GraphBuilder(seed)
    tokens = (image // patch) ** 2
    seq = tokens + 1
    head_dim = hidden // heads
    x = g.op("Conv", ["pixel_values", g.weight("patch_w", (hidden, 3, patch, patch)),
                      g.weight("patch_b", (hidden,))], strides=[patch, patch])
    x = g.op("Reshape", [x, g.const("shape", np.array([0, hidden, tokens], np.int64))])
    x = g.op("Transpose", [x], perm=[0, 2, 1])
    cls = g.weight("cls_token", (1, 1, hidden))
    if dynamic_batch:
        batch = g.op("Slice", [g.op("Shape", [x]), g.const("start", np.array([0], np.int64)),
                              g.const("end", np.array([1], np.int64))])
        cls = g.op("Expand", [cls, g.op("Concat", [batch, g.const("rest", np.array([1, hidden], np.int64))],
                                        axis=0)])
    x = g.op("Concat", [cls, x], axis=1)
    x = g.op("Add", [x, g.weight("pos_embed", (1, seq, hidden))])
    for _ in range(layers):
        y = g.layer_norm(x, hidden)
        qkv = g.linear(y, hidden, 3 * hidden)
        qkv = g.op("Reshape", [qkv, g.const("shape", np.array([0, seq, 3, heads, head_dim],
                                                               np.int64))])
        qkv = g.op("Transpose", [qkv], perm=[2, 0, 3, 1, 4])
        q, k, v = (g.op("Gather", [qkv, g.const("idx", np.int64(i))], axis=0) for i in range(3))
        scores = g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])])
        scores = g.op("Mul", [scores, g.const("scale", np.float32(1.0 / math.sqrt(head_dim)))])
        attn = g.op("Softmax", [scores], axis=-1)
        ctx = g.op("Transpose", [g.op("MatMul", [attn, v])], perm=[0, 2, 1, 3])
        ctx = g.op("Reshape", [ctx, g.const("shape", np.array([0, seq, hidden], np.int64))])
        x = g.op("Add", [x, g.linear(ctx, hidden, hidden)])
        y = g.layer_norm(x, hidden)
        y = g.linear(g.gelu(g.linear(y, hidden, 4 * hidden)), 4 * hidden, hidden)
        x = g.op("Add", [x, y])
    x = g.layer_norm(x, hidden)
    cls = g.op("Gather", [x, g.const("idx", np.int64(0))], axis=1)
    logits = g.linear(cls, hidden, classes)
    g.nodes.append(helper.make_node("Identity", [logits], ["logits"], name="logits"))
    batch_dim = "batch" if dynamic_batch else 1
    graph = helper.make_graph(
        g.nodes, "vit",
        [helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, [batch_dim, 3, image, image])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch_dim, classes])],
        g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="edgebench make_vit.py (random weights)")
    model.ir_version = 8
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="tiny")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dynamic-batch", action="store_true",
                        help='make the batch axis the symbol "batch" (bind it with --dim batch=N)')
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    model = build(**PRESETS[args.preset], seed=args.seed, dynamic_batch=args.dynamic_batch)
    onnx.checker.check_model(model)
    onnx.save(model, args.out)


if __name__ == "__main__":
    main()
