// The pipeline harness (pipeline/pipeline_system.h) against a hand-written loop of the same
// stages: the very same stage objects and sessions, driven once by PipelineSystem::IssueQuery, which times every stage, reads the CPU clock around
// every host stage and sets the crash note, the other by a bare loop that runs the stages in
// order and nothing else. Rounds alternate so both see the same machine noise; the device
// monitor samples beside both, as users run it. Prints each round's p50 per query and the
// median ratio harness / hand loop (goal: within 2%).
//
//   pipeline_overhead_bench PIPELINE.yaml [--stage NAME=TARGET]... [--queries N] [--rounds N]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "core/clock.h"
#include "monitor/device_sensors.h"
#include "monitor/sampler.h"
#include "pipeline/pipeline_system.h"
#include "worker/pipeline_case.h"
#include "plan/pipeline_file.h"

namespace edgebench {
void RegisterBuiltBackends(Registry& registry, const std::string& plugin_dir);
}

namespace {

using namespace edgebench;

int64_t Median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "pipeline_overhead_bench: %s\n", message.c_str());
  std::exit(1);
}

PipelineSystem::Stages Build(const PipelinePlan& pipeline, Registry& registry, BuiltPipeline& built) {
  if (Status s = LoadPipelineModels(pipeline, registry, 1, built); !s.ok()) Fail(s.message());
  std::vector<std::string> notes;
  if (Status s = PreparePipeline(pipeline, built, notes); !s.ok()) Fail(s.message());
  return std::move(built.stages.at(0));
}

// The loop a user would write: each stage on every item the stage before made.
Status HandQuery(PipelineSystem::Stages& stages, const std::vector<Tensor>& inputs, std::vector<StageItem>& items,
                 std::vector<StageItem>& next) {
  static const Frame kNoFrame;
  for (size_t s = 0; s < stages.size(); ++s) {
    next.clear();
    const size_t count = s == 0 ? 1 : items.size();
    for (size_t i = 0; i < count; ++i) {
      if (Status status = stages[s]->Run(s == 0 ? inputs : items[i].tensors, s == 0 ? kNoFrame : items[i].frame, next);
          !status.ok()) {
        return status;
      }
    }
    items.swap(next);
  }
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) Fail("usage: pipeline_overhead_bench PIPELINE.yaml [--stage NAME=TARGET]... [--queries N] [--rounds N]");
  const std::string file = argv[1];
  std::vector<std::string> stages;
  int queries = 200, rounds = 7;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--stage")) stages.push_back(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--queries")) queries = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    else Fail(std::string("unknown flag ") + argv[i]);
  }
  auto pipeline = ReadPipelineFile(file);
  if (!pipeline.ok()) Fail(pipeline.error());
  for (const std::string& s : stages) {
    if (Status st = OverrideStageTargets(pipeline.value(), s); !st.ok()) Fail(st.message());
  }
  Registry registry;
  RegisterBuiltBackends(registry, EDGEBENCH_BACKEND_PLUGIN_DIR);
  auto cases = PipelineTargetCombinations(pipeline.value(), registry);
  if (!cases.ok()) Fail(cases.error());
  if (cases.value().size() != 1) Fail("the pipeline has several target combinations: pick one with --stage NAME=TARGET");
  const PipelinePlan& plan = cases.value()[0];
  auto input = ReadPipelineInput(plan.input);
  if (!input.ok()) Fail(input.error());
  const std::vector<Tensor> inputs = {input.take()};

  // One set of sessions for both: two sets would differ in where their memory and threads sit.
  BuiltPipeline built;
  std::vector<PipelineSystem::Stages> lanes;
  lanes.push_back(Build(plan, registry, built));
  PipelineSystem system(std::move(lanes));
  PipelineSystem::Stages& hand = system.lane_stages(0);

  SensorRoots roots;
  Sampler sampler(OpenDeviceSensors(roots), 10);
  sampler.Start();
  std::printf("pipeline %s on %s: %d rounds of %d queries, harness and hand loop alternated, monitor at 10 Hz\n",
              pipeline.value().name.c_str(), cases.value()[0].label.c_str(), rounds, queries);
  std::vector<double> ratios;
  std::vector<Tensor> outputs;
  std::vector<StageItem> items, next;
  const int warmup = std::max(3, queries / 20);
  for (int w = 0; w < warmup; ++w) {
    if (Status s = system.IssueQuery(0, inputs, outputs); !s.ok()) Fail(s.message());
    if (Status s = HandQuery(hand, inputs, items, next); !s.ok()) Fail(s.message());
  }
  for (int round = 0; round < rounds; ++round) {
    std::vector<int64_t> harness_ns, hand_ns;
    // Which goes first alternates too: neither always follows the other.
    for (int order = 0; order < 2; ++order) {
      const bool harness_now = (order == 0) == (round % 2 == 0);
      for (int q = 0; q < queries; ++q) {
        const int64_t start = NowNs();
        const Status status = harness_now ? system.IssueQuery(0, inputs, outputs) : HandQuery(hand, inputs, items, next);
        const int64_t end = NowNs();
        if (!status.ok()) Fail(status.message());
        (harness_now ? harness_ns : hand_ns).push_back(end - start);
      }
    }
    const int64_t a = Median(harness_ns), b = Median(hand_ns);
    ratios.push_back(static_cast<double>(a) / static_cast<double>(b));
    std::printf("  round %d: harness p50 %.3f ms, hand loop p50 %.3f ms, ratio %.4f\n", round + 1, a / 1e6, b / 1e6,
                ratios.back());
  }
  sampler.Finish(0);
  std::printf("median ratio harness / hand loop: %.4f (goal: within 2%%, under 1.02)\n", Median(ratios));
  return 0;
}
