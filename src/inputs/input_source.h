// Where a model's inputs come from: seeded values (the default), a fixed value, a seeded range,
// a .npy file, raw bytes or an image, per input; and a pool of N different samples to cycle
// through the queries (LoadGen's query sample library), so caches do not flatter the result.
//
// The user writes `--input NAME=SPEC` (repeatable), `--input-pool N` and `--seed S`. SPEC is one of
//   16000, -0.5, 1e-3, true   a number: every element is that value. It must fit the input's
//                             dtype (an integer input takes only whole numbers in its range; bool
//                             takes 0, 1, true, false; float16 takes |x| <= 65504).
//   range:LO:HI               seeded uniform values: integers in [LO, HI] (inclusive), floats in
//                             [LO, HI). Bounds must fit the dtype. Example: range:0:255.
//   FILE.npy or npy:FILE      a NumPy .npy file (inputs/npy_file.h). Its dtype must equal the
//                             input's; its shape fills the input's symbolic axes and must equal
//                             fixed ones.
//   raw:FILE                  raw bytes in the input's dtype, little-endian, C order; the file's
//                             size must equal the input's byte size.
//   image:FILE                an image (PNG, JPEG, BMP, PPM, ...) as a float32 [1,H,W,3] tensor,
//   image[PREPROCESS]:FILE    with preprocessing written as `agree --preprocess` takes it, e.g.
//                             image[resize=224x224,mean=0.485:0.456:0.406,layout=nchw]:cat.png
//                             (ParseImagePreprocess in inputs/image_input.h). The preprocessing
//                             cannot contain ']', and FILE is everything after "]:", so any path
//                             works.
// A FILE is everything after the prefix: paths may contain ':', ',' or '='. A bare word that is
// neither a number nor ends in ".npy" is an error (say npy:FILE for a .npy file named otherwise).
// NAME is everything before the first '='.
//
// Inputs no spec names get today's seeded values (GenerateInputs in inputs/input_generator.h).
//
// Pool: sample s (0 <= s < pool size) is one tensor per input. Seeded inputs use seed + s, so
// sample 0 is exactly GenerateInputs(seed): results stay comparable with runs before pools. A
// range uses a stream of its own per (seed + s, input). Giving `--input NAME=...` several times
// gives that input a list of sources, cycled over the samples (sample s takes source
// s % count); the pool then holds at least as many samples as the longest list, so every file
// given is used: its size is max(--input-pool, longest list). All files of one input must have
// the same shape (one pool, one shape).
//
// Sizes: every tensor's byte size, and the pool's, is computed with overflow checks and compared
// with the machine's memory before anything is allocated; too large is an error naming the input
// and its shape, never std::bad_alloc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "core/tensor.h"
#include "inputs/image_input.h"

namespace edgebench {

// Inputs as the user asked for them. Plain data: the orchestrator validates it and passes it to
// the worker (as JSON), which builds the pool once the session's signature is known.
struct InputOptions {
  std::vector<std::string> specs;  // each "NAME=SPEC", in the order given
  int64_t pool_size = 1;           // --input-pool; the effective size may be larger (see above)
  uint64_t seed = 0;               // --seed
};

// {"specs": [...], "pool_size": N, "seed": S}. The reader takes missing keys as their defaults
// (records written before inputs had options read as the seeded default) and refuses wrong types.
nlohmann::json InputOptionsToJson(const InputOptions& options);
Result<InputOptions> InputOptionsFromJson(const nlohmann::json& json);

// One parsed SPEC.
struct InputSource {
  enum class Kind { kFixed, kRange, kNpy, kRaw, kImage };
  // A number as written: `is_integer` when the text is a whole number without '.' or exponent
  // (then `integer` is exact); `real` always holds the value.
  struct Number {
    std::string text;
    bool is_integer = false;
    int64_t integer = 0;
    double real = 0;
  };
  Kind kind = Kind::kFixed;
  std::string text;         // the whole --input argument, for errors
  Number value;             // kFixed
  Number low, high;         // kRange
  std::string path;         // kNpy, kRaw, kImage
  ImagePreprocess preprocess;  // kImage
};

// Parses one `NAME=SPEC` (syntax only; no file is opened). An error quotes the --input and lists
// the accepted forms.
Result<std::pair<std::string, InputSource>> ParseInputSpec(const std::string& text);

// Orchestrator side, before anything runs: parses every spec and checks that each file can be
// opened (a .npy header is read, an image's size is probed). An error names the bad --input and
// says what is accepted. Also checks --input-pool >= 1.
Status ValidateInputOptions(const InputOptions& options);

// Worker side, once the session's signature is known: the sizes that file inputs impose on the
// input's axes, as "NAME.AXIS" -> size, and, for a named symbolic axis, also SYMBOL -> size, so
// other inputs sharing the symbol agree. Only symbolic axes are bound. The caller gives these
// precedence over --dim (OverrideShapeBindings) and resolves with ResolveInputShapes. Errors: a
// spec names no input of the signature (the error lists the signature's inputs), a file's rank
// differs from the input's, a file disagrees with a fixed dim, or two files disagree on an axis
// or a symbol.
Result<ShapeBindings> ShapeBindingsFromInputs(const Signature& signature,
                                              const InputOptions& options);

// `dims` (from --dim) with every binding in `from_inputs` put over it.
ShapeBindings OverrideShapeBindings(ShapeBindings dims, const ShapeBindings& from_inputs);

struct InputPool {
  // samples[s][i]: sample s's tensor for signature input i, in signature order.
  std::vector<std::vector<Tensor>> samples;
  // One per signature input, for the record, e.g. "seeded uniform [-1, 1) (seed 0)",
  // "fixed 16000", "range [0, 255] (seed 0)", "file a.npy [1x3x224x224 float32]",
  // "raw a.bin [1x16000 float32]", "image cat.png (resize 224x224, scale 0.00392157,
  // mean 0.485:0.456:0.406, std 0.229:0.224:0.225, nchw)"; an input with several sources:
  // "cycled over 2: file a.npy [..]; file b.npy [..]".
  std::vector<std::string> provenance;
};

// Builds the pool for resolved `shapes` (one per signature input). Errors name the input and say
// both sides: a value that does not fit the dtype, a file whose dtype or shape differs from the
// input's, a raw file of the wrong size, a pool too large for memory.
Result<InputPool> BuildInputPool(const Signature& signature,
                                 const std::vector<std::vector<int64_t>>& shapes,
                                 const InputOptions& options);

}  // namespace edgebench
