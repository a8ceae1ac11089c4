#!/usr/bin/env python3
"""Exports one PyTorch network, with one seed's random weights, to every runtime's format.

Run through scripts/models/export-torch-models (it provides the root with torch and the venv with
ExecuTorch). Writes, for NETWORK into OUT:
  NETWORK.onnx              torch.onnx (dynamic batch)
  NETWORK.cpu.pte           ExecuTorch, no delegate (portable/optimized kernels)
  NETWORK.xnnpack.pte       ExecuTorch, lowered to XNNPACK, fp32
  NETWORK.xnnpack-q8.pte    ExecuTorch, XNNPACK, 8-bit (XNNPACKQuantizer, PT2E, per-channel)
  NETWORK.tflite            litert-torch, when it imports (otherwise the manifest says why not)
  NETWORK.pt                TorchScript (torch.jit.trace at batch 2, eval mode, not frozen), for
                            LibTorch; its extra file edgebench.json names the inputs and outputs
  NETWORK.input_0.npy       a reference input (batch 1) and eager PyTorch's fp32 outputs for it:
  NETWORK.output_0.npy      what every fp32 artifact must reproduce
  NETWORK.json              the manifest: one model, its artifacts, per-node delegation counts
Random weights: latency-faithful, accuracy-meaningless; the manifest says so.
"""
import argparse
import hashlib
import json
import math
import os
import sys
import tempfile
import time
import traceback

import numpy as np
import torch
from torch import nn

# Vision networks take NCHW float32 images; the batch dimension is dynamic up to max_batch.
NETWORKS = {
    "vit-b16": dict(kind="vit", image=224, patch=16, hidden=768, layers=12, heads=12, mlp=3072,
                    classes=1000, max_batch=8),
    "mobilenetv2": dict(kind="mobilenetv2", image=224, classes=1000, stem=32, last=1280,
                        blocks=[(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                                (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)], max_batch=8),
    # CLIP's image encoder at ViT-L/14's real shape and 336 px (the tower of LLaVA-1.5 and of the
    # white paper's CLIP ViT-L): 577 tokens, 24 blocks, quick-GELU, pooled and projected to 768.
    "clip-vit-l14-336": dict(kind="clip", image=336, patch=14, hidden=1024, layers=24, heads=16, mlp=4096,
                             projection=768, max_batch=4),
    "clip-tiny-test": dict(kind="clip", image=28, patch=14, hidden=16, layers=2, heads=2, mlp=32,
                           projection=8, max_batch=4),
    "vit-tiny-test": dict(kind="vit", image=32, patch=8, hidden=16, layers=2, heads=2, mlp=32,
                          classes=10, max_batch=4),
    "mobilenet-tiny-test": dict(kind="mobilenetv2", image=32, classes=10, stem=8, last=32,
                                blocks=[(1, 8, 1, 1), (4, 8, 2, 2), (4, 16, 1, 2)], max_batch=4),
    "mlp-test": dict(kind="mlp", features=16, hidden=32, classes=8, max_batch=4),
}


class Attention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, n, d = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // self.heads))
        out = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, n, d)
        return self.proj(out)


class QuickGELU(nn.Module):
    """CLIP's activation: x * sigmoid(1.702 x)."""

    def forward(self, x):
        return x * torch.sigmoid(1.702 * x)


class EncoderBlock(nn.Module):
    def __init__(self, hidden, heads, mlp, eps=1e-6, activation=nn.GELU):
        super().__init__()
        self.norm1 = nn.LayerNorm(hidden, eps=eps)
        self.attention = Attention(hidden, heads)
        self.norm2 = nn.LayerNorm(hidden, eps=eps)
        self.mlp = nn.Sequential(nn.Linear(hidden, mlp), activation(), nn.Linear(mlp, hidden))

    def forward(self, x):
        x = x + self.attention(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class VisionTransformer(nn.Module):
    """ViT (Dosovitskiy et al.): patch embedding, class token, pre-norm encoder, linear head."""

    def __init__(self, image, patch, hidden, layers, heads, mlp, classes):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, hidden, kernel_size=patch, stride=patch)
        self.class_token = nn.Parameter(torch.randn(1, 1, hidden) * 0.02)
        self.position = nn.Parameter(torch.randn(1, (image // patch) ** 2 + 1, hidden) * 0.02)
        self.blocks = nn.Sequential(*[EncoderBlock(hidden, heads, mlp) for _ in range(layers)])
        self.norm = nn.LayerNorm(hidden, eps=1e-6)
        self.head = nn.Linear(hidden, classes)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.class_token.expand(x.shape[0], -1, -1), x], dim=1) + self.position
        return self.head(self.norm(self.blocks(x))[:, 0])


class ClipVision(nn.Module):
    """CLIP's image encoder (Radford et al.): patch embedding without bias, class token, a layer norm
    before the encoder (pre_layrnorm), pre-norm blocks with quick-GELU and eps 1e-5, the class
    token's final layer norm and the visual projection without bias: the image embedding."""

    def __init__(self, image, patch, hidden, layers, heads, mlp, projection):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, hidden, kernel_size=patch, stride=patch, bias=False)
        self.class_token = nn.Parameter(torch.randn(1, 1, hidden) * 0.02)
        self.position = nn.Parameter(torch.randn(1, (image // patch) ** 2 + 1, hidden) * 0.02)
        self.pre_norm = nn.LayerNorm(hidden, eps=1e-5)
        self.blocks = nn.Sequential(*[EncoderBlock(hidden, heads, mlp, 1e-5, QuickGELU) for _ in range(layers)])
        self.post_norm = nn.LayerNorm(hidden, eps=1e-5)
        self.projection = nn.Linear(hidden, projection, bias=False)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.class_token.expand(x.shape[0], -1, -1), x], dim=1) + self.position
        return self.projection(self.post_norm(self.blocks(self.pre_norm(x))[:, 0]))


def conv_bn(c_in, c_out, kernel, stride, groups=1, relu=True):
    layers = [nn.Conv2d(c_in, c_out, kernel, stride, kernel // 2, groups=groups, bias=False),
              nn.BatchNorm2d(c_out)]
    if relu:
        layers.append(nn.ReLU6())
    return nn.Sequential(*layers)


class InvertedResidual(nn.Module):
    def __init__(self, c_in, c_out, stride, expand):
        super().__init__()
        mid = c_in * expand
        layers = [conv_bn(c_in, mid, 1, 1)] if expand != 1 else []
        layers += [conv_bn(mid, mid, 3, stride, groups=mid), conv_bn(mid, c_out, 1, 1, relu=False)]
        self.body = nn.Sequential(*layers)
        self.residual = stride == 1 and c_in == c_out

    def forward(self, x):
        return x + self.body(x) if self.residual else self.body(x)


class MobileNetV2(nn.Module):
    """MobileNetV2 (Sandler et al.): inverted residual blocks as (expand, channels, repeats,
    stride), a 1x1 expansion to `last` channels, global average pooling, a linear head."""

    def __init__(self, classes, stem, last, blocks, **_):
        super().__init__()
        layers = [conv_bn(3, stem, 3, 2)]
        c_in = stem
        for expand, channels, repeats, stride in blocks:
            for i in range(repeats):
                layers.append(InvertedResidual(c_in, channels, stride if i == 0 else 1, expand))
                c_in = channels
        layers.append(conv_bn(c_in, last, 1, 1))
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(last, classes)

    def forward(self, images):
        return self.head(self.features(images).mean(dim=(2, 3)))


class Mlp(nn.Module):
    def __init__(self, features, hidden, classes):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(features, hidden), nn.ReLU(),
                                    nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, classes))

    def forward(self, x):
        return self.layers(x)


def build(network, seed):
    config = dict(NETWORKS[network])
    kind = config.pop("kind")
    max_batch = config.pop("max_batch")
    torch.manual_seed(seed)
    if kind in ("vit", "clip"):
        model = (VisionTransformer if kind == "vit" else ClipVision)(**config)
        input_shape = (1, 3, config["image"], config["image"])
    elif kind == "mobilenetv2":
        model = MobileNetV2(**config)
        input_shape = (1, 3, config["image"], config["image"])
        # Non-trivial batch-norm statistics, so folding them is exercised.
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
    else:
        model = Mlp(**config)
        input_shape = (1, config["features"])
    model.eval()
    # The reference input: drawn after the weights, from the same seed's stream.
    reference = torch.randn(*input_shape)
    return model, reference, max_batch


def weights_sha256(model):
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().contiguous().numpy().tobytes())
    return digest.hexdigest()


def file_sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def export_program(model, reference, max_batch):
    # The example batch is 2: torch.export specialises a dimension whose example size is 1.
    example = (reference.repeat(2, *[1] * (reference.dim() - 1)),)
    batch = torch.export.Dim("batch", min=1, max=max_batch)
    return torch.export.export(model, example, dynamic_shapes=({0: batch},))


def export_onnx(model, reference, max_batch, path):
    example = (reference.repeat(2, *[1] * (reference.dim() - 1)),)
    batch = torch.export.Dim("batch", min=1, max=max_batch)
    torch.onnx.export(model, example, path, input_names=["input_0"], output_names=["output_0"],
                      dynamic_shapes=({0: batch},), dynamo=True, external_data=False)


def delegation_counts(edge_program):
    from executorch.devtools.backend_debug import get_delegation_info

    info = get_delegation_info(edge_program.exported_program().graph_module)
    by_op = {}
    for row in info.get_operator_delegation_dataframe().to_dict("records"):
        if row["op_type"] == "Total":
            continue
        by_op[row["op_type"]] = {"delegated": int(row["occurrences_in_delegated_graphs"]),
                                 "not_delegated": int(row["occurrences_in_non_delegated_graphs"])}
    return {
        "delegated_nodes": int(info.num_delegated_nodes),
        "non_delegated_nodes": int(info.num_non_delegated_nodes),
        "delegated_subgraphs": int(info.num_delegated_subgraphs),
        "by_op": by_op,
    }


def export_pte(model, reference, max_batch, path, delegate, quantize):
    from executorch.exir import to_edge_transform_and_lower

    program = export_program(model, reference, max_batch)
    if quantize:
        from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
            XNNPACKQuantizer, get_symmetric_quantization_config)
        from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

        quantizer = XNNPACKQuantizer().set_global(
            get_symmetric_quantization_config(is_per_channel=True))
        prepared = prepare_pt2e(program.module(), quantizer)
        # Calibration on a few inputs from the seed's stream (the weights are random anyway).
        generator = torch.Generator().manual_seed(0)
        for _ in range(8):
            prepared(torch.randn(reference.shape, generator=generator))
        program = export_program(convert_pt2e(prepared), reference, max_batch)
    partitioners = []
    if delegate:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner

        partitioners = [XnnpackPartitioner()]
    edge = to_edge_transform_and_lower(program, partitioner=partitioners)
    delegation = delegation_counts(edge)
    et_program = edge.to_executorch()
    with open(path, "wb") as f:
        f.write(et_program.buffer)
    return delegation


def export_tflite(model, reference, path):
    import litert_torch  # noqa: F401  (PyPI's litert-torch; imported here to say why it failed)

    edge_model = litert_torch.convert(model, (reference,))
    edge_model.export(path)


def export_torchscript(model, reference, max_batch, path):
    """torch.jit.trace at batch 2 (a traced size of 1 could be specialised), checked against eager
    PyTorch at batch 1 and max_batch, saved with an extra file that says what the file alone cannot
    (TorchScript keeps no input shapes): the inputs' and outputs' names, dtypes and shapes."""
    example = reference.repeat(2, *[1] * (reference.dim() - 1))
    with torch.no_grad():
        traced = torch.jit.trace(model, (example,), check_trace=False)
        for batch in (1, max_batch):
            x = torch.randn(batch, *reference.shape[1:], generator=torch.Generator().manual_seed(batch))
            got, want = traced(x), model(x)
            if got.shape != want.shape or not torch.allclose(got, want, rtol=1e-4, atol=1e-5):
                raise RuntimeError(f"the traced module differs from eager PyTorch at batch {batch} "
                                   f"(max abs diff {(got - want).abs().max().item():g})")
        output = model(reference)
    batch = {"0": {"min": 1, "max": max_batch}}
    described = {
        "exporter": f"torch.jit.trace (torch {torch.__version__})",
        "inputs": [{"name": "input_0", "dtype": "float32", "shape": list(reference.shape),
                    "dynamic_dims": batch}],
        "outputs": [{"name": "output_0", "dtype": "float32", "shape": list(output.shape),
                     "dynamic_dims": batch}],
    }
    torch.jit.save(traced, path,
                   _extra_files={"edgebench.json": json.dumps(described, sort_keys=True)})


def same_torchscript(kept_path, fresh_path):
    """A .pt is a zip whose bytes need not repeat across machines (its debug records name the
    exporting script's path): two are the same module when their code and tensors are equal."""
    kept, fresh = torch.jit.load(kept_path), torch.jit.load(fresh_path)
    if kept.code != fresh.code:
        return "its TorchScript code differs"
    a, b = kept.state_dict(), fresh.state_dict()
    if sorted(a) != sorted(b) or any(not torch.equal(a[k], b[k]) for k in a):
        return "its tensors differ"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("network", choices=sorted(NETWORKS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="output directory (default: "
                        "$EDGEBENCH_CACHE/models/torch/NETWORK-sSEED)")
    parser.add_argument("--formats", default="onnx,pte,tflite,pt",
                        help="comma-separated subset of onnx,pte,tflite,pt; pte-fp32 for the fp32 .pte "
                        "only (8-bit quantization of clip-vit-l14-336 ran for over 30 minutes on 2 cores)")
    parser.add_argument("--check", metavar="DIR",
                        help="export into a temporary directory and check that DIR's kept "
                        "artifacts of NETWORK have the same weights and reference outputs")
    args = parser.parse_args()
    formats = set(args.formats.split(","))
    cache = os.environ.get("EDGEBENCH_CACHE", os.path.expanduser("~/.cache/edgebench"))
    out = args.out or os.path.join(cache, "models", "torch", f"{args.network}-s{args.seed}")
    if args.check:
        out = tempfile.mkdtemp(prefix=f"export-{args.network}-")
    os.makedirs(out, exist_ok=True)
    name = args.network

    model, reference, max_batch = build(name, args.seed)
    with torch.no_grad():
        expected = model(reference)
    np.save(os.path.join(out, f"{name}.input_0.npy"), reference.numpy())
    np.save(os.path.join(out, f"{name}.output_0.npy"), expected.numpy())

    manifest = {
        "name": name,
        "description": f"{name}, random weights (seed {args.seed}): latency-faithful, "
                       "accuracy-meaningless",
        "network": NETWORKS[name],
        "seed": args.seed,
        "weights_sha256": weights_sha256(model),
        "torch": torch.__version__,
        "inputs": [{"name": "input_0", "dtype": "float32", "shape": list(reference.shape),
                    "dynamic_dims": {"0": {"min": 1, "max": max_batch}}}],
        "reference": {"inputs": [f"{name}.input_0.npy"], "outputs": [f"{name}.output_0.npy"]},
        "artifacts": [],
        "not_exported": [],
    }

    def step(label, path, fn, **details):
        started = time.monotonic()
        try:
            extra = fn()
        except Exception as e:  # an exporter's failure is recorded, and the others go on
            manifest["not_exported"].append({"path": os.path.basename(path), **details,
                                             "error": f"{type(e).__name__}: {e}".strip()})
            print(f"export: {label} failed: {type(e).__name__}: {e}", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            return
        entry = {"path": os.path.basename(path), **details, "sha256": file_sha256(path),
                 "bytes": os.path.getsize(path)}
        if extra:
            entry["delegation"] = extra
        manifest["artifacts"].append(entry)
        print(f"export: {label}: {path} ({time.monotonic() - started:.1f} s)", file=sys.stderr)

    layout = "nchw" if reference.dim() == 4 else "any"
    if "onnx" in formats:
        path = os.path.join(out, f"{name}.onnx")
        step("onnx", path, lambda: export_onnx(model, reference, max_batch, path),
             format="onnx", layout=layout, dtype="float32")
    if "pte" in formats or "pte-fp32" in formats:
        for suffix, delegate, quantize, dtype in [("cpu", None, False, "float32"),
                                                  ("xnnpack", "XnnpackBackend", False, "float32"),
                                                  ("xnnpack-q8", "XnnpackBackend", True, "int8")]:
            if quantize and "pte" not in formats:
                continue
            path = os.path.join(out, f"{name}.{suffix}.pte")
            step(f"pte {suffix}", path,
                 lambda p=path, d=delegate, q=quantize: export_pte(model, reference, max_batch, p,
                                                                   d is not None, q),
                 format="pte", layout=layout, dtype=dtype, delegate=delegate,
                 target="executorch:xnnpack" if delegate else "executorch:cpu")
    if "tflite" in formats:
        path = os.path.join(out, f"{name}.tflite")
        step("tflite", path, lambda: export_tflite(model, reference, path),
             format="tflite", layout=layout, dtype="float32", exporter="litert-torch")
    if "pt" in formats:
        path = os.path.join(out, f"{name}.pt")
        step("pt", path, lambda: export_torchscript(model, reference, max_batch, path),
             format="pt", layout=layout, dtype="float32", exporter="torch.jit.trace")

    with open(os.path.join(out, f"{name}.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=False)
        f.write("\n")
    if args.check:
        return check_kept(args.check, out, name)
    print(out)
    return 0 if manifest["artifacts"] else 1


def check_kept(kept_dir, fresh_dir, name):
    """Same weights (their hash), same reference input and outputs, same artifacts exported."""
    with open(os.path.join(kept_dir, f"{name}.json")) as f:
        kept = json.load(f)
    with open(os.path.join(fresh_dir, f"{name}.json")) as f:
        fresh = json.load(f)
    problems = []
    if kept["weights_sha256"] != fresh["weights_sha256"]:
        problems.append(f"weights differ: kept {kept['weights_sha256']}, "
                        f"exported now {fresh['weights_sha256']}")
    for kind in ("inputs", "outputs"):
        for file in kept["reference"][kind]:
            a = np.load(os.path.join(kept_dir, file))
            b = np.load(os.path.join(fresh_dir, file))
            if a.shape != b.shape or not np.allclose(a, b, rtol=1e-5, atol=1e-6):
                problems.append(f"{file} differs from what the export writes now")
    kept_paths = sorted(a["path"] for a in kept["artifacts"])
    fresh_paths = sorted(a["path"] for a in fresh["artifacts"])
    if kept_paths != fresh_paths:
        problems.append(f"artifacts differ: kept {kept_paths}, exported now {fresh_paths}")
    for entry in kept["artifacts"]:
        fresh_path = os.path.join(fresh_dir, entry["path"])
        if entry.get("format") == "pt" and os.path.exists(fresh_path):
            differs = same_torchscript(os.path.join(kept_dir, entry["path"]), fresh_path)
            if differs:
                problems.append(f"{entry['path']}: {differs} from what the export writes now")
    for p in problems:
        print(f"check {name}: {p}", file=sys.stderr)
    if problems:
        print(f"check {name}: regenerate with the command in {kept_dir}/README.md", file=sys.stderr)
        return 1
    print(f"check {name}: the kept artifacts in {kept_dir} match the export ({fresh_dir})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
