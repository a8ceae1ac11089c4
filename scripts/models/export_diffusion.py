#!/usr/bin/env python3
"""Builds Stable Diffusion 1.5's three networks with seeded random weights and exports them.

Run through scripts/models/export-diffusion (it provides the root with torch and the venv with
diffusers, transformers and ExecuTorch). PRESET is `sd15` (the published configurations: the
CLIP ViT-L/14 text encoder, the 860 M-parameter UNet, the VAE decoder) or `tiny` (the same
architecture with small widths, for tests). Writes into OUT:
  text_encoder.onnx, unet.onnx, vae_decoder.onnx   torch.onnx (dynamic batch; the UNet and the
                                                   VAE also dynamic height and width); weights in
                                                   a .onnx.data file beside a model over 2 GB
  NAME.xnnpack.pte                                 ExecuTorch, XNNPACK, fp32, the preset's shapes
                                                   (where the exporter manages; the manifest
                                                   says why not otherwise)
  text_encoder.json, unet.json, vae_decoder.json   each network's manifest (`edgebench run` reads
                                                   them); OpenVINO reads the .onnx files
  diffusion.yaml                                   the pipeline: `edgebench run OUT/diffusion.yaml`
  reference/                                       (tiny) the tokens, the initial latents and the
                                                   final latents of a PyTorch run of the same
                                                   pipeline (diffusers' DDIMScheduler), for checks
Random weights: latency only. The images they draw are noise; the manifest says so.

The prompt tokens and the initial latents are what edgebench makes from the seed
(pipeline/diffusion_inputs.h): a splitmix64 stream, Box-Muller normals; reproduced here
exactly so that a PyTorch run of the pipeline is a reference for the tool's.
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
import warnings

import numpy as np
import torch
from torch import nn

CLIP_BOS, CLIP_EOS, CLIP_VOCAB, TEXT_LENGTH = 49406, 49407, 49408, 77
PROMPT_TOKENS = 12  # the seeded "prompt": this many tokens between BOS and EOS

PRESETS = {
    "sd15": dict(
        image=512, steps=20,
        text=dict(vocab_size=CLIP_VOCAB, hidden_size=768, intermediate_size=3072, projection_dim=768,
                  num_hidden_layers=12, num_attention_heads=12, max_position_embeddings=TEXT_LENGTH,
                  hidden_act="quick_gelu", layer_norm_eps=1e-5),
        unet=dict(sample_size=64, in_channels=4, out_channels=4, layers_per_block=2,
                  down_block_types=["CrossAttnDownBlock2D"] * 3 + ["DownBlock2D"],
                  up_block_types=["UpBlock2D"] + ["CrossAttnUpBlock2D"] * 3,
                  block_out_channels=[320, 640, 1280, 1280], cross_attention_dim=768,
                  attention_head_dim=8, norm_num_groups=32),
        vae=dict(in_channels=3, out_channels=3, latent_channels=4, layers_per_block=2,
                 down_block_types=["DownEncoderBlock2D"] * 4, up_block_types=["UpDecoderBlock2D"] * 4,
                 block_out_channels=[128, 256, 512, 512], norm_num_groups=32, sample_size=512,
                 scaling_factor=0.18215)),
    "tiny": dict(
        image=64, steps=4,
        # CLIP's whole vocabulary (the seeded prompt draws from it) at width 8: 1.6 MB of
        # embeddings, small enough to keep the exported files in tests/models/diffusion.
        text=dict(vocab_size=CLIP_VOCAB, hidden_size=8, intermediate_size=16, projection_dim=8,
                  num_hidden_layers=2, num_attention_heads=2, max_position_embeddings=TEXT_LENGTH,
                  hidden_act="quick_gelu", layer_norm_eps=1e-5),
        unet=dict(sample_size=8, in_channels=4, out_channels=4, layers_per_block=1,
                  down_block_types=["CrossAttnDownBlock2D", "DownBlock2D"],
                  up_block_types=["UpBlock2D", "CrossAttnUpBlock2D"],
                  block_out_channels=[16, 32], cross_attention_dim=8, attention_head_dim=4,
                  norm_num_groups=8),
        vae=dict(in_channels=3, out_channels=3, latent_channels=4, layers_per_block=1,
                 down_block_types=["DownEncoderBlock2D"] * 4, up_block_types=["UpDecoderBlock2D"] * 4,
                 block_out_channels=[8, 8, 16, 16], norm_num_groups=4, sample_size=64,
                 scaling_factor=0.18215)),
}
# Stable Diffusion 1.5's scheduler configuration (DDIM, as the field report ran it).
SCHEDULER = dict(num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012,
                 beta_schedule="scaled_linear", clip_sample=False, set_alpha_to_one=False,
                 steps_offset=1, timestep_spacing="leading", prediction_type="epsilon")
GUIDANCE = 7.5


class SplitMix64:
    """edgebench's seeded stream (pipeline/diffusion_inputs.cc), bit for bit."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self):  # in (0, 1]
        return ((self.next() >> 11) + 1) * (1.0 / 9007199254740992.0)


def seeded_tokens(seed):
    """[2, 77] int64: the unconditional prompt (empty) and the seeded one, EOS-padded."""
    stream = SplitMix64(seed ^ 0x746F6B656E73)  # "tokens"
    prompt = [stream.next() % CLIP_BOS for _ in range(PROMPT_TOKENS)]
    uncond = [CLIP_BOS, CLIP_EOS] + [CLIP_EOS] * (TEXT_LENGTH - 2)
    cond = [CLIP_BOS] + prompt + [CLIP_EOS] * (TEXT_LENGTH - 1 - PROMPT_TOKENS)
    return np.array([uncond, cond], dtype=np.int64)


def seeded_latents(seed, shape):
    """float32 normals, Box-Muller in double precision, as edgebench draws them."""
    stream = SplitMix64(seed)
    count = int(np.prod(shape))
    values = np.empty(count, dtype=np.float32)
    for i in range(0, count, 2):
        u1, u2 = stream.uniform(), stream.uniform()
        radius = math.sqrt(-2.0 * math.log(u1))
        values[i] = np.float32(radius * math.cos(2.0 * math.pi * u2))
        if i + 1 < count:
            values[i + 1] = np.float32(radius * math.sin(2.0 * math.pi * u2))
    return values.reshape(shape)


class TextEncoder(nn.Module):
    def __init__(self, clip):
        super().__init__()
        self.clip = clip

    def forward(self, input_ids):
        return self.clip(input_ids=input_ids).last_hidden_state


class UNet(nn.Module):
    def __init__(self, unet):
        super().__init__()
        self.unet = unet

    def forward(self, sample, timestep, encoder_hidden_states):
        return self.unet(sample, timestep, encoder_hidden_states, return_dict=False)[0]


class VaeDecoder(nn.Module):
    """latents (the scheduler's) to an image in [-1, 1]: the 1 / scaling factor is inside."""

    def __init__(self, vae, scaling):
        super().__init__()
        self.vae = vae
        self.scaling = scaling

    def forward(self, latents):
        return self.vae.decode(latents / self.scaling, return_dict=False)[0]


def build(preset, seed):
    from diffusers import AutoencoderKL, UNet2DConditionModel
    from transformers import CLIPTextConfig, CLIPTextModel

    config = PRESETS[preset]
    torch.manual_seed(seed)
    text = CLIPTextModel(CLIPTextConfig(**config["text"])).eval()
    unet = UNet2DConditionModel(**config["unet"]).eval()
    vae_config = dict(config["vae"])
    scaling = vae_config["scaling_factor"]
    vae = AutoencoderKL(**vae_config).eval()
    return TextEncoder(text).eval(), UNet(unet).eval(), VaeDecoder(vae, scaling).eval()


def weights_sha256(model):
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().contiguous().numpy().tobytes())
    return digest.hexdigest()


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def parameters(model):
    return sum(p.numel() for p in model.parameters())


def export_onnx(model, example, names, outputs, dynamic_axes, path, large):
    # The TorchScript exporter: it keeps the batch, height and width symbolic where
    # torch.export's guards (the UNet's divisibility checks) would specialise them.
    if not large:
        torch.onnx.export(model, example, path, input_names=names, output_names=outputs,
                          dynamic_axes=dynamic_axes, opset_version=17, dynamo=False)
        return
    import shutil
    import onnx

    # Over 2 GB a protobuf cannot hold the weights: the exporter writes a file per tensor
    # (into a scratch directory here), gathered into one NAME.onnx.data beside the model.
    scratch = tempfile.mkdtemp(prefix="export-diffusion-", dir=os.path.dirname(path))
    try:
        staged = os.path.join(scratch, os.path.basename(path))
        torch.onnx.export(model, example, staged, input_names=names, output_names=outputs,
                          dynamic_axes=dynamic_axes, opset_version=17, dynamo=False)
        proto = onnx.load(staged)
        onnx.save_model(proto, path, save_as_external_data=True, all_tensors_to_one_file=True,
                        location=os.path.basename(path) + ".data", size_threshold=1024)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def export_pte(model, example, path):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    program = torch.export.export(model, example)
    edge = to_edge_transform_and_lower(program, partitioner=[XnnpackPartitioner()])
    with open(path, "wb") as f:
        f.write(edge.to_executorch().buffer)


def reference_run(text, unet, vae, tokens, latents, steps, guidance):
    """The pipeline in PyTorch with diffusers' own DDIMScheduler: what the tool must reproduce."""
    from diffusers import DDIMScheduler

    scheduler = DDIMScheduler(**SCHEDULER)
    scheduler.set_timesteps(steps)
    with torch.no_grad():
        embeddings = text(torch.from_numpy(tokens))
        x = torch.from_numpy(latents) * scheduler.init_noise_sigma
        batch = x.shape[0]
        embeddings = torch.cat([embeddings[0:1].expand(batch, -1, -1),
                                embeddings[1:2].expand(batch, -1, -1)])
        for t in scheduler.timesteps:
            model_input = scheduler.scale_model_input(torch.cat([x, x]), t)
            noise = unet(model_input, torch.tensor([float(t)]), embeddings)
            uncond, cond = noise.chunk(2)
            noise = uncond + guidance * (cond - uncond)
            x = scheduler.step(noise, t, x).prev_sample
        image = vae(x)
    return x.numpy(), image.numpy(), [int(t) for t in scheduler.timesteps]


def scheduler_reference(out):
    """Fixed inputs through diffusers' DDIMScheduler.step: the tool's scheduler test data."""
    from diffusers import DDIMScheduler

    os.makedirs(out, exist_ok=True)
    scheduler = DDIMScheduler(**SCHEDULER)
    steps = 5
    scheduler.set_timesteps(steps)
    sample = torch.from_numpy(seeded_latents(1, (1, 4, 4, 4)))
    noise = torch.from_numpy(seeded_latents(2, (1, 4, 4, 4)))
    np.save(os.path.join(out, "ddim_alphas_cumprod.npy"), scheduler.alphas_cumprod.numpy())
    np.save(os.path.join(out, "ddim_timesteps.npy"), scheduler.timesteps.numpy().astype(np.int64))
    np.save(os.path.join(out, "ddim_sample.npy"), sample.numpy())
    np.save(os.path.join(out, "ddim_model_output.npy"), noise.numpy())
    x = sample
    samples = []
    for t in scheduler.timesteps:
        x = scheduler.step(noise, t, x).prev_sample
        samples.append(x.numpy())
    np.save(os.path.join(out, "ddim_steps.npy"), np.stack(samples))
    print(out)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("preset", choices=sorted(PRESETS) + ["scheduler-reference"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="output directory (default: "
                        "$EDGEBENCH_CACHE/models/diffusion/PRESET-sSEED)")
    parser.add_argument("--formats", default="onnx,pte", help="comma-separated subset of onnx,pte")
    args = parser.parse_args()
    cache = os.environ.get("EDGEBENCH_CACHE", os.path.expanduser("~/.cache/edgebench"))
    if args.preset == "scheduler-reference":
        return scheduler_reference(args.out or os.path.join(cache, "models", "diffusion", "ddim"))
    formats = set(args.formats.split(","))
    preset = PRESETS[args.preset]
    out = args.out or os.path.join(cache, "models", "diffusion", f"{args.preset}-s{args.seed}")
    os.makedirs(out, exist_ok=True)
    # The exporters' warnings (a hundred tracer warnings per network) go to a log, not the
    # terminal: one line per artifact is what a user reads.
    log_path = os.path.join(out, "export.log")
    log = open(log_path, "w")

    def to_log(message, category, filename, lineno, file=None, line=None):
        log.write(warnings.formatwarning(message, category, filename, lineno, line))
        log.flush()

    warnings.showwarning = to_log
    print(f"export-diffusion: {args.preset}: the exporters' warnings go to {log_path}", file=sys.stderr)

    started = time.monotonic()
    text, unet, vae = build(args.preset, args.seed)
    print(f"export-diffusion: built {args.preset} (seed {args.seed}) in "
          f"{time.monotonic() - started:.1f} s", file=sys.stderr)
    image = preset["image"]
    factor = 2 ** (len(preset["vae"]["block_out_channels"]) - 1)
    latent = image // factor
    channels = preset["unet"]["in_channels"]
    hidden = preset["text"]["hidden_size"]
    tokens = torch.from_numpy(seeded_tokens(args.seed))
    sample = torch.zeros(2, channels, latent, latent)
    timestep = torch.tensor([981.0])
    embeddings = torch.zeros(2, TEXT_LENGTH, hidden)
    latents = torch.zeros(1, channels, latent, latent)
    networks = {
        "text_encoder": dict(model=text, example=(tokens,), names=["input_ids"],
                             outputs=["last_hidden_state"], dynamic={"input_ids": {0: "batch"}},
                             inputs=[("input_ids", "int64", [2, TEXT_LENGTH])]),
        "unet": dict(model=unet, example=(sample, timestep, embeddings),
                     names=["sample", "timestep", "encoder_hidden_states"], outputs=["noise_pred"],
                     dynamic={"sample": {0: "batch", 2: "height", 3: "width"},
                              "encoder_hidden_states": {0: "batch"},
                              "noise_pred": {0: "batch", 2: "height", 3: "width"}},
                     inputs=[("sample", "float32", list(sample.shape)),
                             ("timestep", "float32", [1]),
                             ("encoder_hidden_states", "float32", list(embeddings.shape))]),
        "vae_decoder": dict(model=vae, example=(latents,), names=["latents"], outputs=["image"],
                            dynamic={"latents": {0: "batch", 2: "height", 3: "width"},
                                     "image": {0: "batch", 2: "image_height", 3: "image_width"}},
                            inputs=[("latents", "float32", list(latents.shape))]),
    }
    note = ("random weights (seed %d): latency only; the images are noise" % args.seed)
    for name, net in networks.items():
        model = net["model"]
        count = parameters(model)
        manifest = {
            "name": name,
            "description": f"Stable Diffusion 1.5's {name} ({args.preset} preset, {count / 1e6:.1f} M "
                           f"parameters), {note}",
            "preset": args.preset, "seed": args.seed, "parameters": count,
            "weights_sha256": weights_sha256(model), "torch": torch.__version__,
            "inputs": [{"name": n, "dtype": d, "shape": s} for n, d, s in net["inputs"]],
            "artifacts": [], "not_exported": [],
        }
        large = count * 4 > 1_900_000_000

        def step(label, path, fn, **details):
            begun = time.monotonic()
            try:
                fn()
            except Exception as e:  # an exporter's failure is recorded; the others go on
                manifest["not_exported"].append({"path": os.path.basename(path), **details,
                                                 "error": f"{type(e).__name__}: {e}".strip()[:2000]})
                print(f"export-diffusion: {label} failed: {type(e).__name__}: {e}", file=sys.stderr)
                traceback.print_exc(file=sys.stderr)
                return
            entry = {"path": os.path.basename(path), **details, "sha256": file_sha256(path),
                     "bytes": os.path.getsize(path)}
            if os.path.exists(path + ".data"):
                entry["external_data_bytes"] = os.path.getsize(path + ".data")
            manifest["artifacts"].append(entry)
            print(f"export-diffusion: {label}: {path} ({time.monotonic() - begun:.1f} s)",
                  file=sys.stderr)

        if "onnx" in formats:
            path = os.path.join(out, f"{name}.onnx")
            step(f"{name} onnx", path,
                 lambda p=path: export_onnx(model, net["example"], net["names"], net["outputs"],
                                            net["dynamic"], p, large),
                 format="onnx", dtype="float32")
        if "pte" in formats:
            path = os.path.join(out, f"{name}.xnnpack.pte")
            step(f"{name} pte", path, lambda p=path: export_pte(model, net["example"], p),
                 format="pte", dtype="float32", delegate="XnnpackBackend",
                 target="executorch:xnnpack",
                 shapes="static: " + ", ".join(f"{n} {s}" for n, _, s in net["inputs"]))
        with open(os.path.join(out, f"{name}.json"), "w") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")

    reference = {}
    if args.preset == "tiny":
        ref = os.path.join(out, "reference")
        os.makedirs(ref, exist_ok=True)
        initial = seeded_latents(args.seed, (1, channels, latent, latent))
        final, decoded, timesteps = reference_run(text, unet, vae, seeded_tokens(args.seed), initial,
                                                  preset["steps"], GUIDANCE)
        for file, value in [("tokens.npy", seeded_tokens(args.seed)), ("initial_latents.npy", initial),
                            ("final_latents.npy", final), ("image.npy", decoded)]:
            np.save(os.path.join(ref, file), value)
        reference = {"steps": preset["steps"], "guidance_scale": GUIDANCE, "timesteps": timesteps,
                     "files": "reference/: tokens.npy, initial_latents.npy, final_latents.npy, "
                              "image.npy (PyTorch, diffusers' DDIMScheduler)"}
    with open(os.path.join(out, "diffusion.yaml"), "w") as f:
        f.write(pipeline_file(args, preset, latent, factor, reference))
    print(out)
    return 0


def pipeline_file(args, preset, latent, factor, reference):
    # One target per stage here; `--target T1,T2` runs the whole pipeline on each in turn and
    # `--stage unet=T` moves one stage (docs/diffusion.md).
    targets = "[ort:cpu]"
    lines = [
        f"# Stable Diffusion 1.5's architecture, {args.preset} preset, made by",
        f"# scripts/models/export-diffusion {args.preset} --seed {args.seed}:",
        "# random weights, latency only: the images are noise. docs/diffusion.md explains it.",
        "name: " + ("sd15" if args.preset == "sd15" else f"sd15-{args.preset}"),
        "diffusion:",
        f"  image: {preset['image']}x{preset['image']}",
        f"  steps: {preset['steps']}",
        f"  guidance_scale: {GUIDANCE}",
        "  scheduler: ddim",
        f"  seed: {args.seed}",
        f"  vae_scale_factor: {factor}",
        f"  latent_channels: {preset['unet']['in_channels']}",
        f"  prompt_tokens: {PROMPT_TOKENS}",
        "stages:",
        f"  - {{name: text_encoder, kind: text_encoder, model: text_encoder.json, targets: {targets}}}",
        f"  - {{name: unet, kind: unet, model: unet.json, targets: {targets}}}",
        "  - {name: guidance, kind: guidance}",
        "  - {name: scheduler, kind: ddim}",
        f"  - {{name: vae_decoder, kind: vae_decoder, model: vae_decoder.json, targets: {targets}}}",
    ]
    if reference:
        lines.insert(3, f"# reference: {json.dumps(reference)}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
