#!/usr/bin/env python3
"""Trains a small CNN on Debian's Fashion-MNIST, reproducibly, and exports it as one model with
FP32 and INT8 artifacts and a manifest.

Run through scripts/models/train-fashion-cnn (it provides the export root with torch, ONNX
Runtime, litert-torch and ai-edge-quantizer, and the data set under /usr/share/datasets). Writes
into OUT (see docs/fashion-cnn.md):
  fashion_cnn.onnx                     fp32, torch.onnx (dynamo), BatchNormalization kept
  fashion_cnn.tflite                   fp32, litert-torch
  fashion_cnn.int8-qdq-minmax-c10.onnx       ONNX Runtime quantize_static, QDQ, per-channel
  fashion_cnn.int8-qdq-minmax-c100.onnx      weights, calibrated on the first N training
  fashion_cnn.int8-qdq-minmax-c1000.onnx     images with MinMax, Entropy or Percentile
  fashion_cnn.int8-qdq-entropy-c1000.onnx
  fashion_cnn.int8-qdq-percentile-c1000.onnx
  fashion_cnn.int8-dynamic.onnx        ONNX Runtime quantize_dynamic
  fashion_cnn.int8-full.tflite         ai-edge-quantizer static int8 (float input and output)
  fashion_cnn.json                     the manifest, with every artifact's test accuracy measured
                                       here with its Python runtime on all 10,000 test images
The manifest is written last, into a temporary directory renamed to OUT at the end: OUT exists
only complete, and a second run with the same seed finds it and returns at once.
"""
import argparse
import contextlib
import gzip
import hashlib
import json
import os
import random
import shutil
import struct
import sys
import tempfile
import time
import traceback

import numpy as np
import torch
from torch import nn

NAME = "fashion_cnn"
DATASET_DIR = "/usr/share/datasets/fashion-mnist"
LABELS = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker",
          "Bag", "Ankle boot"]
# The training set's pixel mean and standard deviation (on [0, 1]); the manifest's preprocess
# string says the same to the C++ side.
MEAN, STD = 0.2860, 0.3530
PREPROCESS = f"scale={1 / 255!r},mean={MEAN:.4f},std={STD:.4f},layout=nchw"
MAX_BATCH = 64
EVAL_BATCH = 50  # within MAX_BATCH; 10,000 test images in 200 batches
MANIFEST_VERSION = 2  # bump when what this script makes changes, so old caches are remade


def log(message):
    print(f"train-fashion-cnn: {message}", file=sys.stderr, flush=True)


def read_idx(path, magic_expected):
    """One IDX file (LeCun's MNIST format): big-endian magic, dimension sizes, then uint8 data."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack(">I", data[:4])[0]
    if magic != magic_expected:
        raise ValueError(f"{path}: IDX magic {magic:#x}, expected {magic_expected:#x}")
    dims = magic & 0xFF
    shape = struct.unpack(f">{dims}I", data[4:4 + 4 * dims])
    array = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims)
    if array.size != int(np.prod(shape)):
        raise ValueError(f"{path}: {array.size} bytes of data for shape {shape}")
    return array.reshape(shape)


def load_split(split):
    prefix = "train" if split == "train" else "t10k"
    images = read_idx(os.path.join(DATASET_DIR, f"{prefix}-images-idx3-ubyte.gz"), 0x803)
    labels = read_idx(os.path.join(DATASET_DIR, f"{prefix}-labels-idx1-ubyte.gz"), 0x801)
    if len(images) != len(labels):
        raise ValueError(f"{split}: {len(images)} images but {len(labels)} labels")
    return images, labels.astype(np.int64)


def preprocess(images):
    """uint8 [N, 28, 28] -> float32 NCHW [N, 1, 28, 28], as the manifest's preprocess string."""
    x = images.astype(np.float32) * np.float32(1 / 255)
    return ((x - np.float32(MEAN)) / np.float32(STD))[:, None, :, :]


class FashionCnn(nn.Module):
    """Three 3x3 convolutions (16, 32, 64 channels) with batch norm, two 2x2 poolings, two
    linear layers; logits out. Every layer is its own named module, so exported graphs and drift
    reports name them."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.relu2 = nn.ReLU()
        self.pool2 = nn.MaxPool2d(2)
        self.conv3 = nn.Conv2d(32, 64, 3, padding=1)
        self.bn3 = nn.BatchNorm2d(64)
        self.relu3 = nn.ReLU()
        self.pool3 = nn.MaxPool2d(2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Linear(64 * 7 * 7, 128)
        self.relu4 = nn.ReLU()
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.relu1(self.bn1(self.conv1(x)))
        x = self.pool2(self.relu2(self.bn2(self.conv2(x))))
        x = self.pool3(self.relu3(self.bn3(self.conv3(x))))
        return self.fc2(self.relu4(self.fc1(self.flatten(x))))


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    # Deterministic mode also fills every new tensor with NaN (to expose reads of uninitialised
    # memory): 15% of a training step here, and nothing this network reads uninitialised.
    torch.utils.deterministic.fill_uninitialized_memory = False
    # Two threads: the same reductions in the same order on every machine with two cores or more.
    torch.set_num_threads(2)


def train(seed, epochs, train_x, train_y, train_images):
    seed_everything(seed)
    model = FashionCnn()
    x = torch.from_numpy(train_x[:train_images])
    y = torch.from_numpy(train_y[:train_images])
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=2e-3, total_steps=steps)
    shuffle = torch.Generator().manual_seed(seed)
    loss_fn = nn.CrossEntropyLoss()
    started = time.monotonic()
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(x), generator=shuffle)
        total, count = 0.0, 0
        for i in range(0, len(x), batch):
            index = order[i:i + batch]
            optimizer.zero_grad()
            loss = loss_fn(model(x[index]), y[index])
            loss.backward()
            optimizer.step()
            schedule.step()
            total += loss.item() * len(index)
            count += len(index)
        log(f"epoch {epoch + 1}/{epochs}: training loss {total / count:.4f} "
            f"({time.monotonic() - started:.0f} s)")
    model.eval()
    return model, time.monotonic() - started


def accuracy_of(predict, test_x, test_y):
    """Top-1 over the whole test set, EVAL_BATCH images at a time."""
    correct = 0
    for i in range(0, len(test_x), EVAL_BATCH):
        logits = predict(test_x[i:i + EVAL_BATCH])
        correct += int((np.argmax(logits, axis=1) == test_y[i:i + EVAL_BATCH]).sum())
    return correct / len(test_x)


def eager_predict(model):
    def predict(x):
        with torch.no_grad():
            return model(torch.from_numpy(x)).numpy()
    return predict


def onnx_predict(path):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    input_name = session.get_inputs()[0].name
    return lambda x: session.run(None, {input_name: x})[0]


def tflite_predict(path):
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_path=path, num_threads=2)
    detail = interpreter.get_input_details()[0]
    output = interpreter.get_output_details()[0]
    batch = int(detail["shape"][0])

    def run(x):
        if x.shape[0] != batch:
            interpreter.resize_input_tensor(detail["index"], list(x.shape))
            interpreter.allocate_tensors()
        interpreter.set_tensor(detail["index"], to_tensor(x, detail))
        interpreter.invoke()
        return from_tensor(interpreter.get_tensor(output["index"]), output)

    try:  # one call for EVAL_BATCH images where the batch dimension resizes
        interpreter.resize_input_tensor(detail["index"], [EVAL_BATCH, 1, 28, 28])
        interpreter.allocate_tensors()
        batch = EVAL_BATCH
        return run
    except Exception:  # a static batch of 1: one image a call
        interpreter = Interpreter(model_path=path, num_threads=2)
        interpreter.allocate_tensors()
        detail = interpreter.get_input_details()[0]
        output = interpreter.get_output_details()[0]
        batch = int(detail["shape"][0])
        return lambda x: np.concatenate([run(x[i:i + batch]) for i in range(0, len(x), batch)])


def to_tensor(x, detail):
    """float32 into the input's type: quantized with its scale and zero point when integer."""
    if detail["dtype"] == np.float32:
        return x
    scale, zero_point = detail["quantization"]
    info = np.iinfo(detail["dtype"])
    return np.clip(np.round(x / scale) + zero_point, info.min, info.max).astype(detail["dtype"])


def from_tensor(y, detail):
    if detail["dtype"] == np.float32:
        return y.copy()
    scale, zero_point = detail["quantization"]
    return (y.astype(np.float32) - zero_point) * scale


def tflite_io(path):
    """Each input's and output's type and quantization, for the manifest."""
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_path=path)

    def describe(d):
        entry = {"name": d["name"], "dtype": np.dtype(d["dtype"]).name,
                 "shape": [int(n) for n in d["shape"]]}
        if d["dtype"] != np.float32:
            entry["scale"], entry["zero_point"] = float(d["quantization"][0]), \
                int(d["quantization"][1])
        return entry

    return {"inputs": [describe(d) for d in interpreter.get_input_details()],
            "outputs": [describe(d) for d in interpreter.get_output_details()]}


def export_onnx(model, path):
    example = (torch.zeros(2, 1, 28, 28),)  # torch.export specialises a dimension of size 1
    batch = torch.export.Dim("batch", min=1, max=MAX_BATCH)
    # optimize=False: the exporter's optimizer would fold nothing we need and may rename values;
    # BatchNormalization stays its own node (ONNX Runtime fuses it into the Conv when it loads).
    torch.onnx.export(model, example, path, input_names=["input"], output_names=["logits"],
                      dynamic_shapes=({0: batch},), dynamo=True, external_data=False,
                      optimize=False)
    import onnx

    onnx_model = onnx.load(path)
    name_by_module(onnx_model)
    onnx.checker.check_model(onnx_model, full_check=True)
    onnx.save(onnx_model, path)


def name_by_module(onnx_model):
    """Names each module's output tensor after the module (conv1, bn1, relu1, pool2, fc1...) and
    its node MODULE/OpType, from the exporter's pkg.torch.onnx.name_scopes metadata: the
    exporter's own names (conv2d_1, getitem_3) say the aten op, not the layer, and a drift report
    matches and names tensors by these names. The graph's input and output keep theirs."""
    import ast

    graph = onnx_model.graph
    last_node_of = {}
    for node in graph.node:
        scopes = next((ast.literal_eval(p.value) for p in node.metadata_props
                       if p.key == "pkg.torch.onnx.name_scopes"), None)
        if scopes and len(scopes) >= 3 and scopes[0] == "" and scopes[1]:
            last_node_of[scopes[1]] = node
    keep = {v.name for v in graph.input} | {v.name for v in graph.output}
    renamed = {}
    for module, node in last_node_of.items():
        node.name = f"{module}/{node.op_type}"
        if len(node.output) == 1 and node.output[0] not in keep:
            renamed[node.output[0]] = module
            node.output[0] = module
    for node in graph.node:
        node.input[:] = [renamed.get(name, name) for name in node.input]
    for value in graph.value_info:
        value.name = renamed.get(value.name, value.name)


def export_tflite(model, path):
    import litert_torch

    litert_torch.convert(model, (torch.zeros(1, 1, 28, 28),)).export(path)


class Calibration:
    """onnxruntime.quantization's CalibrationDataReader over the first images of a set."""

    def __init__(self, input_name, images, batch=10):
        self.batches = [{input_name: images[i:i + batch]} for i in range(0, len(images), batch)]
        self.position = 0

    def get_next(self):
        if self.position >= len(self.batches):
            return None
        self.position += 1
        return self.batches[self.position - 1]

    def rewind(self):
        self.position = 0


# ONNX Runtime's Entropy calibration builds histograms of 128 bins and searches thresholds over
# 128 quantized bins for int8: with one candidate threshold it returns the full range, so its
# model is byte for byte the MinMax one (seen with 1.23). quantize_static passes no histogram
# size through, so the calibrator it creates is given 2048 bins here (TensorRT's entropy
# calibration uses 2048 too). Fails loudly if ORT's module no longer has that function.
@contextlib.contextmanager
def entropy_histogram_bins(bins):
    module = sys.modules["onnxruntime.quantization.quantize"]
    original = getattr(module, "create_calibrator", None)
    if original is None:
        raise RuntimeError("onnxruntime.quantization.quantize.create_calibrator is gone: the "
                           "Entropy variant's histogram size cannot be set; see this function")

    def create_calibrator(*args, **kwargs):
        options = dict(kwargs.get("extra_options") or {})
        options.setdefault("num_bins", bins)
        kwargs["extra_options"] = options
        return original(*args, **kwargs)

    module.create_calibrator = create_calibrator
    try:
        yield
    finally:
        module.create_calibrator = original


ENTROPY_HISTOGRAM_BINS = 2048


def quantize_qdq(prepared_path, path, method, images):
    from onnxruntime.quantization import (CalibrationMethod, QuantFormat, QuantType,
                                          quantize_static)

    methods = {"minmax": CalibrationMethod.MinMax, "entropy": CalibrationMethod.Entropy,
               "percentile": CalibrationMethod.Percentile}
    bins = (entropy_histogram_bins(ENTROPY_HISTOGRAM_BINS) if method == "entropy"
            else contextlib.nullcontext())
    with bins:
        quantize_static(prepared_path, path, Calibration("input", images),
                        quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QInt8, weight_type=QuantType.QInt8,
                        calibrate_method=methods[method],
                        # Entropy and Percentile keep every intermediate output until they build
                        # their histograms; flushing every 20 batches bounds the memory. Not for
                        # MinMax: ORT 1.23's MinMax then fails with "No data is collected" when
                        # the batch count is a multiple of 20 (its last flush leaves nothing).
                        extra_options={} if method == "minmax" else
                        {"CalibMaxIntermediateOutputs": 20})


def quantize_full_tflite(float_path, path, calibration_images):
    from ai_edge_quantizer import quantizer, recipe

    q = quantizer.Quantizer(float_path)
    q.load_quantization_recipe(recipe.static_wi8_ai8())
    from ai_edge_litert.interpreter import Interpreter

    signatures = Interpreter(model_path=float_path).get_signature_list()
    signature, io = next(iter(signatures.items()))
    input_name = io["inputs"][0]
    samples = [{input_name: calibration_images[i:i + 1]} for i in range(len(calibration_images))]
    result = q.calibrate({signature: samples}, num_threads=2)
    q.quantize(result).export_model(path, overwrite=True)


def file_sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def complete_manifest(out):
    """The cached manifest when OUT holds a complete run of this script's version, else None."""
    path = os.path.join(out, f"{NAME}.json")
    try:
        with open(path) as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        return None
    if manifest.get("edgebench_fashion_cnn_version") != MANIFEST_VERSION:
        return None
    for artifact in manifest.get("artifacts", []):
        file = os.path.join(out, artifact["path"])
        if not os.path.isfile(file) or file_sha256(file) != artifact.get("sha256"):
            return None
    return manifest


def main(stdout):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", help="output directory (default: "
                        "$EDGEBENCH_CACHE/models/fashion-cnn-sSEED, or -eEPOCHS appended when "
                        "--epochs is not the default)")
    parser.add_argument("--train-images", type=int, default=60000,
                        help="train on the first N training images only (quick checks)")
    parser.add_argument("--min-accuracy", type=float, default=0.90,
                        help="fail when eager PyTorch's test accuracy is below this")
    args = parser.parse_args()
    cache = os.environ.get("EDGEBENCH_CACHE", os.path.expanduser("~/.cache/edgebench"))
    suffix = "" if (args.epochs, args.train_images) == (2, 60000) else \
        f"-e{args.epochs}" + ("" if args.train_images == 60000 else f"-n{args.train_images}")
    out = os.path.abspath(args.out or os.path.join(cache, "models",
                                                   f"fashion-cnn-s{args.seed}{suffix}"))
    cached = complete_manifest(out)
    if cached is not None:
        if (cached["training"]["seed"], cached["training"]["epochs"]) != (args.seed, args.epochs):
            log(f"{out} holds seed {cached['training']['seed']}, epochs "
                f"{cached['training']['epochs']}, not seed {args.seed}, epochs {args.epochs}; "
                "give another --out")
            return 1
        log(f"cached: {out}")
        print(out, file=stdout)
        return 0
    started = time.monotonic()
    parent = os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f".{os.path.basename(out)}.partial-", dir=parent)
    try:
        status = build(args, out, work, started)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    if status != 0:
        shutil.rmtree(work, ignore_errors=True)
        return status
    # mkdtemp makes the directory private; the model is for everyone who reads the cache.
    os.chmod(work, 0o755)
    for file in os.listdir(work):
        os.chmod(os.path.join(work, file), 0o644)
    if os.path.exists(out):  # an incomplete or older directory: replaced whole
        shutil.rmtree(out)
    os.rename(work, out)
    log(f"done in {time.monotonic() - started:.0f} s")
    print(out, file=stdout)
    return 0


def build(args, out, work, started):
    train_images, train_labels = load_split("train")
    test_images, test_labels = load_split("test")
    train_x, test_x = preprocess(train_images), preprocess(test_images)
    log(f"Fashion-MNIST: {len(train_x)} training and {len(test_x)} test images")

    model, train_seconds = train(args.seed, args.epochs, train_x, train_labels, args.train_images)
    eager_accuracy = accuracy_of(eager_predict(model), test_x, test_labels)
    log(f"eager PyTorch test accuracy {eager_accuracy:.4f} after {train_seconds:.0f} s")
    if eager_accuracy < args.min_accuracy:
        log(f"FAILED: test accuracy {eager_accuracy:.4f} is below {args.min_accuracy}; "
            "train longer (--epochs) or check the data set")
        return 1
    torch.save(model.state_dict(), os.path.join(work, f"{NAME}.pt"))

    manifest = {
        "name": NAME,
        "edgebench_fashion_cnn_version": MANIFEST_VERSION,
        "description": "A small CNN trained on Fashion-MNIST by scripts/models/train-fashion-cnn "
                       "(docs/fashion-cnn.md): the same network in fp32 and INT8 variants",
        "preprocess": PREPROCESS,
        "dataset": "fashion-mnist",
        "labels": LABELS,
        "inputs": [{"name": "input", "dtype": "float32", "shape": [1, 1, 28, 28],
                    "dynamic_dims": {"0": {"min": 1, "max": MAX_BATCH}}}],
        "artifacts": [],
        "not_exported": [],
        "training": {"seed": args.seed, "epochs": args.epochs, "train_images": args.train_images,
                     "seconds": round(train_seconds, 1), "torch": torch.__version__,
                     "threads": torch.get_num_threads(), "optimizer": "AdamW, OneCycle 2e-3, "
                     "batch 128", "eager_test_accuracy": eager_accuracy,
                     "state_dict": f"{NAME}.pt", "state_dict_sha256":
                     file_sha256(os.path.join(work, f"{NAME}.pt"))},
        "reference_accuracy": {},
        "reference_accuracy_runtimes": {},
    }

    def step(label, file, make, runtime, **details):
        """Makes one artifact, measures its test accuracy; a failure is recorded, others go on."""
        path = os.path.join(work, file)
        begun = time.monotonic()
        try:
            make(path)
            predict = onnx_predict(path) if file.endswith(".onnx") else tflite_predict(path)
            accuracy = accuracy_of(predict, test_x, test_labels)
        except Exception as e:
            error = f"{type(e).__name__}: {e}".strip()
            manifest["not_exported"].append({"path": file, **details, "error": error[:2000]})
            log(f"{label} FAILED: {error[:500]}")
            traceback.print_exc(file=sys.stderr)
            if os.path.exists(path):
                os.remove(path)
            return False
        manifest["artifacts"].append({"path": file, **details, "sha256": file_sha256(path),
                                      "bytes": os.path.getsize(path)})
        manifest["reference_accuracy"][file] = accuracy
        manifest["reference_accuracy_runtimes"][file] = runtime
        log(f"{label}: {file}, test accuracy {accuracy:.4f} ({time.monotonic() - begun:.1f} s)")
        return True

    import onnxruntime
    import ai_edge_litert

    ort_runtime = f"onnxruntime {onnxruntime.__version__} (CPUExecutionProvider)"
    litert_runtime = f"ai-edge-litert {getattr(ai_edge_litert, '__version__', '?')} Interpreter"

    onnx_file = f"{NAME}.onnx"
    have_onnx = step("onnx fp32", onnx_file, lambda p: export_onnx(model, p), ort_runtime,
                     layout="nchw", variant="fp32", format="onnx", dtype="float32",
                     exporter=f"torch.onnx (dynamo) {torch.__version__}")
    tflite_file = f"{NAME}.tflite"
    have_tflite = step("tflite fp32", tflite_file, lambda p: export_tflite(model, p),
                       litert_runtime, layout="nchw", variant="fp32", format="tflite",
                       dtype="float32", exporter="litert-torch 0.10.0", batch="static 1")

    if have_onnx:
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from onnxruntime.quantization.shape_inference import quant_pre_process

        # ONNX Runtime's recommended pre-processing: shape inference, and its graph optimizer,
        # which folds each BatchNormalization into its Conv (as a quantized deployment would);
        # it stays out of the artifacts.
        prepared = os.path.join(tempfile.mkdtemp(prefix="fashion-cnn-prep-"), "prepared.onnx")
        # skip_symbolic_shape: ORT 1.23's symbolic shape inference fails on the exporter's
        # Constant(value_ints) nodes ("'NoneType' object has no attribute 'HasField'"); ONNX's
        # own shape inference, which it also runs, covers this graph.
        quant_pre_process(os.path.join(work, onnx_file), prepared, skip_symbolic_shape=True)
        for method, count in [("minmax", 10), ("minmax", 100), ("minmax", 1000),
                              ("entropy", 1000), ("percentile", 1000)]:
            variant = f"int8-qdq-{method}-c{count}"
            step(f"onnx {variant}", f"{NAME}.{variant}.onnx",
                 lambda p, m=method, c=count: quantize_qdq(prepared, p, m, train_x[:c]),
                 ort_runtime, layout="nchw", variant=variant, format="onnx", dtype="int8",
                 quantizer=f"onnxruntime.quantization.quantize_static {onnxruntime.__version__}",
                 quantization={"format": "QDQ", "weights": "int8 symmetric per-channel",
                               "activations": "int8", "calibration": method,
                               **({"histogram_bins": ENTROPY_HISTOGRAM_BINS}
                                  if method == "entropy" else {}),
                               "calibration_images": f"first {count} training images",
                               "pre_process": "quant_pre_process (BatchNormalization folded)"})
        # From the fp32 model without its value_info: with it, quantize_dynamic's shape
        # inference fails ("Inferred shape and existing shape differ in dimension 0: (3136) vs
        # (128)": the recorded shapes against fc1's transposed weight).
        import onnx

        bare = onnx.load(os.path.join(work, onnx_file))
        del bare.graph.value_info[:]
        bare_path = os.path.join(os.path.dirname(prepared), "bare.onnx")
        onnx.save(bare, bare_path)
        # uint8 weights: ONNX Runtime's CPU ConvInteger has no int8-weight kernel ("Could not
        # find an implementation for ConvInteger(10)" with the default QInt8).
        step("onnx int8-dynamic", f"{NAME}.int8-dynamic.onnx",
             lambda p: quantize_dynamic(bare_path, p, weight_type=QuantType.QUInt8),
             ort_runtime, layout="nchw",
             variant="int8-dynamic", format="onnx", dtype="int8",
             quantizer=f"onnxruntime.quantization.quantize_dynamic {onnxruntime.__version__}",
             quantization={"weights": "uint8 per-tensor (Conv as ConvInteger, Gemm as "
                           "MatMulInteger)", "activations": "uint8, quantized at run time",
                           "pre_process": "none (BatchNormalization stays float)"})
        shutil.rmtree(os.path.dirname(prepared), ignore_errors=True)
    if have_tflite:
        step("tflite int8-full", f"{NAME}.int8-full.tflite",
             lambda p: quantize_full_tflite(os.path.join(work, tflite_file), p, train_x[:1000]),
             litert_runtime, layout="nchw", variant="int8-full", format="tflite", dtype="int8",
             quantizer="ai-edge-quantizer 0.10.0 static_wi8_ai8",
             quantization={"weights": "int8", "activations": "int8",
                           "calibration": "min/max", "calibration_images":
                           "first 1000 training images"})
        full = os.path.join(work, f"{NAME}.int8-full.tflite")
        if os.path.exists(full):
            io = tflite_io(full)
            manifest["artifacts"][-1]["io"] = io
            log(f"int8-full input/output: {io}")

    manifest["seconds"] = round(time.monotonic() - started, 1)
    with open(os.path.join(work, f"{NAME}.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    for file, accuracy in manifest["reference_accuracy"].items():
        log(f"  {accuracy:.4f}  {file}")
    for failed in manifest["not_exported"]:
        log(f"  failed: {failed['path']}: {failed['error'][:300]}")
    return 0


if __name__ == "__main__":
    # stdout carries only OUT: the libraries' own prints (ai-edge-quantizer's report, native
    # logs) go to stderr with the log.
    stdout = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    code = main(stdout)
    stdout.flush()
    sys.exit(code)
