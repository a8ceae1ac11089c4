#!/usr/bin/env python3
"""A real classifier with real labels for `edgebench accuracy`'s tests, without torch: softmax
regression trained with numpy on the first 5000 Fashion-MNIST training images (full-batch gradient
descent from zero weights: deterministic, a few seconds), exported as ONNX, into OUT_DIR:

  fashion_softmax.onnx        image[1,1,28,28] -> Reshape -> MatMul -> Add -> logits[1,10]
  fashion_softmax_coarse.onnx the same with weights rounded to 0.05 (a second variant)
  fashion_softmax.tflite      not a model: a variant no ONNX target reads (a skipped row)
  fashion_softmax.json        manifest: variants fp32, coarse, tflite-only; preprocess, data set, labels
  fashion_softmax7.onnx       the first 7 classes only; fashion_softmax7.json still names 10 labels
  fashion_nopre.json          the fp32 model with no preprocess declared
  expected.json               numpy's answers on the first 1000 test images (float32, as ORT runs)

  make_fashion_softmax.py OUT_DIR [DATA_DIR]   (DATA_DIR: /usr/share/datasets/fashion-mnist)
"""
import gzip
import json
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

SCALE, MEAN, STD = 1.0 / 255.0, 0.2860, 0.3530
PREPROCESS = "scale=0.00392156862745098,mean=0.2860,std=0.3530,layout=nchw"
LABELS = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
          "Ankle boot"]
TRAIN_IMAGES, TEST_IMAGES = 5000, 1000


def read_idx(path, count):
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndims = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndims)]
    values = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndims)
    return values.reshape(dims)[:count]


def features(images):
    # The same arithmetic as edgebench's preprocessing, in float64, then float32 as fed.
    return ((images.reshape(len(images), -1).astype(np.float64) * SCALE - MEAN) / STD).astype(np.float32)


def train(x, y, classes=10, steps=150, rate=0.5):
    w = np.zeros((x.shape[1], classes), np.float64)
    b = np.zeros(classes, np.float64)
    onehot = np.eye(classes)[y]
    x64 = x.astype(np.float64)
    for _ in range(steps):
        z = x64 @ w + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) / len(x)
        w -= rate * (x64.T @ g + 1e-4 * w)
        b -= rate * g.sum(axis=0)
    return w.astype(np.float32), b.astype(np.float32)


def model(w, b, name):
    classes = w.shape[1]
    nodes = [helper.make_node("Reshape", ["image", "flat_shape"], ["flat"], name="flatten"),
             helper.make_node("MatMul", ["flat", "w"], ["z"], name="matmul"),
             helper.make_node("Add", ["z", "b"], ["logits"], name="bias")]
    initializers = [numpy_helper.from_array(np.array([1, 784], np.int64), "flat_shape"),
                    numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")]
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 1, 28, 28])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, classes])], initializers)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def answers(x, labels, w, b):
    scores = x @ w + b  # float32, as the runtime computes
    order = np.argsort(-scores, axis=1, kind="stable")
    top1 = order[:, 0]
    top5 = np.any(order[:, :5] == labels[:, None], axis=1)
    per_class = [{"label": c, "images": int((labels == c).sum()),
                  "correct": int(((labels == c) & (top1 == c)).sum())} for c in range(10)]
    return {"images": len(labels), "top1_correct": int((top1 == labels).sum()),
            "top5_correct": int(top5.sum()), "per_class": per_class}


def write_manifest(path, name, artifacts, preprocess=PREPROCESS):
    manifest = {"name": name, "dataset": "fashion-mnist", "labels": LABELS, "artifacts": artifacts}
    if preprocess:
        manifest["preprocess"] = preprocess
    with open(path, "w") as f:
        json.dump(manifest, f, indent=2)


def main():
    out = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/datasets/fashion-mnist"
    os.makedirs(out, exist_ok=True)
    x = features(read_idx(os.path.join(data, "train-images-idx3-ubyte.gz"), TRAIN_IMAGES))
    y = read_idx(os.path.join(data, "train-labels-idx1-ubyte.gz"), TRAIN_IMAGES).astype(np.int64)
    w, b = train(x, y)
    coarse_w, coarse_b = (np.round(w / 0.05) * 0.05).astype(np.float32), b
    save(model(w, b, "fashion_softmax"), os.path.join(out, "fashion_softmax.onnx"))
    save(model(coarse_w, coarse_b, "fashion_softmax_coarse"), os.path.join(out, "fashion_softmax_coarse.onnx"))
    save(model(w[:, :7].copy(), b[:7].copy(), "fashion_softmax7"), os.path.join(out, "fashion_softmax7.onnx"))
    with open(os.path.join(out, "fashion_softmax.tflite"), "wb") as f:
        f.write(b"not a model: only its extension matters to the planner")
    write_manifest(os.path.join(out, "fashion_softmax.json"), "fashion_softmax",
                   [{"path": "fashion_softmax.onnx", "variant": "fp32"},
                    {"path": "fashion_softmax_coarse.onnx", "variant": "coarse"},
                    {"path": "fashion_softmax.tflite", "variant": "tflite-only"}])
    write_manifest(os.path.join(out, "fashion_softmax7.json"), "fashion_softmax7",
                   [{"path": "fashion_softmax7.onnx"}])
    write_manifest(os.path.join(out, "fashion_nopre.json"), "fashion_nopre",
                   [{"path": "fashion_softmax.onnx"}], preprocess=None)

    test_x = features(read_idx(os.path.join(data, "t10k-images-idx3-ubyte.gz"), TEST_IMAGES))
    test_y = read_idx(os.path.join(data, "t10k-labels-idx1-ubyte.gz"), TEST_IMAGES).astype(np.int64)
    expected = {"fp32": answers(test_x, test_y, w, b), "coarse": answers(test_x, test_y, coarse_w, coarse_b)}
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=2)


if __name__ == "__main__":
    main()
