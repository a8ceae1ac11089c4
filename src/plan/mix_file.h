// A mix file (docs/mixes.md): several workloads run at once on one machine, each also alone, so
// that each is judged against itself. Read like the suite and pipeline files: every mistake is
// "FILE:LINE:COL: what is wrong".
//
//   name: camera-and-assistant
//   duration: 2m            # how long each phase runs (alone, then mixed)
//   alone: before           # before | after | none: when each workload runs alone
//   rounds: 3               # alone and mixed phases interleaved, the order alternating
//   isolation: together     # the mixed phase in one process (default: processes, one each)
//   workloads:
//     - name: faces
//       pipeline: ../pipelines/face-features.yaml
//       stages: [detect=litert:xnnpack, features=ort:cpu]
//       scenario: camera:4@10fps
//       objectives: [p99<=250ms, dropped<=40%]
//     - name: assistant
//       llm: ${EDGEBENCH_CACHE}/models/llama-100m-q8_0.gguf
//       target: llamacpp:cpu
//       every: 5s            # a question every 5 s (Poisson at that mean rate)
//       arrivals: uniform    # or exactly every 5 s
//       mmproj: vlm-mmproj.gguf   # a vision-language model: its projector,
//       images: [photo.png]       # the images taken in turn, and the text (prompt_text:)
//       objectives: [ttft<=2s]
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "record/mix_tag.h"  // MixObjective

namespace edgebench {

struct MixWorkload {
  std::string name;
  std::string kind;  // "model", "pipeline" or "llm"
  std::string path;  // the model, pipeline file or GGUF
  std::string target;               // model and llm: one target
  std::vector<std::string> stages;  // pipeline: NAME=TARGET for each model stage it sets
  std::string scenario;             // model and pipeline: a load scenario
  double every_s = 0;               // llm: mean seconds between requests
  std::string arrivals = "poisson"; // llm: poisson (every_s on average) or uniform (exactly)
  int prompt = 64;                  // llm: prompt and generated tokens per request
  int gen = 16;
  // llm, vision-language requests (docs/vlm.md): the projector, the images taken in turn, the
  // text beside them; empty for text requests.
  std::string mmproj;
  std::vector<std::string> images;
  std::string prompt_text;
  std::vector<MixObjective> objectives;
};

inline constexpr int kMaxMixRounds = 20;

struct MixSpec {
  std::string path;
  std::string name;
  int64_t duration_ms = 0;
  std::string alone = "before";  // before | after | none: the first round's order
  // Rounds of (alone, mixed), the order alternating from round to round (before: alone then
  // mixed, then mixed then alone, ...) so that a machine warming or cooling over the run weighs
  // on both phases alike.
  int rounds = 1;
  // "processes" (each workload its own process: one crash leaves the others measured) or
  // "together" (the mixed phase's workloads on threads of one worker process, sharing its
  // runtimes and their thread pools: one crash takes all of them down).
  std::string isolation = "processes";
  std::vector<MixWorkload> workloads;
};

// A YAML file is a mix file when it has a top-level `workloads:` key (a pipeline file has
// `stages:`, a suite file `models:`); read without parsing it as YAML.
bool IsMixFile(const std::string& path);

Result<MixSpec> ReadMixFile(const std::string& path);
Result<MixSpec> ParseMixText(const std::string& text, const std::string& path);

// "p99<=66ms" to its metric, comparison and bound; an error says what is expected.
Result<MixObjective> ParseMixObjective(const std::string& text);

}  // namespace edgebench
