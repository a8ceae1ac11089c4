#!/usr/bin/env python3
"""Writes a llama.cpp multimodal projector GGUF ("mmproj") with random weights (latency only).

The file is what llama.cpp's converter writes for LLaVA-1.5 (convert_image_encoder_to_gguf.py with
--llava-projector, projector type "mlp"): a CLIP ViT vision tower plus LLaVA's two-layer MLP
projector, with the same keys, tensor names, shapes and types, so libmtmd 0.7 (mtmd_init_from_file)
loads it and runs the real CLIP graph (clip_graph_llava). Weights are N(0, 1) * 0.02 (layer-norm
weights 1.0, layer-norm biases 0.0), float16 by default, drawn from a generator seeded per tensor
like make_gguf.py, so a given --seed always gives the same file. The embeddings it produces are
garbage. Nothing is downloaded; neither torch nor transformers is needed.

Pair it with a text model from make_gguf.py whose hidden size equals the projector's output width:
libmtmd refuses a pair that differs ("mismatch between text model (n_embd = ..) and mmproj").

Presets (--list-presets prints them with parameter counts and f16 sizes):
  vlm-tiny           for tests, pairs with make_gguf.py's llama-tiny (hidden 128): 56x56 image,
                     patch 14 (16 image tokens), hidden 64, 2 blocks, 4 heads, ffn 128, projector
                     64 -> 128 -> 128: 0.13 M params, 0.3 MB
  llava-1.5-vitl336  LLaVA-1.5's vision tower, CLIP ViT-L/14 at 336 px: hidden 1024, 23 of the 24
                     blocks, 16 heads, ffn 4096, 576 image tokens, projector 1024 -> T -> T where T
                     is the text model's hidden (--text-preset / --text-hidden; default 4096, as
                     LLaVA-1.5-7B): ~0.3 B params, ~0.6 GB in f16. Pairings used by scripts/llm-model:
                     llava-phi3-mini (phi3-mini, T 3072: xtuner's llava-phi-3-mini shape) and
                     llava-vitl-100m (llama-100m, T 768: the real tower without a 3.8 B text model)

What libmtmd 0.7's clip loader wants (tools/mtmd/clip.cpp, load_hparams / load_tensors):
  general.architecture "clip"; clip.has_vision_encoder true (else "no vision encoder");
  clip.projector_type "mlp"; the required u32 keys clip.vision.{embedding_length,
  attention.head_count, feed_forward_length, block_count, projection_dim, image_size, patch_size},
  the f32 clip.vision.attention.layer_norm_epsilon and the float arrays clip.vision.image_mean /
  image_std (it asserts both exist). clip.use_gelu false selects quick-GELU in the tower, as CLIP's
  "quick_gelu" (the projector always uses GELU). clip.has_text_encoder false and
  clip.has_llava_projector true are what the converter writes; the loader ignores them.
  projection_dim is CLIP's own visual projection (768 for ViT-L); the mlp projector does not use it.
Tensors (numpy shapes; GGUF stores them reversed), f16 for 2-D and 4-D weights, f32 otherwise:
  v.patch_embd.weight (hidden, 3, patch, patch), no bias (CLIP's patch conv has none);
  v.class_embd (hidden); v.position_embd.weight (patches + 1, hidden); v.pre_ln.{weight,bias};
  v.blk.N.{attn_q,attn_k,attn_v,attn_out}.{weight (hidden, hidden), bias};
  v.blk.N.{ln1,ln2}.{weight,bias}; v.blk.N.ffn_up (ffn, hidden) = CLIP's fc1, v.blk.N.ffn_down
  (hidden, ffn) = fc2, each with a bias; mm.0 (T, hidden) and mm.2 (T, T), with biases.
  No v.post_ln: LLaVA uses a hidden state before the last block, so the converter drops the last
  block and the post layer norm. The legacy converter named fc1 "ffn_down" and fc2 "ffn_up";
  libmtmd detects that from the shapes and swaps them back ("ffn up/down are swapped"), so the
  correct names written here load without the warning and compute the same graph.
Blocks run: for the mlp projector clip_graph_llava stops one block before block_count when no
clip.vision.feature_layer is given (it takes the "second to last layer" of the blocks in the file),
so a converted LLaVA-1.5 file (23 blocks) runs 22 ViT-L blocks in libmtmd 0.7, and vlm-tiny runs
1 of its 2. Written the same way here, so the latency matches a converted checkpoint's.

Usage:
  make_mmproj.py --preset vlm-tiny --out vlm-tiny-mmproj-f16.gguf [--type f16|f32] [--seed N]
  make_mmproj.py --preset llava-1.5-vitl336 --text-preset phi3-mini --out llava-phi3-mini-mmproj-f16.gguf
  make_mmproj.py --list-presets
--type f32 writes every tensor in f32. There is nothing to quantize: scripts/llm-model always
writes the projector in f16 unless f32 is asked, whatever type the text model is quantized to.
Memory: tensor infos first, then the data tensor by tensor, as make_gguf.py does; the ViT-L/14-336
files (585 MB with T 768, 608 MB with T 3072) take ~7 s on 2 cores, vlm-tiny (268 KB) well under 1 s.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

import gguf

from make_gguf import PRESETS as TEXT_PRESETS, make_tensor

DESCRIPTION = "random weights: latency only"

# CLIP's (OpenAI) image normalisation, used by LLaVA-1.5.
CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073]
CLIP_STD = [0.26862954, 0.26130258, 0.27577711]

PRESETS = {
    "vlm-tiny": dict(image=56, patch=14, hidden=64, blocks=2, heads=4, ffn=128, proj_dim=64,
                     eps=1e-5, text_hidden=TEXT_PRESETS["llama-tiny"]["hidden"]),
    # CLIP ViT-L/14-336 (openai/clip-vit-large-patch14-336): 24 blocks, the last one dropped.
    "llava-1.5-vitl336": dict(image=336, patch=14, hidden=1024, blocks=23, heads=16, ffn=4096,
                              proj_dim=768, eps=1e-5, text_hidden=4096),
}


def tensor_specs(cfg, text_hidden):
    """Yields (name, numpy shape, kind); kind "w" (random), "norm" (ones) or "zero"."""
    d, f, t, p = cfg["hidden"], cfg["ffn"], text_hidden, cfg["patch"]
    n_pos = (cfg["image"] // p) ** 2 + 1  # patches + the class embedding
    yield "mm.0.weight", (t, d), "w"
    yield "mm.0.bias", (t,), "w"
    yield "mm.2.weight", (t, t), "w"
    yield "mm.2.bias", (t,), "w"
    yield "v.class_embd", (d,), "w"
    yield "v.patch_embd.weight", (d, 3, p, p), "w"
    yield "v.position_embd.weight", (n_pos, d), "w"
    yield "v.pre_ln.weight", (d,), "norm"
    yield "v.pre_ln.bias", (d,), "zero"
    for i in range(cfg["blocks"]):
        b = f"v.blk.{i}."
        for name in ("attn_k", "attn_v", "attn_q", "attn_out"):
            yield b + name + ".weight", (d, d), "w"
            yield b + name + ".bias", (d,), "w"
        yield b + "ln1.weight", (d,), "norm"
        yield b + "ln1.bias", (d,), "zero"
        yield b + "ffn_up.weight", (f, d), "w"
        yield b + "ffn_up.bias", (f,), "w"
        yield b + "ffn_down.weight", (d, f), "w"
        yield b + "ffn_down.bias", (d,), "w"
        yield b + "ln2.weight", (d,), "norm"
        yield b + "ln2.bias", (d,), "zero"


def n_params(cfg, text_hidden):
    return sum(int(np.prod(s)) for _, s, _ in tensor_specs(cfg, text_hidden))


def tensor_dtype(shape, dtype):
    """Like the converter: 2-D and 4-D weights in the file type, vectors always f32."""
    return dtype if len(shape) >= 2 else np.float32


def write_metadata(w, cfg, preset, ftype):
    w.add_type(gguf.GGUFType.MMPROJ)
    w.add_name(f"edgebench {preset} mmproj (random weights)")
    w.add_description(DESCRIPTION)
    w.add_file_type(ftype)
    w.add_bool("clip.has_text_encoder", False)  # no gguf-py constant; the converter writes it
    w.add_clip_has_vision_encoder(True)
    w.add_bool(gguf.Keys.Clip.HAS_LLAVA_PROJECTOR, True)
    w.add_clip_projector_type("mlp")
    w.add_vision_image_size(cfg["image"])
    w.add_vision_patch_size(cfg["patch"])
    w.add_vision_embedding_length(cfg["hidden"])
    w.add_vision_feed_forward_length(cfg["ffn"])
    w.add_vision_projection_dim(cfg["proj_dim"])
    w.add_vision_head_count(cfg["heads"])
    w.add_vision_attention_layernorm_eps(cfg["eps"])
    w.add_vision_block_count(cfg["blocks"])
    w.add_vision_image_mean(CLIP_MEAN)
    w.add_vision_image_std(CLIP_STD)
    w.add_vision_use_gelu(False)  # CLIP ViT-L's hidden_act is quick_gelu


def write_mmproj(preset, out, dtype_name="f16", seed=0, text_hidden=None, quiet=False):
    cfg = PRESETS[preset]
    text_hidden = text_hidden or cfg["text_hidden"]
    dtype = np.float16 if dtype_name == "f16" else np.float32
    ftype = gguf.LlamaFileType.MOSTLY_F16 if dtype_name == "f16" else gguf.LlamaFileType.ALL_F32
    specs = list(tensor_specs(cfg, text_hidden))
    t0 = time.time()
    w = gguf.GGUFWriter(str(out), "clip")
    write_metadata(w, cfg, preset, ftype)
    for name, shape, kind in specs:
        dt = np.dtype(tensor_dtype(shape, dtype))
        w.add_tensor_info(name, shape, dt, int(np.prod(shape)) * dt.itemsize)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    for index, (name, shape, kind) in enumerate(specs):  # one tensor in memory at a time
        dt = tensor_dtype(shape, dtype)
        if kind == "zero":
            data = np.zeros(shape, dt)
        else:
            data = make_tensor(shape, kind, dt, seed, index)
        w.write_tensor_data(data)
    w.close()
    size = Path(out).stat().st_size
    if not quiet:
        n = n_params(cfg, text_hidden)
        print(f"wrote {out}: {preset} mmproj (clip, projector mlp {cfg['hidden']} -> {text_hidden} -> "
              f"{text_hidden}), {n / 1e6:.2f} M parameters, {dtype_name}, {size / 1e6:.1f} MB, "
              f"{time.time() - t0:.1f} s")
    return size


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[1:]))
    p.add_argument("--preset", choices=sorted(PRESETS))
    p.add_argument("--out", type=Path)
    p.add_argument("--type", choices=["f16", "f32"], default="f16")
    p.add_argument("--seed", type=int, default=0)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--text-preset", choices=sorted(TEXT_PRESETS),
                   help="make_gguf.py preset of the paired text model (projector width = its hidden)")
    g.add_argument("--text-hidden", type=int, help="projector output width (the text model's hidden)")
    p.add_argument("--list-presets", action="store_true", help="print the presets and exit")
    a = p.parse_args()
    if a.list_presets:
        for name, cfg in PRESETS.items():
            t = cfg["text_hidden"]
            n = n_params(cfg, t)
            tokens = (cfg["image"] // cfg["patch"]) ** 2
            print(f"{name:18s} image={cfg['image']} patch={cfg['patch']} tokens={tokens} "
                  f"hidden={cfg['hidden']} blocks={cfg['blocks']} heads={cfg['heads']} ffn={cfg['ffn']} "
                  f"projector {cfg['hidden']}->{t}->{t} (default)  {n / 1e6:.2f} M params, "
                  f"~{n * 2 / 1e6:.1f} MB f16")
        return
    if not (a.preset and a.out):
        p.error("--preset and --out are required (or --list-presets)")
    text_hidden = TEXT_PRESETS[a.text_preset]["hidden"] if a.text_preset else a.text_hidden
    if text_hidden is not None and text_hidden <= 0:
        p.error("--text-hidden must be positive")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    write_mmproj(a.preset, a.out, a.type, a.seed, text_hidden)


if __name__ == "__main__":
    sys.exit(main())
