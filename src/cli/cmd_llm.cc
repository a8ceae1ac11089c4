// `edgebench llm MODEL.gguf --prompt 128,512 --gen 64`: TTFT, TPOT, prefill and decode speed
// for every prompt length x generation length, each case in a worker process.
#include <cmath>
#include <iostream>
#include <vector>
#include <sstream>

#include "cli/command_support.h"
#include "core/bounded_file.h"
#include "cli/monitor_options.h"
#include "cli/round_options.h"
#include "cli/commands.h"
#include "cli/record_output.h"
#include "plan/plan.h"
#include "runner/run_plan.h"

namespace edgebench {
namespace {

struct LlmOptions {
  std::string model;
  std::string targets = "llamacpp:cpu";
  std::string prompts = "128";
  std::string gens = "64";
  int64_t repeat = 5;
  int64_t warmup = 1;
  int64_t sequences = 1;
  int64_t concurrency = 1;
  double rate = 0;
  std::string arrivals = "poisson";
  std::string prompt_range;
  std::string gen_range;
  std::string slo;
  uint64_t seed = 0;
  std::string prompt_text;
  std::string mmproj;
  std::vector<std::string> images;
  int64_t images_per_request = 1;
  std::string format = "table";
  std::string out_dir;
  int64_t timeout_ms = 1800000;
  int64_t case_memory_mb = 0;
  bool in_process = false;
  std::string plan_out;  // --plan-out (hidden)
  bool fail_on_invalid = false;
  MonitorFlags monitor;
  RoundFlags rounds;
  std::string trace_path;
  bool profile = false;
};

Result<std::vector<int64_t>> ParseCounts(const std::string& flag, const std::string& text) {
  std::vector<int64_t> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    try {
      size_t used = 0;
      const long long v = std::stoll(item, &used);
      if (used != item.size() || v < 1) throw std::invalid_argument(item);
      values.push_back(v);
    } catch (const std::exception&) {
      return Status::Error("bad " + flag + " '" + text + "': expected positive integers separated by commas");
    }
  }
  if (values.empty()) return Status::Error("bad " + flag + ": give at least one value");
  return values;
}

int Llm(const LlmOptions& o, CommandContext& context) {
  auto fail = [](const std::string& message) {
    std::cerr << "edgebench llm: " << message << "\n";
    return 2;
  };
  auto prompts = ParseCounts("--prompt", o.prompts);
  if (!prompts.ok()) return fail(prompts.error());
  auto gens = ParseCounts("--gen", o.gens);
  if (!gens.ok()) return fail(gens.error());
  if (o.repeat < 1) return fail("--repeat must be at least 1");
  if (o.warmup < 0) return fail("--warmup must be 0 or more");
  if (o.sequences < 1) return fail("--sequences must be at least 1");
  if (o.concurrency < 1) return fail("--concurrency must be at least 1");
  if (!(o.rate >= 0) || !std::isfinite(o.rate)) return fail("--rate must be a positive number of requests/s");
  LlmSettings base{0, 0, o.repeat, o.warmup, o.sequences, o.seed, o.prompt_text};
  base.concurrency = o.concurrency;
  base.rate = o.rate;
  if (o.arrivals != "poisson" && o.arrivals != "uniform") {
    return fail("--arrivals is poisson or uniform, not '" + o.arrivals + "'");
  }
  if (o.arrivals == "uniform" && o.rate <= 0) return fail("--arrivals uniform needs --rate (the requests per second)");
  base.uniform_arrivals = o.arrivals == "uniform";
  if (!o.prompt_range.empty()) {
    auto range = ParseLlmTokenRange("--prompt-range", o.prompt_range);
    if (!range.ok()) return fail(range.error());
    base.prompt_range = range.value();
  }
  if (!o.gen_range.empty()) {
    auto range = ParseLlmTokenRange("--gen-range", o.gen_range);
    if (!range.ok()) return fail(range.error());
    base.gen_range = range.value();
  }
  if (!o.slo.empty()) {
    auto slo = ParseLlmSlo("--slo", o.slo);
    if (!slo.ok()) return fail(slo.error());
    base.slo = slo.value();
  }
  if (base.serving() && o.sequences > 1) {
    return fail("--sequences " + std::to_string(o.sequences) +
                " decodes sequences in lockstep as one request; under --concurrency, --rate or length ranges "
                "every request is its own sequence: drop --sequences");
  }
  if (!o.images.empty() || !o.mmproj.empty()) {
    // A missing or undecodable image or projector is the case's error record (load stage),
    // like a bad model; only what makes the request itself ill-formed is refused here.
    for (const std::string& image : o.images) {
      if (image.empty()) return fail("--image: an empty file name in the list; give IMG[,IMG2...]");
      // A list that ends in ',' takes the next argument as one more image (CLI11's delimiter).
      if (image.front() == '-' && !std::filesystem::exists(image)) {
        return fail("--image: '" + image + "' is a flag, taken as an image after a list that ends in ','; give "
                    "IMG[,IMG2...]");
      }
      // A FIFO would block the worker until the case's timeout; a missing file is the case's
      // error record, like a bad model.
      if (const std::string kind = NonRegularFileKind(image); !kind.empty()) {
        return fail("--image '" + image + "': it is " + kind + ", not an image file");
      }
    }
    if (o.mmproj.empty()) return fail("--image needs the vision projector of the model: give --mmproj MMPROJ.gguf");
    if (o.images.empty()) return fail("--mmproj is for vision-language requests: give --image IMG[,IMG2...]");
    if (o.prompt_text.empty()) {
      return fail("--image needs --prompt-text TEXT: the text that goes with the images (e.g. \"Describe the image.\")");
    }
    if (o.images_per_request < 1 || o.images_per_request > 64) return fail("--images-per-request must be 1 to 64");
    if (o.sequences > 1) {
      return fail("--sequences " + std::to_string(o.sequences) +
                  " is for text prompts; vision-language requests are one sequence each (use --concurrency)");
    }
    base.images = o.images;
    base.images_per_request = o.images_per_request;
    base.mmproj = o.mmproj;
  } else if (o.images_per_request != 1) {
    return fail("--images-per-request is for vision-language requests: give --image and --mmproj");
  }
  if (o.timeout_ms < 1) return fail("--timeout must be at least 1 ms");
  if (o.case_memory_mb < 0) return fail("--case-memory must be 0 (automatic) or more MiB");
  auto targets = ParseTargetList(o.targets);
  if (!targets.ok()) return fail(targets.error());
  std::error_code ec;
  if (!std::filesystem::is_regular_file(o.model, ec)) return fail("model file '" + o.model + "' " + NotAFileText(o.model));
  PlanRequest request;
  PlanModel model;
  model.model.name = std::filesystem::path(o.model).stem().string();
  ArtifactSpec artifact;
  artifact.path = o.model;
  model.model.artifacts = {artifact};
  request.models = {model};
  request.targets = targets.take();
  request.scenarios = {"llm"};
  request.settings.case_timeout_ms = o.timeout_ms;
  request.settings.case_memory_mb = o.case_memory_mb;
  request.llm_base = base;
  // With --prompt-text the prompt length is the text's; one length then. With a range the
  // fixed length is the range's longest (it sizes the KV cache).
  request.prompt_lengths = !o.prompt_text.empty()     ? std::vector<int64_t>{1}
                           : base.prompt_range.set() ? std::vector<int64_t>{base.prompt_range.max}
                                                      : prompts.value();
  request.gen_lengths = base.gen_range.set() ? std::vector<int64_t>{base.gen_range.max} : gens.value();
  auto monitor = CheckMonitorFlags(o.monitor);
  if (!monitor.ok()) return fail(monitor.error());
  request.monitor = monitor.value().settings;
  request.profile = o.profile;
  auto planned = PlanCases(request, context.registry);
  if (!planned.ok()) return fail(planned.error());
  auto plan = ApplyRoundFlags(planned.value(), o.rounds);
  if (!plan.ok()) return fail(plan.error());
  return RunPlanAndReport(plan.value(), context, {"llm", o.format, o.out_dir, o.in_process, {}, o.fail_on_invalid,
                                                  monitor.value().cooldown, request.monitor.sysfs_root,
                                                  o.trace_path, o.plan_out});
}

}  // namespace

void AddLlmCommand(CLI::App& app, CommandContext& context) {
  auto o = std::make_shared<LlmOptions>();
  CLI::App* cmd = app.add_subcommand(
      "llm", "language models (GGUF): time to first token, time per output token, prefill and decode speed");
  cmd->footer(
      "Every request starts from an empty KV cache. Per request: TTFT, from the request's start "
      "(its scheduled arrival under --rate) to the first token; TPOT = (E2E - TTFT) / (tokens - 1); "
      "E2E, start to last token; percentiles across requests. ITL: every gap between tokens, pooled. "
      "tokens/s: tokens after each request's first / wall time of the measured phase. Goodput: "
      "requests/s meeting --slo. Prefill t/s (one request at a time only): prompt tokens x sequences / TTFT. "
      "With --image: pre-processing, encode, image prefill and text prefill per request, TTFT's image and "
      "text parts (docs/vlm)."
      "\nExit status: 0 when every case measured, 1 when any failed, 2 for bad arguments.");
  cmd->add_option("model", o->model, "GGUF model file")->required();
  cmd->add_option("-t,--target", o->targets,
                  "targets, e.g. llamacpp:cpu?threads=2&fa=on&kv=q8_0")->capture_default_str();
  CLI::Option* prompt =
      cmd->add_option("-p,--prompt", o->prompts, "prompt lengths in tokens, comma-separated")->capture_default_str();
  CLI::Option* gen =
      cmd->add_option("-n,--gen", o->gens, "tokens to generate per sequence, comma-separated")->capture_default_str();
  cmd->add_option("-r,--repeat", o->repeat, "measured requests per case")->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "warmup requests per case, reported apart")->capture_default_str();
  cmd->add_option("--sequences", o->sequences, "sequences decoded together in one batch")->capture_default_str();
  cmd->add_option("--concurrency", o->concurrency,
                  "requests in flight on one model, one sequence each, joining the batch as others finish "
                  "(continuous batching)")
      ->capture_default_str();
  cmd->add_option("--rate", o->rate,
                  "Poisson request arrivals per second (seeded); a request's start is its arrival, queueing "
                  "counted (default: closed loop, a new request as soon as a slot frees)");
  cmd->add_option("--arrivals", o->arrivals,
                  "with --rate: poisson (seeded exponential gaps) or uniform (a request every 1/rate s exactly, "
                  "as a question every 5 s)")
      ->capture_default_str();
  CLI::Option* prompt_range = cmd->add_option("--prompt-range", o->prompt_range,
                                              "draw each request's prompt length from MIN:MAX (seeded), e.g. 64:256")
                                  ->excludes(prompt);
  cmd->add_option("--gen-range", o->gen_range, "draw each request's generation length from MIN:MAX (seeded)")
      ->excludes(gen);
  cmd->add_option("--slo", o->slo,
                  "per-request objective for goodput, e.g. ttft:500ms,tpot:50ms (units ns, us, ms, s)");
  cmd->add_option("--seed", o->seed, "seed of the prompt token ids, lengths and arrivals")->capture_default_str();
  cmd->add_option("--prompt-text", o->prompt_text,
                  "a text prompt, run through the model's tokenizer (its length replaces --prompt)")
      ->check(NonEmpty())
      ->excludes(prompt)
      ->excludes(prompt_range);
  cmd->add_option("--mmproj", o->mmproj,
                  "vision projector GGUF of the model (llama.cpp's multimodal library): requests become images "
                  "plus --prompt-text, timed stage by stage (docs/vlm.md)")
      ->check(NonEmpty());
  cmd->add_option("--image", o->images,
                  "images for vision-language requests (PNG, JPEG, BMP...), comma-separated or repeated; "
                  "requests take them in turn")
      ->delimiter(',')
      ->check(NonEmpty());
  cmd->add_option("--images-per-request", o->images_per_request,
                  "images in each request; each marker <__media__> in --prompt-text takes the next one, "
                  "without markers they come before the text")
      ->capture_default_str();
  cmd->add_option("--case-memory", o->case_memory_mb,
                  "a case's worker may use this many MiB of resident memory (0: 80% of physical memory)")
      ->capture_default_str();
  cmd->add_option("-f,--format", o->format, "table, markdown, csv, json or jsonl")->capture_default_str();
  AddStoreOptions(cmd, o->out_dir);
  cmd->add_option("--timeout", o->timeout_ms, "kill a case after this many ms")->capture_default_str();
  cmd->add_flag("--in-process", o->in_process, "run cases in this process (debugging)");
  cmd->add_flag("--fail-on-invalid", o->fail_on_invalid, "exit 1 when a measured case is INVALID (for CI)");
  AddMonitorOptions(cmd, o->monitor);
  AddRoundOptions(cmd, o->rounds);
  AddTraceOption(cmd, o->trace_path);
  AddPlanOutOption(cmd, o->plan_out);
  AddProfileOption(cmd, o->profile);
  cmd->callback([o, &context] { context.exit_code = Llm(*o, context); });
}

}  // namespace edgebench
