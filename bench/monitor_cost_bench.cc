// What the device monitor costs the measurement: `edgebench run` on the same model and target
// with the sampler off (--no-monitor) and on (--sample-hz 10, and a heavier rate), alternated
// round by round so both see the same machine noise. Prints each round's p50s and the median of
// the per-round ratios on/off (goal at 10 Hz: within 1%, issue 10 "Cost"). On a shared machine
// the rounds swing by more than that, so it first measures what the sampler can take at most:
// the CPU time of one sample of every sensor here (thread CPU clock), times the rate, as a
// share of one core.
//
// With --versus FLAGS, the third setting is the 10 Hz monitor with FLAGS added (--memory-map:
// what the memory map's snapshots at each stage and phase boundary cost the measured phase), and
// its ratio is against 10 Hz alone.
//
//   monitor_cost_bench MODEL [--target T] [--rounds N] [--seconds S] [--heavy-hz HZ] [--versus FLAGS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <time.h>

#include <nlohmann/json.hpp>

#include "monitor/device_sensors.h"

namespace {

struct Run {
  double p50_ms = 0;
  size_t samples = 0;
};

// One `edgebench run` case; its p50 and how many monitor samples its record holds.
Run RunOnce(const std::string& model, const std::string& target, double seconds, const std::string& monitor) {
  const std::string command = std::string(EDGEBENCH_EXECUTABLE) + " run '" + model + "' -t '" + target +
                              "' --warmup 20 --min-duration " + std::to_string(static_cast<int>(seconds * 1000)) +
                              " --max-cv 100 " + monitor + " --format json 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) {
    std::perror("popen");
    std::exit(1);
  }
  std::string output;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  ::pclose(pipe);
  const auto records = nlohmann::json::parse(output, nullptr, false);
  if (records.is_discarded() || !records.is_array() || records.empty() || records[0]["status"] != "ok") {
    std::fprintf(stderr, "monitor_cost_bench: `%s` did not measure:\n%s\n", command.c_str(), output.c_str());
    std::exit(1);
  }
  const auto& r = records[0];
  Run run;
  run.p50_ms = r["summary"]["percentiles_ns"]["p50"].get<double>() / 1e6;
  if (r.contains("monitor")) run.samples = r["monitor"]["t_ns"].size();
  return run;
}

int64_t ThreadCpuNs() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// CPU time of one sample of every sensor this machine has, in microseconds.
double SampleCpuMicroseconds(size_t* channels) {
  edgebench::SensorSet sensors = edgebench::OpenDeviceSensors(edgebench::SensorRoots{});
  *channels = sensors.channels().size();
  constexpr int kSamples = 2000;
  int64_t t = 0;
  const int64_t start = ThreadCpuNs();
  for (int i = 0; i < kSamples; ++i) sensors.Sample(t += 100'000'000);
  return static_cast<double>(ThreadCpuNs() - start) / kSamples / 1000.0;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: monitor_cost_bench MODEL [--target T] [--rounds N] [--seconds S] [--heavy-hz HZ]\n");
    return 2;
  }
  std::string model = argv[1], target = "ort:cpu?threads=1";
  int rounds = 7;
  double seconds = 3, heavy_hz = 100;
  std::string versus;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--target")) target = argv[i + 1];
    else if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--heavy-hz")) heavy_hz = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--versus")) versus = argv[i + 1];
  }
  const std::string heavy = versus.empty() ? "--sample-hz " + std::to_string(heavy_hz) : "--sample-hz 10 " + versus;
  size_t channels = 0;
  const double sample_us = SampleCpuMicroseconds(&channels);
  std::printf("one sample of %zu channels: %.1f us of CPU; at 10 Hz %.3f%% of one core, at %.0f Hz %.3f%%\n",
              channels, sample_us, sample_us * 10 / 1e4, heavy_hz, sample_us * heavy_hz / 1e4);
  std::printf("%s on %s, %d rounds of %.1f s per setting, alternated\n", model.c_str(), target.c_str(), rounds,
              seconds);
  std::printf("%5s %12s %12s %12s %8s %8s %10s\n", "round", "off p50 ms", "10Hz p50 ms",
              versus.empty() ? "heavy p50 ms" : "+flags p50", "10Hz/off", versus.empty() ? "hvy/off" : "+fl/10Hz",
              "samples");
  std::vector<double> ratio10, ratio_heavy;
  for (int round = 0; round < rounds; ++round) {
    // The order rotates, so that no setting always runs first after a cold start.
    Run off, on10, on_heavy;
    for (int k = 0; k < 3; ++k) {
      switch ((round + k) % 3) {
        case 0: off = RunOnce(model, target, seconds, "--no-monitor"); break;
        case 1: on10 = RunOnce(model, target, seconds, "--sample-hz 10"); break;
        case 2: on_heavy = RunOnce(model, target, seconds, heavy); break;
      }
    }
    ratio10.push_back(on10.p50_ms / off.p50_ms);
    ratio_heavy.push_back(on_heavy.p50_ms / (versus.empty() ? off.p50_ms : on10.p50_ms));
    std::printf("%5d %12.4f %12.4f %12.4f %8.4f %8.4f %4zu/%-5zu\n", round + 1, off.p50_ms, on10.p50_ms,
                on_heavy.p50_ms, ratio10.back(), ratio_heavy.back(), on10.samples, on_heavy.samples);
  }
  if (!versus.empty()) {
    std::printf("median p50 ratio, sampling on / off: 10 Hz %.4f; 10 Hz with %s / 10 Hz: %.4f (goal: within "
                "0.99..1.01)\n",
                Median(ratio10), versus.c_str(), Median(ratio_heavy));
    return 0;
  }
  std::printf("median p50 ratio, sampling on / off: 10 Hz %.4f, %.0f Hz %.4f (goal at 10 Hz: within 0.99..1.01)\n",
              Median(ratio10), heavy_hz, Median(ratio_heavy));
  return 0;
}
