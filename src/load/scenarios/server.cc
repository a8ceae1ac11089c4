// server:QPS: queries arrive at a seeded Poisson rate, served by --concurrency sessions; latency
// runs from the scheduled arrival (load/server.h has the loop).
#include "load/scenario_registry.h"
#include "load/scenarios/streamed.h"
#include "load/server.h"

namespace edgebench {
namespace {

Status ParseServer(const std::string& parameter, bool, ScenarioSpec& spec) {
  double qps = 0;
  if (!ParseDecimal(parameter, qps) || !(qps >= kMinServerQps) || qps > kMaxServerQps) {
    return Status::Error("QPS must be a rate of queries per second from 0.000001 (one a fortnight) to 10,000,000");
  }
  spec.target_qps = qps;
  return Status::Ok();
}

std::string CanonicalServer(const ScenarioSpec& spec) { return "server:" + FormatRate(spec.target_qps); }

class ServerScenario : public StreamedScenario {
 public:
  using StreamedScenario::StreamedScenario;
  ScenarioResult Run(ScenarioContext& context) override {
    const RunSettings& s = settings();
    ServerPlan plan;
    plan.workers = streams();
    plan.target_qps = spec().target_qps;
    plan.seed = s.seed;
    plan.warmup_queries = s.warmup_queries;
    plan.min_queries = s.min_queries;
    plan.min_duration_ns = s.min_duration_ms * 1'000'000;
    plan.max_duration_ns = s.max_duration_ms * 1'000'000;
    plan.max_queries = s.max_queries;
    plan.window_ns = s.window_ms * 1'000'000;  // the histograms' past kServerRawSampleCap
    return RunServer(SystemOf(context), *context.input_pool, plan, context.observer);
  }
};


}  // namespace

extern const ScenarioEntry kServerScenario;
const ScenarioEntry kServerScenario = {
    "server", "server:QPS",
    "Poisson arrivals at QPS served by --concurrency sessions: latency from arrival, queueing included",
    SessionKind::kTensor, "sessions concurrency p99_bound_ms find_peak",
    {.judge_cv = false, .server = true, .compared_by_throughput = true},
    ParseServer, CanonicalServer, ConcurrencyStreams, nullptr, MakeStreamed<ServerScenario>};

}  // namespace edgebench
