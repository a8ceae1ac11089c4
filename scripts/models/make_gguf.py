#!/usr/bin/env python3
"""Writes a GGUF language model with random weights (latency-faithful, accuracy-meaningless).

The file has a real llama.cpp architecture ("llama" or "phi3"): the same tensors, shapes, types
and metadata a converted checkpoint has, so llama.cpp (libllama 0.7: llama-bench, llama-completion,
llama-quantize) loads it and runs the real compute graph. Weights are N(0, 1) * 0.02 (norm weights
1.0), float16 by default (1-D norm weights stay float32, like convert_hf_to_gguf.py writes them),
drawn from a generator seeded per tensor, so a given --seed always gives the same file. Generated
text is garbage. No model is downloaded and neither torch nor transformers is needed.

The tokenizer is a synthetic SentencePiece vocabulary ("llama" tokenizer model) built here:
<unk>, <s>, </s>, the 256 byte-fallback tokens <0x00>..<0xFF> (type BYTE), then '▁'-prefixed and
bare pieces of common English words (prefix-closed, so llama.cpp's SPM merges reach them), then
filler pieces up to the vocab size; scores fall with the rank. Phi-3 presets copy Phi-3's layout:
SentencePiece pieces up to n_vocab - 64 (32000), then <|endoftext|> <|assistant|> <|placeholder1..4|>
<|system|> <|end|> <|placeholder5|> <|placeholder6|> <|user|> as CONTROL tokens, then [PAD<id>] UNUSED
tokens up to n_vocab (32064), and Phi-3's chat template. general.name contains the preset name
("phi3-..."), which makes llama.cpp give the special tokens Phi-3's rstrip attribute, as for the
real model; the real sliding_window 2047 is written and llama.cpp ignores it ("Phi SWA is disabled").

Why the byte tokens matter (the Phi-3 "error loading model vocabulary: unordered_map::at"): for a
"llama" (SPM) vocabulary llama.cpp finds the newline token with byte_to_token('\\n'), which is
token_to_id.at("<0x0A>") falling back to token_to_id.at("\\n"); the SPM tokenizer uses the same
lookup for every character that has no piece. convert_hf_to_gguf.py's Phi-3 vocab comes from the
model's tokenizer.model, and a home-made one for a randomly initialised HF model (SentencePiece
trained without byte_fallback, rest of the 32064 rows filled with "[PAD<id>]" UNUSED) has neither
"<0x0A>" nor "\\n". Older llama.cpp did that lookup uncaught while loading the vocabulary, hence
"error loading model vocabulary: unordered_map::at"; libllama 0.7 catches it at load ("SPM
vocabulary, but newline token not found: unordered_map::at!") but then aborts with
std::out_of_range unordered_map::at when it tokenizes a prompt containing a newline (which Phi-3's
chat template always adds) or any character that has no piece. Fix: always write the 256 byte tokens
<0x00>..<0xFF> with token type BYTE (ids 3..258, like Llama/Phi-3), plus explicit bos/eos/unk ids.

Presets (--list-presets prints them with parameter counts and f16 sizes):
  llama-tiny  llama, hidden 128, 2 layers, 4 heads (2 KV), ffn 384, vocab 2048: ~0.9 M params, for tests
  phi3-tiny   phi3, hidden 128, 2 layers, 4 heads, ffn 384, vocab 2112: ~1 M params, for tests
  llama-100m  llama, hidden 768, 12 layers, 12 heads (4 KV), ffn 2048, vocab 32000: ~125 M params
  phi3-mini   Phi-3-mini-4k-instruct's shape: hidden 3072, 32 layers, 32 heads (32 KV), ffn 8192,
              vocab 32064, context 4096, rope theta 10000, rms eps 1e-5: 3.82 B params, 7.6 GB in f16

Usage:
  make_gguf.py --arch llama --preset llama-100m --out llama-100m-f16.gguf [--type f16|f32] [--seed N]
  make_gguf.py --list-presets
Quantize afterwards with llama.cpp's tool, e.g.
  llama-quantize llama-100m-f16.gguf llama-100m-q8_0.gguf Q8_0
  llama-quantize phi3-mini-f16.gguf phi3-mini-q4_0.gguf Q4_0

Memory: tensor infos are written first, then the data tensor by tensor (GGUFWriter.add_tensor_info,
write_tensor_data), so only one tensor is held at a time: phi3-mini f16 (7.6 GB) peaked at 344 MB
RSS and took 65 s on 2 cores; llama-100m took 2 s. llama-quantize to Q4_0 / Q8_0 took 19 s / 26 s.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

import gguf

DESCRIPTION = "random weights: latency only"

PRESETS = {
    "llama-tiny": dict(arch="llama", hidden=128, layers=2, heads=4, kv_heads=2, ffn=384,
                       vocab=2048, context=2048, rope_theta=10000.0, rms_eps=1e-5),
    "phi3-tiny": dict(arch="phi3", hidden=128, layers=2, heads=4, kv_heads=4, ffn=384,
                      vocab=2112, context=4096, rope_theta=10000.0, rms_eps=1e-5, sliding_window=2047),
    "llama-100m": dict(arch="llama", hidden=768, layers=12, heads=12, kv_heads=4, ffn=2048,
                       vocab=32000, context=2048, rope_theta=10000.0, rms_eps=1e-5),
    "phi3-mini": dict(arch="phi3", hidden=3072, layers=32, heads=32, kv_heads=32, ffn=8192,
                      vocab=32064, context=4096, rope_theta=10000.0, rms_eps=1e-5, sliding_window=2047),
}

# Phi-3's added tokens, in order from id n_vocab - 64 (32000 in Phi-3-mini); all "special".
PHI3_SPECIAL = ["<|endoftext|>", "<|assistant|>", "<|placeholder1|>", "<|placeholder2|>",
                "<|placeholder3|>", "<|placeholder4|>", "<|system|>", "<|end|>", "<|placeholder5|>",
                "<|placeholder6|>", "<|user|>"]
PHI3_PAD = 64  # Phi-3 pads its 32000-piece SentencePiece vocabulary to 32064 rows
PHI3_CHAT_TEMPLATE = (
    "{% for message in messages %}{{'<|' + message['role'] + '|>' + '\n' + message['content'] + "
    "'<|end|>\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% else %}"
    "{{ eos_token }}{% endif %}")

# Common English words and fragments; each enters the vocabulary with all its prefixes, both with
# the word-start marker '▁' and bare, so SentencePiece-style bigram merging can build it.
WORDS = """
the of and to in is was for that on as with by at from his her it he she they we you are be this
an not or have had has but which one all were their there been when who will more no if out so
said what up its about into than them can only other new some could time these two may then do
first any my now such like our over man me even most made after also did many before must through
back years where much your way well down should because each just those people how too little
state good very make world still own see men work long get here between both life being under never
day same another know while last might us great old year off come since against go came right used
take three hello hi test benchmark model token latency edge device run speed fast slow small large
number system data program question answer language text word sentence read write code compute memory
ing ed er est ly tion ation ment ness able ible ful less ous ive ize ise al ial ic ical ity er or
ist ism ance ence ant ent ary ery ory un re pre dis mis non over under sub super inter trans anti
a b c d e f g h i j k l m n o p q r s t u v w x y z
""".split()
CHARS = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
             ".,;:!?'\"()[]{}<>-_+=*/\\|@#$%^&~`")
LETTERS = "etaoinshrdlcumwfgypbvkjxqz"  # by English frequency


def build_vocab(cfg):
    """Returns (tokens, scores, token_types, special ids) of a synthetic SentencePiece vocabulary."""
    n_vocab = cfg["vocab"]
    n_spm = n_vocab - PHI3_PAD if cfg["arch"] == "phi3" else n_vocab
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL] \
        + [gguf.TokenType.BYTE] * 256
    scores = [0.0] * len(tokens)
    seen = set(tokens)
    pieces = []

    def add(piece):
        if piece not in seen:
            seen.add(piece)
            pieces.append(piece)

    add("▁")
    for c in CHARS:
        add(c)
    for w in WORDS:
        for form in ("▁" + w, w):
            for k in range(2 if form[0] == "▁" else 1, len(form) + 1):
                add(form[:k])
    for a in LETTERS:  # filler: all 2- and 3-letter pieces, with and without '▁' (prefix-closed)
        for b in LETTERS:
            add("▁" + a + b)
            add(a + b)
    for a in LETTERS:
        for b in LETTERS:
            for c in LETTERS:
                add("▁" + a + b + c)
                add(a + b + c)
    need = n_spm - len(tokens)
    if need > len(pieces):
        raise SystemExit(f"vocab {n_vocab} is larger than the {len(tokens) + len(pieces)} pieces available")
    if need < 0:
        raise SystemExit(f"vocab {n_vocab} is too small: at least {len(tokens)} tokens are needed")
    for rank, piece in enumerate(pieces[:need]):
        tokens.append(piece)
        scores.append(-float(rank))
        types.append(gguf.TokenType.NORMAL)
    ids = dict(bos=1, eos=2, unk=0, pad=None, eot=None)
    if cfg["arch"] == "phi3":
        base = len(tokens)
        for t in PHI3_SPECIAL:
            tokens.append(t)
            scores.append(0.0)
            types.append(gguf.TokenType.CONTROL)
        while len(tokens) < n_vocab:
            tokens.append(f"[PAD{len(tokens)}]")
            scores.append(-1000.0)
            types.append(gguf.TokenType.UNUSED)
        ids.update(eos=base + PHI3_SPECIAL.index("<|endoftext|>"),
                   pad=base + PHI3_SPECIAL.index("<|endoftext|>"),
                   eot=base + PHI3_SPECIAL.index("<|end|>"))
    assert len(tokens) == n_vocab and len(set(tokens)) == n_vocab
    return tokens, scores, types, ids


def tensor_specs(cfg):
    """Yields (name, numpy shape, kind) in the order convert_hf_to_gguf.py writes them.

    Shapes are numpy/PyTorch order (out_features, in_features); GGUF stores them reversed.
    """
    d, f, v = cfg["hidden"], cfg["ffn"], cfg["vocab"]
    head_dim = d // cfg["heads"]
    d_kv = head_dim * cfg["kv_heads"]
    yield "token_embd.weight", (v, d), "w"
    for i in range(cfg["layers"]):
        b = f"blk.{i}."
        yield b + "attn_norm.weight", (d,), "norm"
        if cfg["arch"] == "phi3":  # fused QKV and fused gate+up, as Phi-3 ships them
            yield b + "attn_qkv.weight", (d + 2 * d_kv, d), "w"
            yield b + "attn_output.weight", (d, d), "w"
            yield b + "ffn_norm.weight", (d,), "norm"
            yield b + "ffn_up.weight", (2 * f, d), "w"
            yield b + "ffn_down.weight", (d, f), "w"
        else:
            yield b + "attn_q.weight", (d, d), "w"
            yield b + "attn_k.weight", (d_kv, d), "w"
            yield b + "attn_v.weight", (d_kv, d), "w"
            yield b + "attn_output.weight", (d, d), "w"
            yield b + "ffn_norm.weight", (d,), "norm"
            yield b + "ffn_gate.weight", (f, d), "w"
            yield b + "ffn_up.weight", (f, d), "w"
            yield b + "ffn_down.weight", (d, f), "w"
    yield "output_norm.weight", (d,), "norm"
    yield "output.weight", (v, d), "w"


def n_params(cfg):
    return sum(int(np.prod(s)) for _, s, _ in tensor_specs(cfg))


def make_tensor(shape, kind, dtype, seed, index, chunk=1 << 24):
    """N(0,1)*0.02 (or ones for norms), generated in float32 chunks straight into the output dtype."""
    if kind == "norm":
        return np.ones(shape, np.float32)
    out = np.empty(int(np.prod(shape)), dtype)
    rng = np.random.default_rng([seed, index])
    for start in range(0, out.size, chunk):
        a = rng.standard_normal(min(chunk, out.size - start), dtype=np.float32)
        a *= 0.02
        out[start:start + a.size] = a
    return out.reshape(shape)


def write_metadata(w, cfg, preset, ftype):
    arch = cfg["arch"]
    d, heads = cfg["hidden"], cfg["heads"]
    w.add_type("model")
    w.add_name(f"edgebench {preset} (random weights)")
    w.add_description(DESCRIPTION)
    w.add_size_label(f"{n_params(cfg) / 1e9:.1f}B" if n_params(cfg) >= 1e9 else f"{n_params(cfg) / 1e6:.0f}M")
    w.add_context_length(cfg["context"])
    w.add_embedding_length(d)
    w.add_block_count(cfg["layers"])
    w.add_feed_forward_length(cfg["ffn"])
    w.add_head_count(heads)
    w.add_head_count_kv(cfg["kv_heads"])
    w.add_layer_norm_rms_eps(cfg["rms_eps"])
    w.add_rope_dimension_count(d // heads)
    w.add_rope_freq_base(cfg["rope_theta"])
    if arch == "phi3":
        w.add_rope_scaling_orig_ctx_len(cfg["context"])
        w.add_sliding_window(cfg.get("sliding_window", 0))  # llama.cpp disables Phi-3 SWA anyway
    else:
        w.add_vocab_size(cfg["vocab"])
    w.add_file_type(ftype)

    tokens, scores, types, ids = build_vocab(cfg)
    w.add_tokenizer_model("llama")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(ids["bos"])
    w.add_eos_token_id(ids["eos"])
    w.add_unk_token_id(ids["unk"])
    if ids["pad"] is not None:
        w.add_pad_token_id(ids["pad"])
    if ids["eot"] is not None:
        w.add_eot_token_id(ids["eot"])
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)
    if arch == "phi3":
        w.add_chat_template(PHI3_CHAT_TEMPLATE)


def write_gguf(preset, out, dtype_name="f16", seed=0, quiet=False):
    cfg = PRESETS[preset]
    dtype = np.float16 if dtype_name == "f16" else np.float32
    ftype = gguf.LlamaFileType.MOSTLY_F16 if dtype_name == "f16" else gguf.LlamaFileType.ALL_F32
    specs = list(tensor_specs(cfg))
    t0 = time.time()
    w = gguf.GGUFWriter(str(out), cfg["arch"])
    write_metadata(w, cfg, preset, ftype)
    for name, shape, kind in specs:
        dt = np.float32 if kind == "norm" else dtype
        w.add_tensor_info(name, shape, np.dtype(dt), int(np.prod(shape)) * np.dtype(dt).itemsize)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    for index, (name, shape, kind) in enumerate(specs):  # one tensor in memory at a time
        w.write_tensor_data(make_tensor(shape, kind, dtype, seed, index))
        if not quiet and kind == "w" and int(np.prod(shape)) >= 1 << 22:
            print(f"  {name} {shape}", file=sys.stderr, flush=True)
    w.close()
    size = Path(out).stat().st_size
    if not quiet:
        print(f"wrote {out}: {preset} ({cfg['arch']}), {n_params(cfg) / 1e6:.1f} M parameters, "
              f"{dtype_name}, {size / 1e6:.1f} MB, {time.time() - t0:.1f} s")
    return size


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[1:]))
    p.add_argument("--arch", choices=["llama", "phi3"])
    p.add_argument("--preset", choices=sorted(PRESETS))
    p.add_argument("--out", type=Path)
    p.add_argument("--type", choices=["f16", "f32"], default="f16")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--list-presets", action="store_true", help="print the presets and exit")
    a = p.parse_args()
    if a.list_presets:
        for name, cfg in PRESETS.items():
            n = n_params(cfg)
            print(f"{name:12s} arch={cfg['arch']:6s} hidden={cfg['hidden']} layers={cfg['layers']} "
                  f"heads={cfg['heads']}/{cfg['kv_heads']} ffn={cfg['ffn']} vocab={cfg['vocab']} "
                  f"ctx={cfg['context']}  {n / 1e6:.1f} M params, ~{n * 2 / 1e6:.0f} MB f16")
        return
    if not (a.preset and a.out):
        p.error("--preset and --out are required (or --list-presets)")
    arch = PRESETS[a.preset]["arch"]
    if a.arch and a.arch != arch:
        p.error(f"preset {a.preset} is a {arch} model, not {a.arch}")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    write_gguf(a.preset, a.out, a.type, a.seed)


if __name__ == "__main__":
    main()
