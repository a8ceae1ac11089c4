// A suite file: a declared plan of models x targets x scenarios x parameter lists, in YAML
// (read with yaml-cpp), for `edgebench suite FILE`. This file only reads and checks the plan's
// ingredients; expanding them into cases and running them is the runner's job.
//
//   name: readme-numbers            # optional; default: the file's stem
//   out: results/readme             # optional default store directory
//   settings:                       # optional; as `edgebench run`'s flags
//     warmup: 20                    #   warmup queries            (--warmup)
//     min_queries: 100              #   measured queries at least (--min-queries)
//     min_duration_ms: 1000         #   (--min-duration)
//     max_duration_ms: 60000        #   (--max-duration)
//     seed: 0                       #   input and prompt seed     (--seed)
//     max_cv: 0.3                   #   (--max-cv)
//     timeout_ms: 0                 #   (--timeout; 0: automatic)
//     sessions, concurrency, batch, streams, window_ms, confidence, p99_bound_ms: as run's flags
//     find_peak: false              #   server: search the peak rate (--find-peak)
//     profile: false                #   per-operator profile (--profile)
//     input_pool: 1                 #   (--input-pool)
//     strict_dims: false            #   (--strict-dims)
//   models:                         # required, at least one; each entry one of:
//     - ${EDGEBENCH_CACHE}/models/vit_tiny16.onnx      # a file (a .json one is a manifest)
//     - path: vit.onnx?layout=nchw                      # a file, optionally `name:`
//     - name: oww                                       # several artifacts of one model
//       artifacts: [a.onnx, "a.tflite?layout=nhwc"]
//     - manifest: models/blazeface.json                 # a manifest, optionally `name:`
//       dims: {batch: 1}                                # optional, as --dim, on any form
//       inputs: ["sr=16000"]                            # optional, as --input, on any form
//   targets:                        # required, at least one; each entry one of:
//     - ort:cpu                                         # a target, as --target
//     - target: llamacpp:cpu                            # a target with its own option lists
//       params: {fa: [on, off]}
//   params:                         # optional option lists applied to every target
//     threads: [1, 2]
//   scenarios: [single-stream, llm] # optional; default [single-stream]
//   llm:                            # optional, only with scenario llm; as `edgebench llm`
//     prompt: [128, 512]            #   prompt lengths in tokens (--prompt)
//     gen: [64]                     #   tokens generated per sequence (--gen)
//     repeat: 5                     #   measured requests (--repeat)
//     warmup: 1                     #   warmup requests (--warmup)
//     sequences: 1                  #   (--sequences)
//     prompt_text: ""               #   (--prompt-text)
//   accuracy:                       # optional, with scenario accuracy: `edgebench accuracy`'s flags
//     data: fashion-mnist           #   KEY: VALUE is --KEY VALUE (plan/suite_modes.h)
//     limit: 1000
//   agree: {reference: ort:cpu}     # optional, with scenario agree: `edgebench agree`'s flags
//   drift:                          # optional, with scenario drift: `edgebench drift`'s flags
//     reference: fp32
//     candidate: int8
//   mixes: [mixes/box.yaml]         # optional mix files (docs/mixes.md), run after the cases;
//                                   # with mixes, models and targets may both be left out
//   conformance:                    # optional: ONNX's node tests on the suite's targets, after
//     ops: "Conv*,Resize"           #   the cases and mixes, into the same store (docs/
//     cases: DIR                    #   conformance.md); `edgebench conformance`'s flags; with
//     timeout: 30000                #   conformance, models may be left out
//
// Option lists expand as llama-bench expands its lists: each target becomes one target per
// combination of its list values (the cartesian product, the first key varying slowest; keys of
// the suite's `params` before the target's own). An option is given once per target: in the
// target's text, in its `params` or in the suite's `params`, never in two of them.
//
// Paths (model files, manifests, `out`) are relative to the suite file's directory; `${VAR}` and
// a leading `~` are expanded. An unset variable is an error, except EDGEBENCH_CACHE, which
// defaults to $HOME/.cache/edgebench as in scripts/devroot.
//
// Every mistake is found before anything runs, reported as "FILE:LINE:COLUMN: what is wrong":
// YAML syntax, an unknown or repeated key (the known ones are listed), a wrong type or value,
// a model file that does not exist, a target that does not parse, an unknown scenario, an
// option list that cannot be applied.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/target.h"
#include "core/status.h"
#include "core/tensor.h"
#include "load/settings.h"
#include "plan/mix_file.h"
#include "plan/model_spec.h"
#include "plan/suite_modes.h"

namespace edgebench {

struct SuiteModel {
  ModelSpec spec;      // artifact paths resolved (absolute or relative to the working directory)
  ShapeBindings dims;
  std::vector<std::string> inputs;  // as --input, NAME=..., checked for the NAME= part only
  int line = 0;        // 1-based line of the entry in the suite file
};

// The LLM scenario's lists; one case per prompt length x generation length.
struct LlmLists {
  std::vector<int64_t> prompt_tokens = {128};
  std::vector<int64_t> gen_tokens = {64};
  int64_t repetitions = 5;
  int64_t warmup_requests = 1;
  int64_t sequences = 1;
  std::string prompt_text;  // when set, the prompt is this text through the tokenizer
  // Serving load, as `edgebench llm --concurrency --rate --slo`.
  int64_t concurrency = 1;
  double rate = 0;
  LlmSlo slo{};
};

// `conformance:` (docs/conformance.md): `edgebench conformance` on the suite's targets.
struct SuiteConformance {
  std::string cases;  // resolved --cases; empty: the newest in the cache
  std::string ops;    // --ops
  int64_t timeout_ms = 30000;
  int line = 0;
};

struct SuiteSpec {
  std::string path;      // the suite file, as given
  std::string name;      // `name:`, or the file's stem
  std::string out_dir;   // resolved `out:`; empty when not given
  RunSettings settings;  // as requested (checked with Validate)
  // `settings:`'s keys that are `edgebench run` flags beyond RunSettings.
  bool find_peak = false;
  bool profile = false;
  bool strict_dims = false;
  int64_t input_pool = 1;
  // The keys `settings:` gave, and its line (0: no settings), for the checks that `run` shares
  // (plan/run_request_check.h).
  std::set<std::string> given_settings;
  int settings_line = 0;
  std::vector<SuiteModel> models;
  // Expanded with the option lists, in file order; each `text` is the canonical spelling
  // (Target::Canonical), options included. No two are the same.
  std::vector<Target> targets;
  std::vector<std::string> scenarios;  // no duplicates; default {"single-stream"}
  LlmLists llm;
  // The modes listed in `scenarios` (accuracy, agree, drift) with their blocks of flags.
  std::map<std::string, SuiteModeBlock> modes;
  std::vector<MixSpec> mixes;  // `mixes:`, read, in file order
  std::optional<SuiteConformance> conformance;  // `conformance:`
  // Every file the models read, resolved, each once, in file order: model files, manifests and
  // the files the manifests name (what `edgebench fleet` copies to a host).
  std::vector<std::string> model_files;
  // With SuiteReadOptions::relocate: this suite as YAML, every model and manifest path replaced
  // by relocate(its resolved path) (options such as ?layout= kept), `name:` written out and
  // `out:` left out. Empty otherwise.
  std::string relocated_yaml;
};

// What the reader needs from outside the file. Defaults: the process environment, no backend
// name check.
struct SuiteReadOptions {
  // Looks up an environment variable for `${VAR}` and `~`; nullopt when unset.
  std::function<std::optional<std::string>(const std::string&)> getenv;
  // When not empty, a target whose backend is not one of these is an error (pass every name the
  // registry knows, built or not: an unbuilt backend is reported when its case runs).
  std::vector<std::string> known_backends;
  // When set, the suite is also written out with each model file and manifest at another place
  // (SuiteSpec::relocated_yaml): `edgebench fleet` gives a host the suite with its copies' paths.
  std::function<std::string(const std::string& resolved_path)> relocate;
};

// A suite file is at most this large (a thousand-line suite is ~40 KiB); a larger one, or one
// that is not a regular file (a FIFO, a device), is refused before it is read.
inline constexpr uint64_t kMaxSuiteFileBytes = 4u << 20;
Result<SuiteSpec> ReadSuiteFile(const std::string& path, const SuiteReadOptions& options = {});

// Parses suite text. Errors name `path_for_messages`; relative paths resolve against `base_dir`
// (empty: the working directory). Model files must exist.
Result<SuiteSpec> ParseSuite(const std::string& yaml_text, const std::string& path_for_messages,
                             const std::string& base_dir, const SuiteReadOptions& options = {});

}  // namespace edgebench
