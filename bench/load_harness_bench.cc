// The load generator measured on the null backend, where a query costs (next to) nothing, so
// what is left is the harness itself. Calls the load loops directly (no CLI, no worker process)
// and repeats every measurement for several rounds, printing medians: the machine is noisy.
//
//   load_harness_bench [--rounds N] [--queries N] [--seconds S] [overhead] [scaling] [server] [camera]
//
// overhead: ns per query of RunSingleStream and of RunClosedLoop with one stream against a bare
//           loop of Session::Run on the same null:spin?us=0 session, the same number of times.
// scaling:  multi-stream throughput for N streams on null:spin?us=50 (CPU-bound) and
//           null:sleep?us=1000, per-stream sessions and one shared session, as a ratio to N=1.
// server:   RunServer on null:spin?us=0 at 1,000 and 10,000 QPS: the start delay (scheduled
//           arrival to actual start) is the scheduler's own lateness when service takes 0 us.
// camera:   RunCameras, 30 streams at 30 fps on null:spin?us=0: a frame's arrival to its
//           completion is the harness's lateness in waking its stream.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/null/null_backend.h"
#include "backends/target.h"
#include "core/clock.h"
#include "load/closed_loop.h"
#include "inputs/input_generator.h"
#include "load/scenarios/camera.h"
#include "load/server.h"
#include "load/settings.h"
#include "load/single_stream.h"
#include "stats/load_summary.h"
#include "stats/summary.h"

namespace {

using edgebench::NowNs;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Sessions of one null target and an input pool of one sample set, as `edgebench run` makes them.
struct NullSessions {
  edgebench::NullBackend backend;
  std::vector<std::unique_ptr<edgebench::Session>> owned;
  std::vector<edgebench::Session*> raw;
  std::vector<std::vector<edgebench::Tensor>> pool;
};

std::unique_ptr<NullSessions> MakeSessions(const std::string& target_text, int count) {
  auto s = std::make_unique<NullSessions>();
  auto target = edgebench::ParseTarget(target_text);
  if (!target.ok()) {
    std::fprintf(stderr, "bad target %s: %s\n", target_text.c_str(), target.error().c_str());
    std::exit(1);
  }
  for (int i = 0; i < count; ++i) {
    auto session = s->backend.Load({"unused"}, target.value());
    if (!session.ok() || !session.value()->Prepare({{1, 16}}).ok()) {
      std::fprintf(stderr, "could not load and prepare %s\n", target_text.c_str());
      std::exit(1);
    }
    s->owned.push_back(session.take());
    s->raw.push_back(s->owned.back().get());
  }
  s->pool.push_back(edgebench::GenerateInputs(s->owned[0]->signature(), {{1, 16}}, 0).take());
  return s;
}

void CheckOk(const edgebench::ScenarioResult& r, const char* what) {
  if (!r.error.ok()) {
    std::fprintf(stderr, "%s failed: %s\n", what, r.error.message().c_str());
    std::exit(1);
  }
}

// --- a. per-query overhead --------------------------------------------------------------------

constexpr int64_t kWarmup = 20;
constexpr int64_t kHourNs = 3'600'000'000'000;

double BareNsPerQuery(edgebench::Session& session, const NullSessions& s, int64_t queries) {
  std::vector<edgebench::Tensor> outputs;
  for (int64_t i = 0; i < kWarmup; ++i) (void)session.Run(s.pool[0], outputs);
  const int64_t start = NowNs();
  for (int64_t i = 0; i < queries; ++i) {
    if (!session.Run(s.pool[static_cast<size_t>(i) % s.pool.size()], outputs).ok()) std::exit(1);
  }
  return static_cast<double>(NowNs() - start) / static_cast<double>(queries);
}

// The bare loop again, with the two clock reads and two stores a query any timed loop needs:
// the floor under any harness that keeps per-query latencies.
double BareTimedNsPerQuery(edgebench::Session& session, const NullSessions& s, int64_t queries) {
  std::vector<edgebench::Tensor> outputs;
  std::vector<int64_t> latency, issue;
  latency.reserve(static_cast<size_t>(queries));
  issue.reserve(static_cast<size_t>(queries));
  for (int64_t i = 0; i < kWarmup; ++i) (void)session.Run(s.pool[0], outputs);
  const int64_t phase_start = NowNs();
  for (int64_t i = 0; i < queries; ++i) {
    const int64_t start = NowNs();
    if (!session.Run(s.pool[static_cast<size_t>(i) % s.pool.size()], outputs).ok()) std::exit(1);
    const int64_t end = NowNs();
    latency.push_back(end - start);
    issue.push_back(start - phase_start);
  }
  return static_cast<double>(NowNs() - phase_start) / static_cast<double>(queries);
}

double SingleStreamNsPerQuery(edgebench::Session& session, const NullSessions& s, int64_t queries) {
  edgebench::EffectiveRunSettings settings;
  settings.values.warmup_queries = kWarmup;
  settings.values.min_queries = queries;
  settings.values.max_queries = queries;
  settings.values.min_duration_ms = 0;
  settings.values.max_duration_ms = kHourNs / 1'000'000;
  const auto r = edgebench::RunSingleStream(session, s.pool, settings);
  CheckOk(r, "single-stream");
  return static_cast<double>(r.measured_wall_ns) / static_cast<double>(r.measured.latency_ns.size());
}

double ClosedLoopNsPerQuery(const std::vector<edgebench::Session*>& sessions, const NullSessions& s,
                            int64_t queries) {
  edgebench::ClosedLoopPlan plan;
  plan.streams = 1;
  plan.warmup_queries = kWarmup;
  plan.min_queries = queries;
  plan.max_queries = queries;
  plan.max_duration_ns = kHourNs;
  const auto r = edgebench::RunClosedLoop(sessions, s.pool, plan);
  CheckOk(r, "multi-stream:1");
  return static_cast<double>(r.measured_wall_ns) / static_cast<double>(r.measured.latency_ns.size());
}

void Overhead(int rounds, int64_t queries) {
  std::printf("== a. per-query overhead: null:spin?us=0, %lld queries a run, %d rounds\n",
              static_cast<long long>(queries), rounds);
  auto s = MakeSessions("null:spin?us=0", 1);
  edgebench::Session& session = *s->raw[0];
  std::vector<double> bare, timed, single, multi;
  for (int r = 0; r < rounds; ++r) {
    // A different order each round, so drift in the machine's state hits all four alike.
    for (int k = 0; k < 4; ++k) {
      switch ((k + r) % 4) {
        case 0: bare.push_back(BareNsPerQuery(session, *s, queries)); break;
        case 1: timed.push_back(BareTimedNsPerQuery(session, *s, queries)); break;
        case 2: single.push_back(SingleStreamNsPerQuery(session, *s, queries)); break;
        case 3: multi.push_back(ClosedLoopNsPerQuery(s->raw, *s, queries)); break;
      }
    }
    std::printf("  round %d: bare %.1f, bare+clock %.1f, single-stream %.1f, multi-stream:1 %.1f ns/query\n",
                r + 1, bare.back(), timed.back(), single.back(), multi.back());
    std::fflush(stdout);
  }
  const double b = Median(bare);
  std::printf("  median ns/query   bare Session::Run loop            %8.1f\n", b);
  std::printf("  median ns/query   bare loop + 2 clock reads/query   %8.1f  (ratio %.2f, +%.1f ns)\n",
              Median(timed), Median(timed) / b, Median(timed) - b);
  for (const auto& [name, v] : {std::pair<const char*, std::vector<double>*>{"single-stream", &single},
                                {"multi-stream:1", &multi}}) {
    const double m = Median(*v);
    std::printf("  median ns/query   %-32s %8.1f  (ratio %.2f, overhead +%.1f ns: goal < 1000 ns: %s)\n",
                name, m, m / b, m - b, m - b < 1000 ? "met" : "NOT met");
  }
  std::fflush(stdout);
}

// --- b. multi-stream scaling ------------------------------------------------------------------

double ClosedLoopQps(const std::string& target, int streams, bool shared, int64_t duration_ns) {
  auto s = MakeSessions(target, shared ? 1 : streams);
  edgebench::ClosedLoopPlan plan;
  plan.streams = streams;
  plan.warmup_queries = 5;
  plan.min_queries = 1;
  plan.min_duration_ns = duration_ns;
  plan.max_duration_ns = duration_ns * 4;
  plan.max_queries = 100'000'000;
  const auto r = edgebench::RunClosedLoop(s->raw, s->pool, plan);
  CheckOk(r, "multi-stream");
  return static_cast<double>(r.measured.latency_ns.size()) * 1e9 / static_cast<double>(r.measured_wall_ns);
}

void Scaling(int rounds, double seconds) {
  const std::vector<int> counts = {1, 2, 4, 8, 16, 64};
  const auto duration_ns = static_cast<int64_t>(seconds * 1e9);
  std::printf("\n== b. multi-stream scaling: %.2f s a run, %d rounds, %ld cores online\n", seconds, rounds,
              ::sysconf(_SC_NPROCESSORS_ONLN));
  for (const std::string target : {"null:spin?us=50", "null:sleep?us=1000"}) {
    for (const bool shared : {false, true}) {
      std::vector<std::vector<double>> qps(counts.size());
      for (int r = 0; r < rounds; ++r) {
        for (size_t i = 0; i < counts.size(); ++i) {
          qps[i].push_back(ClosedLoopQps(target, counts[i], shared, duration_ns));
        }
      }
      std::printf("  %s, %s sessions:\n", target.c_str(), shared ? "one shared" : "per-stream");
      const double base = Median(qps[0]);
      for (size_t i = 0; i < counts.size(); ++i) {
        const double m = Median(qps[i]);
        std::printf("    N=%-3d %10.0f queries/s   x%.2f of N=1   (rounds:", counts[i], m, m / base);
        for (double q : qps[i]) std::printf(" %.0f", q);
        std::printf(")\n");
      }
      std::fflush(stdout);
    }
  }
}

// --- c. server lateness -----------------------------------------------------------------------

struct Lateness {
  double p50_us, p99_us, max_us, offered_qps, achieved_qps, late;
};

Lateness ServerRun(double qps, int workers, double seconds, uint64_t seed) {
  auto s = MakeSessions("null:spin?us=0", workers);
  edgebench::ServerPlan plan;
  plan.workers = workers;
  plan.target_qps = qps;
  plan.seed = seed;
  plan.warmup_queries = 20;
  plan.min_queries = 100;
  plan.min_duration_ns = static_cast<int64_t>(seconds * 1e9);
  plan.max_duration_ns = plan.min_duration_ns * 4;
  plan.max_queries = 100'000'000;
  const auto r = edgebench::RunServer(s->raw, s->pool, plan);
  CheckOk(r, "server");
  const auto& m = r.measured;
  std::vector<int64_t> delay(m.latency_ns.size());
  for (size_t i = 0; i < delay.size(); ++i) delay[i] = m.latency_ns[i] - m.service_ns[i];
  const auto summary = edgebench::SummarizeServer(m.issue_ns, m.latency_ns, m.service_ns, r.measured_wall_ns,
                                                  r.not_issued);
  std::sort(delay.begin(), delay.end());
  return {static_cast<double>(*edgebench::NearestRankPercentile(delay, 0.50)) / 1e3,
          static_cast<double>(*edgebench::NearestRankPercentile(delay, 0.99)) / 1e3,
          static_cast<double>(delay.back()) / 1e3, summary.offered_qps, summary.achieved_qps,
          static_cast<double>(summary.late_queries)};
}

void Server(int rounds, double seconds) {
  std::printf("\n== c. server scheduler lateness: null:spin?us=0, %.2f s a run, %d rounds\n", seconds, rounds);
  std::printf("  start delay = actual start - scheduled arrival; with a 0 us service it is the harness's\n"
              "  own lateness (the rare query that finds its worker still busy adds queueing)\n");
  for (const int workers : {1, 2}) {
    for (const double qps : {1000.0, 10000.0}) {
      std::vector<double> p50, p99, max, offered, achieved, late;
      for (int r = 0; r < rounds; ++r) {
        const Lateness l = ServerRun(qps, workers, seconds, static_cast<uint64_t>(r + 1));
        p50.push_back(l.p50_us);
        p99.push_back(l.p99_us);
        max.push_back(l.max_us);
        offered.push_back(l.offered_qps);
        achieved.push_back(l.achieved_qps);
        late.push_back(l.late);
      }
      std::printf("  server:%-6.0f --concurrency %d: start delay p50 %6.1f us, p99 %6.1f us, max %7.1f us;"
                  " offered %.0f, achieved %.0f QPS (%.2f); late (>100 us) %.0f   p99 goal < 50 us: %s\n",
                  qps, workers, Median(p50), Median(p99), Median(max), Median(offered), Median(achieved),
                  Median(achieved) / Median(offered), Median(late), Median(p99) < 50 ? "met" : "NOT met");
      std::printf("      p99 by round:");
      for (double v : p99) std::printf(" %.1f", v);
      std::printf(" us\n");
      std::fflush(stdout);
    }
  }
}

// --- d. camera lateness -----------------------------------------------------------------------

// 30 cameras at 30 fps on null:spin?us=0: a frame's latency (arrival to completion) is the
// harness's lateness in waking the stream for it, plus the clock reads.
Lateness CameraRun(int streams, double fps, double seconds) {
  auto s = MakeSessions("null:spin?us=0", streams);
  edgebench::RunSettings settings;
  settings.warmup_queries = streams * 5;
  settings.min_queries = 1;
  settings.min_duration_ms = static_cast<int64_t>(seconds * 1000);
  settings.max_duration_ms = settings.min_duration_ms * 4;
  settings.max_queries = 100'000'000;
  const auto plan = edgebench::PlanCameras(streams, fps, 1, settings);
  const auto r = edgebench::RunCameras(s->raw, s->pool, plan);
  CheckOk(r, "camera");
  std::vector<int64_t> lateness = r.measured.latency_ns;
  int64_t dropped = 0, delivered = 0;
  for (size_t i = 0; i < r.frames_delivered.size(); ++i) {
    delivered += r.frames_delivered[i];
    dropped += r.frames_dropped[i];
  }
  std::sort(lateness.begin(), lateness.end());
  return {static_cast<double>(*edgebench::NearestRankPercentile(lateness, 0.50)) / 1e3,
          static_cast<double>(*edgebench::NearestRankPercentile(lateness, 0.99)) / 1e3,
          static_cast<double>(lateness.back()) / 1e3, static_cast<double>(delivered),
          static_cast<double>(lateness.size()), static_cast<double>(dropped)};
}

void Camera(int rounds, double seconds) {
  std::printf("\n== d. camera frame lateness: camera:30@30fps on null:spin?us=0, %.2f s a run, %d rounds\n",
              seconds, rounds);
  std::printf("  lateness = completion - the frame's arrival; with a 0 us query it is the harness's own\n");
  std::vector<double> p50, p99, max, dropped;
  for (int r = 0; r < rounds; ++r) {
    const Lateness l = CameraRun(30, 30, seconds);
    p50.push_back(l.p50_us);
    p99.push_back(l.p99_us);
    max.push_back(l.max_us);
    dropped.push_back(l.late);
  }
  std::printf("  camera:30@30fps: lateness p50 %6.1f us, p99 %6.1f us, max %7.1f us; dropped %.0f   p99 goal < 50 us: %s\n",
              Median(p50), Median(p99), Median(max), Median(dropped), Median(p99) < 50 ? "met" : "NOT met");
  std::printf("      p99 by round:");
  for (double v : p99) std::printf(" %.1f", v);
  std::printf(" us\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 5;
  int64_t queries = 1'000'000;
  double seconds = 0.5;
  bool overhead = false, scaling = false, server = false, camera = false;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--rounds") && has_value) rounds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--queries") && has_value) queries = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--seconds") && has_value) seconds = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "overhead")) overhead = true;
    else if (!std::strcmp(argv[i], "scaling")) scaling = true;
    else if (!std::strcmp(argv[i], "server")) server = true;
    else if (!std::strcmp(argv[i], "camera")) camera = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--rounds N] [--queries N] [--seconds S] [overhead] [scaling] [server] [camera]\n"
                   "unknown or incomplete argument '%s'\n",
                   argv[0], argv[i]);
      return 2;
    }
  }
  if (rounds < 1 || queries < 1 || !(seconds > 0)) {
    std::fprintf(stderr, "--rounds, --queries and --seconds must be positive\n");
    return 2;
  }
  if (!overhead && !scaling && !server && !camera) overhead = scaling = server = camera = true;
  double load[3] = {0, 0, 0};
  if (::getloadavg(load, 3) > 0) std::printf("load average at start: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  if (overhead) Overhead(rounds, queries);
  if (scaling) Scaling(rounds, seconds);
  if (server) Server(rounds, seconds * 4);
  if (camera) Camera(rounds, seconds * 4);
  if (::getloadavg(load, 3) > 0) std::printf("load average at end: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  return 0;
}
