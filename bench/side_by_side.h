// What the overhead benches share (bench/*_overhead_bench.cc): a runtime's bare loop and
// `edgebench run` on the same model, alternated for several rounds so both see the same machine
// noise, and the ratio of their median p50 latencies (goal: within 2%).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace edgebench::bench {

// MODEL [--threads N] [--queries N] [--rounds N] and the bench's own options (--NAME VALUE, each
// with its default in `options`).
struct SideBySideArgs {
  std::string model;
  int threads = 2;
  int queries = 200;
  int rounds = 5;
  std::map<std::string, std::string> options;
};

// The arguments, or exit(2) with `usage` when the model is missing or an option is unknown.
inline SideBySideArgs ParseSideBySideArgs(int argc, char** argv, const std::string& usage,
                                          std::map<std::string, std::string> options = {}) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s %s\n", argv[0], usage.c_str());
    std::exit(2);
  }
  SideBySideArgs args;
  args.model = argv[1];
  args.options = std::move(options);
  for (int i = 2; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 >= argc || flag.rfind("--", 0) != 0) {
      std::fprintf(stderr, "%s: '%s' wants a value\nusage: %s %s\n", argv[0], flag.c_str(), argv[0], usage.c_str());
      std::exit(2);
    }
    const std::string value = argv[i + 1];
    if (flag == "--threads") args.threads = std::atoi(value.c_str());
    else if (flag == "--queries") args.queries = std::atoi(value.c_str());
    else if (flag == "--rounds") args.rounds = std::atoi(value.c_str());
    else if (args.options.count(flag.substr(2))) args.options[flag.substr(2)] = value;
    else {
      std::fprintf(stderr, "%s: unknown option %s\nusage: %s %s\n", argv[0], flag.c_str(), argv[0], usage.c_str());
      std::exit(2);
    }
  }
  return args;
}

inline int64_t MedianOf(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// `edgebench run MODEL --target TARGET` with the bench's warmup (20) and `queries` measured
// queries, and `flags` added: the record's p50, or exit(1) with edgebench's error.
inline int64_t EdgebenchRunP50(const std::string& model, const std::string& target, int queries,
                               const std::string& flags = "") {
  const std::string command = std::string(EDGEBENCH_EXECUTABLE) + " run '" + model +
                              "' --format jsonl --warmup 20 --min-duration 0 --min-queries " +
                              std::to_string(queries) + (flags.empty() ? "" : " " + flags) + " --target '" +
                              target + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string output;
  char buffer[65536];
  size_t n;
  while (pipe != nullptr && (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  if (pipe != nullptr) ::pclose(pipe);
  const auto record = nlohmann::json::parse(output, nullptr, false);
  if (record.is_discarded() || record.value("status", "") != "ok") {
    std::fprintf(stderr, "edgebench run failed: %s\n",
                 record.is_discarded() || !record.contains("failure") ? output.c_str()
                                                                      : record["failure"]["error"].dump().c_str());
    std::exit(1);
  }
  return record["summary"]["percentiles_ns"]["p50"].get<int64_t>();
}

struct SideBySide {
  int64_t bare_p50_ns = 0;       // the median over the rounds
  int64_t edgebench_p50_ns = 0;  // the same
  double ratio = 0;              // edgebench / bare
};

// `rounds` rounds of both, alternating which goes first so drift in machine state hits both;
// prints each round.
inline SideBySide RunSideBySide(int rounds, const std::function<int64_t()>& bare,
                                const std::function<int64_t()>& edgebench) {
  std::vector<int64_t> bare_p50, edgebench_p50;
  for (int r = 0; r < rounds; ++r) {
    if (r % 2 == 0) {
      bare_p50.push_back(bare());
      edgebench_p50.push_back(edgebench());
    } else {
      edgebench_p50.push_back(edgebench());
      bare_p50.push_back(bare());
    }
    std::printf("round %d: bare p50 %.3f ms, edgebench p50 %.3f ms\n", r + 1, bare_p50.back() / 1e6,
                edgebench_p50.back() / 1e6);
    std::fflush(stdout);
  }
  SideBySide result;
  result.bare_p50_ns = MedianOf(bare_p50);
  result.edgebench_p50_ns = MedianOf(edgebench_p50);
  result.ratio = static_cast<double>(result.edgebench_p50_ns) / static_cast<double>(result.bare_p50_ns);
  return result;
}

// The medians, `bare_loop` naming what the bare loop calls, and the ratio against the goal.
inline void PrintSideBySide(const SideBySide& result, const std::string& bare_loop) {
  std::printf("median p50: bare %s %.3f ms, edgebench run %.3f ms\n", bare_loop.c_str(), result.bare_p50_ns / 1e6,
              result.edgebench_p50_ns / 1e6);
  std::printf("ratio edgebench / bare p50: %.4f (goal: within 2%%: %s)\n", result.ratio,
              std::abs(result.ratio - 1.0) <= 0.02 ? "met" : "NOT met");
}

}  // namespace edgebench::bench
