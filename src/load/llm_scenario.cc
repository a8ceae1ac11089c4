#include "load/llm_scenario.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <random>
#include <thread>

#include "load/vlm_request.h"

namespace edgebench {
namespace {

// The LLM scenario's own copy of the arrival maths (load/arrivals is to replace it once both
// are merged): a uniform in [0, 1) from the top 53 bits, and an exponential gap
// -log1p(-u) / rate of a Poisson process at `rate_per_s`, in ns.
double LlmUniform53(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

int64_t LlmExponentialGapNs(std::mt19937_64& rng, double rate_per_s) {
  return std::llround(-std::log1p(-LlmUniform53(rng)) / rate_per_s * 1e9);
}

int64_t DrawLength(std::mt19937_64& rng, const LlmTokenRange& range, int64_t fixed) {
  if (!range.set()) return fixed;
  const double span = static_cast<double>(range.max - range.min + 1);
  return range.min + std::min<int64_t>(range.max - range.min, static_cast<int64_t>(LlmUniform53(rng) * span));
}

void SleepUntil(const std::function<int64_t()>& now, int64_t target_ns) {
  for (int64_t left = target_ns - now(); left > 0; left = target_ns - now()) {
    std::this_thread::sleep_for(std::chrono::nanoseconds(left));
  }
}

// Lockstep requests: every request starts from an empty KV state (cleared outside the timed
// span), prefills `sequences` prompts together and decodes them together.
bool RunLockstep(LlmSession& session, const LlmSettings& s, const std::vector<std::vector<int32_t>>& prompts,
                 const std::function<int64_t()>& now, int64_t count, std::vector<LlmRequestTiming>& into,
                 LlmSamples& samples, RunObserver* observer) {
  std::vector<LlmSequencePrompt> prefill;
  for (size_t i = 0; i < prompts.size(); ++i) prefill.push_back({static_cast<int32_t>(i), prompts[i]});
  for (int64_t request = 0; request < count; ++request) {
    if (Status cleared = session.ClearState(); !cleared.ok()) {
      samples.error = cleared;
      samples.failed_stage = "clear";
      return false;
    }
    LlmRequestTiming timing;
    timing.prompt_tokens = samples.prompt_tokens;
    timing.start_ns = now();
    Result<std::vector<int32_t>> tokens = std::vector<int32_t>{};
    if (s.vision()) {  // one sequence (the CLI refuses --sequences with images)
      LlmVisionStages stages;
      auto first = PrefillVisionRequest(session, RequestImages(s, request), s.prompt_text, 0, now, stages,
                                        samples.failed_stage);
      tokens = first.ok() ? Result<std::vector<int32_t>>(std::vector<int32_t>{first.value()})
                          : Result<std::vector<int32_t>>(first.status());
      timing.prompt_tokens = stages.image_tokens + stages.text_tokens;
      timing.vision = stages;
    } else {
      tokens = session.Prefill(prefill);
    }
    timing.first_token_ns = now();
    if (!tokens.ok()) {
      samples.error = tokens.status();
      if (!s.vision()) samples.failed_stage = "prefill";
      return false;
    }
    std::vector<LlmSequenceToken> last;
    for (size_t i = 0; i < tokens.value().size(); ++i) last.push_back({static_cast<int32_t>(i), tokens.value()[i]});
    timing.token_ns.reserve(static_cast<size_t>(std::max<int64_t>(0, s.gen_tokens - 1)));
    for (int64_t step = 1; step < s.gen_tokens; ++step) {
      auto next = session.DecodeStep(last);
      const int64_t t = now();
      if (!next.ok()) {
        samples.error = next.status();
        samples.failed_stage = "decode";
        return false;
      }
      timing.token_ns.push_back(t);
      for (size_t i = 0; i < last.size(); ++i) last[i].token = next.value()[i];
    }
    into.push_back(std::move(timing));
    if (observer) observer->OnProgress(request + 1, count);
  }
  return true;
}

}  // namespace

std::vector<std::vector<int32_t>> SeededPrompts(int64_t sequences, int64_t tokens, int32_t vocab_size,
                                                uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> id(0, vocab_size - 1);
  std::vector<std::vector<int32_t>> prompts(static_cast<size_t>(sequences));
  for (auto& p : prompts) {
    p.resize(static_cast<size_t>(tokens));
    for (auto& t : p) t = id(rng);
  }
  return prompts;
}

std::vector<LlmPlannedRequest> PlanLlmRequests(const LlmSettings& s, int64_t count, int32_t vocab_size,
                                               const std::vector<int32_t>& text_prompt, uint64_t stream) {
  // Separate generators for lengths and token ids, and for arrivals, so a different rate keeps
  // the same requests.
  std::mt19937_64 content(s.seed ^ (stream * 0x9E3779B97F4A7C15ull));
  std::mt19937_64 arrivals(s.seed ^ (stream * 0x9E3779B97F4A7C15ull) ^ 0xA5A5A5A5A5A5A5A5ull);
  std::vector<LlmPlannedRequest> requests(static_cast<size_t>(count));
  int64_t arrival = 0;
  for (LlmPlannedRequest& r : requests) {
    const int64_t prompt_tokens = DrawLength(content, s.prompt_range, s.prompt_tokens);
    r.gen_tokens = DrawLength(content, s.gen_range, s.gen_tokens);
    if (s.vision()) {
      r.images = RequestImages(s, &r - requests.data());
      r.text = s.prompt_text;
    } else if (!text_prompt.empty()) {
      r.prompt = text_prompt;
    } else {
      r.prompt.resize(static_cast<size_t>(prompt_tokens));
      for (int32_t& t : r.prompt) t = static_cast<int32_t>(content() % static_cast<uint64_t>(vocab_size));
    }
    if (s.rate > 0) {
      arrival += s.uniform_arrivals ? static_cast<int64_t>(std::llround(1e9 / s.rate)) : LlmExponentialGapNs(arrivals, s.rate);
    }
    r.arrival_ns = arrival;
  }
  return requests;
}

Status ServeLlmRequests(LlmSession& session, const std::vector<LlmPlannedRequest>& requests,
                        int64_t concurrency, bool open_loop, const LlmClock& clock,
                        std::vector<LlmRequestTiming>& timings, std::string& failed_stage,
                        const std::function<void(size_t)>& on_finished) {
  struct Slot {
    std::optional<size_t> request;  // the request it serves, none when free
    int32_t last_token = 0;
    LlmRequestTiming timing;
  };
  std::vector<Slot> slots(static_cast<size_t>(concurrency));
  std::vector<std::optional<LlmRequestTiming>> done(requests.size());
  const int64_t phase_start = clock.now();
  size_t next = 0, finished = 0;
  auto fail = [&](const Status& status, const char* stage) {
    failed_stage = stage;
    return status;
  };
  // A slot whose request has all its tokens: its timing is kept and its KV cells freed.
  auto retire = [&](Slot& slot, int32_t sequence) -> Status {
    const LlmPlannedRequest& r = requests[*slot.request];
    if (slot.timing.generated_tokens() < r.gen_tokens) return Status::Ok();
    done[*slot.request] = std::move(slot.timing);
    slot = Slot{};
    ++finished;
    if (on_finished) on_finished(finished);
    return session.ClearSequence(sequence);
  };
  while (finished < requests.size()) {
    // Admit every request that has arrived into a free slot; their prompts are prefilled
    // together in one Prefill call, before the decode step of this iteration.
    std::vector<LlmSequencePrompt> prompts;
    std::vector<int32_t> joined;
    const int64_t admitted_at = clock.now();  // one issue time for every request joining now
    for (size_t i = 0; i < slots.size() && next < requests.size(); ++i) {
      if (slots[i].request) continue;
      const LlmPlannedRequest& r = requests[next];
      int64_t start = admitted_at;
      if (open_loop) {
        const int64_t arrival = phase_start + r.arrival_ns;
        if (arrival > start) break;  // not arrived yet
        start = arrival;
      }
      slots[i].request = next++;
      slots[i].timing.start_ns = start;
      slots[i].timing.prompt_tokens = static_cast<int64_t>(r.prompt.size());
      if (!r.images.empty()) {
        // A vision-language request's prefill runs alone, stage by stage, as it joins: the
        // sequences in flight wait for it before their next decode step.
        LlmVisionStages stages;
        auto first = PrefillVisionRequest(session, r.images, r.text, static_cast<int32_t>(i), clock.now, stages,
                                          failed_stage);
        if (!first.ok()) return first.status();
        slots[i].timing.first_token_ns = clock.now();
        slots[i].timing.prompt_tokens = stages.image_tokens + stages.text_tokens;
        slots[i].timing.vision = stages;
        slots[i].last_token = first.value();
        if (Status s = retire(slots[i], static_cast<int32_t>(i)); !s.ok()) return fail(s, "clear");
        continue;
      }
      prompts.push_back({static_cast<int32_t>(i), r.prompt});
      joined.push_back(static_cast<int32_t>(i));
    }
    if (!prompts.empty()) {
      auto first = session.Prefill(prompts);
      const int64_t t = clock.now();
      if (!first.ok()) return fail(first.status(), "prefill");
      for (size_t k = 0; k < joined.size(); ++k) {
        Slot& slot = slots[static_cast<size_t>(joined[k])];
        slot.timing.first_token_ns = t;
        slot.last_token = first.value()[k];
        if (Status s = retire(slot, joined[k]); !s.ok()) return fail(s, "clear");
      }
    }
    std::vector<LlmSequenceToken> step;
    for (size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].request) step.push_back({static_cast<int32_t>(i), slots[i].last_token});
    }
    if (step.empty()) {
      // Nothing in flight: under open loop, wait for the next arrival.
      if (open_loop && next < requests.size()) {
        const int64_t arrival = phase_start + requests[next].arrival_ns;
        if (clock.wait_until) {
          clock.wait_until(arrival);
        } else {
          SleepUntil(clock.now, arrival);
        }
      }
      continue;
    }
    auto tokens = session.DecodeStep(step);
    const int64_t t = clock.now();
    if (!tokens.ok()) return fail(tokens.status(), "decode");
    for (size_t k = 0; k < step.size(); ++k) {
      Slot& slot = slots[static_cast<size_t>(step[k].sequence)];
      slot.timing.token_ns.push_back(t);
      slot.last_token = tokens.value()[k];
      if (Status s = retire(slot, step[k].sequence); !s.ok()) return fail(s, "clear");
    }
  }
  for (auto& d : done) timings.push_back(std::move(*d));
  return Status::Ok();
}

LlmSamples RunLlmScenario(LlmSession& session, const LlmSettings& s, const std::function<int64_t()>& now,
                          RunObserver* observer, const std::function<void(int64_t)>& wait_until) {
  LlmSamples samples;
  const LlmSessionInfo info = session.Info();
  std::vector<int32_t> text_prompt;
  if (s.vision()) {
    samples.prompt_source = std::to_string(s.images_per_request) + " image(s) per request and the text, through libmtmd";
  } else if (!s.prompt_text.empty()) {
    auto tokens = session.Tokenize(s.prompt_text);
    if (!tokens.ok()) {
      samples.error = tokens.status();
      samples.failed_stage = "tokenize";
      return samples;
    }
    text_prompt = tokens.take();
    samples.prompt_source = "text through the model's tokenizer";
    samples.prompt_tokens = static_cast<int64_t>(text_prompt.size());
  } else {
    samples.prompt_source = "seeded token ids (seed " + std::to_string(s.seed) + ")";
    samples.prompt_tokens = s.prompt_range.set() ? 0 : s.prompt_tokens;
  }

  if (!s.serving()) {
    const auto prompts = text_prompt.empty()
                             ? SeededPrompts(s.sequences, s.prompt_tokens, info.vocab_size, s.seed)
                             : std::vector<std::vector<int32_t>>(static_cast<size_t>(s.sequences), text_prompt);
    if (observer) observer->OnPhaseStart("warmup", 0);
    if (!RunLockstep(session, s, prompts, now, s.warmup_requests, samples.warmup, samples, observer)) return samples;
    if (observer) {
      observer->OnPhaseEnd("warmup");
      observer->OnPhaseStart("measure", 0);
    }
    if (!RunLockstep(session, s, prompts, now, s.repetitions, samples.measured, samples, observer)) return samples;
    if (observer) observer->OnPhaseEnd("measure");
    if (s.vision() && !samples.measured.empty()) samples.prompt_tokens = samples.measured.front().prompt_tokens;
    return samples;
  }

  const LlmClock clock{now, wait_until};
  auto serve = [&](const std::vector<LlmPlannedRequest>& requests, bool open_loop,
                   std::vector<LlmRequestTiming>& into) {
    // Every phase starts from an empty KV state; clearing is not part of any request.
    if (Status cleared = session.ClearState(); !cleared.ok()) {
      samples.error = cleared;
      samples.failed_stage = "clear";
      return false;
    }
    const auto total = static_cast<int64_t>(requests.size());
    Status served = ServeLlmRequests(session, requests, s.concurrency, open_loop, clock, into, samples.failed_stage,
                                     [&](size_t finished) {
                                       if (observer) observer->OnProgress(static_cast<int64_t>(finished), total);
                                     });
    if (!served.ok()) samples.error = served;
    return served.ok();
  };
  const auto warmup = PlanLlmRequests(s, s.warmup_requests, info.vocab_size, text_prompt, /*stream=*/1);
  const auto measured = PlanLlmRequests(s, s.repetitions, info.vocab_size, text_prompt, /*stream=*/0);
  if (observer) observer->OnPhaseStart("warmup", 0);
  if (!warmup.empty() && !serve(warmup, /*open_loop=*/false, samples.warmup)) return samples;
  if (observer) {
    observer->OnPhaseEnd("warmup");
    observer->OnPhaseStart("measure", 0);
  }
  if (!serve(measured, /*open_loop=*/s.rate > 0, samples.measured)) return samples;
  if (observer) observer->OnPhaseEnd("measure");
  if (s.vision() && !samples.measured.empty()) samples.prompt_tokens = samples.measured.front().prompt_tokens;
  return samples;
}

}  // namespace edgebench
