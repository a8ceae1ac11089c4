// Plain data of the LLM scenario: what was asked (settings), what the session is (info) and when
// each token came (timings). Records and statistics depend on these, not on the runtime
// interface or the load generator.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/llm_work.h"
#include "core/status.h"

namespace edgebench {

// Inclusive token-count range a request's length is drawn from (uniformly, seeded); unset
// (0:0) means the fixed length of the settings.
struct LlmTokenRange {
  int64_t min = 0;
  int64_t max = 0;
  bool set() const { return max > 0; }
  bool operator==(const LlmTokenRange&) const = default;
};

// Per-request service-level objective: a request meets it when its TTFT and its TPOT are at
// most these bounds (0: no bound). Goodput counts the requests that meet it.
struct LlmSlo {
  int64_t ttft_ns = 0;
  int64_t tpot_ns = 0;
  bool set() const { return ttft_ns > 0 || tpot_ns > 0; }
  bool operator==(const LlmSlo&) const = default;
};

struct LlmSettings {
  int64_t prompt_tokens = 128;
  int64_t gen_tokens = 64;       // tokens generated per sequence, the first one included
  int64_t repetitions = 5;       // measured requests
  int64_t warmup_requests = 1;   // reported apart
  int64_t sequences = 1;         // decoded together in one batch
  uint64_t seed = 0;
  std::string prompt_text;       // when set, the prompt is this text through the tokenizer
  // Serving load. With concurrency 1, no rate and no ranges, requests run one at a time as
  // above (`sequences` in lockstep); otherwise `concurrency` requests are in flight on one
  // model, each its own sequence, joining as others finish (continuous batching).
  int64_t concurrency = 1;
  double rate = 0;               // requests/s, Poisson arrivals; 0: closed loop
  bool uniform_arrivals = false; // with rate: one request every 1/rate s exactly, not Poisson
  LlmTokenRange prompt_range{};  // per-request prompt length, replaces prompt_tokens when set
  LlmTokenRange gen_range{};     // per-request generation length, replaces gen_tokens when set
  LlmSlo slo{};
  // Vision-language requests (docs/vlm.md): every request is images plus prompt_text, run
  // through the projector the session was loaded with. Request r takes images_per_request
  // images from `images` in turn, starting at (r x images_per_request) mod images.size().
  std::vector<std::string> images{};
  int64_t images_per_request = 1;
  std::string mmproj{};  // the projector (vision tower) file

  bool vision() const { return !images.empty(); }
  // Whether the case runs the serving load (continuous batching) rather than lockstep requests.
  bool serving() const { return concurrency > 1 || rate > 0 || prompt_range.set() || gen_range.set(); }
  // The longest prompt and generation a request can have (for sizing the KV cache).
  int64_t max_prompt_tokens() const { return prompt_range.set() ? prompt_range.max : prompt_tokens; }
  int64_t max_gen_tokens() const { return gen_range.set() ? gen_range.max : gen_tokens; }
  // KV sequences the session needs: concurrent requests or lockstep sequences.
  int64_t kv_sequences() const { return serving() ? concurrency : sequences; }
};

// "64:256" (inclusive, 1 <= min <= max). The error names `flag`.
Result<LlmTokenRange> ParseLlmTokenRange(const std::string& flag, const std::string& text);
// "ttft:500ms,tpot:50ms": bounds with units ns, us, ms or s; either key may be left out. The
// error names `flag`.
Result<LlmSlo> ParseLlmSlo(const std::string& flag, const std::string& text);

struct LlmSessionInfo {
  std::string model_description;  // e.g. "phi3 3B Q4_0"
  uint64_t model_parameters = 0;
  uint64_t model_bytes = 0;
  int32_t vocab_size = 0;
  int32_t context_size = 0;  // total, across sequences
  int32_t max_sequences = 1;
  int64_t kv_cache_bytes = 0;  // computed from the model's shape, context and cache type
  bool random_weights = false;  // the GGUF says so (edgebench's generated models do)
  std::map<std::string, std::string> effective_options;
  std::map<std::string, std::string> environment;  // e.g. the CPU backend variant llama.cpp loaded
  std::vector<std::string> notes;
  // A vision-language session: the projector as loaded and where its vision tower runs.
  std::string projector{};       // e.g. "mmproj vlm-tiny-mmproj-f16.gguf: vision, 16 image tokens at 56x56"
  std::string vision_device{};   // the backend the vision tower ran on, from libmtmd's log
  // What a token reads and computes (the roofline's counts); when absent, work_unknown says why.
  std::optional<LlmWork> work{};
  std::string work_unknown{};
};

// A vision-language request's stages (ns, timed by the harness), in the order they run. The
// first token comes at the end of the last prefill, so TTFT >= the sum of the four (more under
// load: queueing and other requests' decode steps).
struct LlmVisionStages {
  int64_t preprocess_ns = 0;     // images decoded from their files, resized, sliced; text tokenized
  int64_t encode_ns = 0;         // the vision tower over every image (and slice)
  int64_t image_prefill_ns = 0;  // the image embeddings decoded into the context
  int64_t text_prefill_ns = 0;   // the text tokens decoded, the last one's logits give the first token
  int64_t images = 0;
  int64_t image_tokens = 0;      // every image's, together
  int64_t text_tokens = 0;

  int64_t total_ns() const { return preprocess_ns + encode_ns + image_prefill_ns + text_prefill_ns; }
  // TTFT's image part: everything before the text prefill (pre-processing, encode, image prefill).
  int64_t image_part_ns() const { return preprocess_ns + encode_ns + image_prefill_ns; }
};

// One request's timestamps (ns, steady clock): start, first token, every later token. The start
// is the scheduled arrival under --rate (queueing included), else when the request was issued.
struct LlmRequestTiming {
  int64_t start_ns = 0;
  int64_t first_token_ns = 0;
  std::vector<int64_t> token_ns;  // after each decode step
  int64_t prompt_tokens = 0;      // this request's prompt length (image and text tokens)
  std::optional<LlmVisionStages> vision{};  // vision-language requests only

  int64_t ttft_ns() const { return first_token_ns - start_ns; }
  int64_t end_ns() const { return token_ns.empty() ? first_token_ns : token_ns.back(); }
  int64_t e2e_ns() const { return end_ns() - start_ns; }
  int64_t generated_tokens() const { return 1 + static_cast<int64_t>(token_ns.size()); }
  // Per-request time per output token, (E2E - TTFT) / (tokens - 1); none for a single token.
  std::optional<double> tpot_ns() const;
  // Gaps between consecutive tokens after the first (inter-token latencies).
  std::vector<int64_t> itl_gaps_ns() const;
};

}  // namespace edgebench
