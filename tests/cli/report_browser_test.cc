// `edgebench report` in a real browser (issue 15): stores of every kind of record made by real
// runs (the null backend's scenarios, a soak beside a fake board's sensors, a shape sweep, a
// tiny GGUF's LLM runs and its per-token drift, an accuracy pass), one report from them, opened
// in Debian's headless Chromium. The page must log nothing to the console (the renderer logs
// only errors; a CSP violation or an uncaught exception logs too), make no request (the net
// log), and draw every section and every chart with the series the records call for. The
// report and a screenshot stay in build/test-artifacts/.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "../test_util.h"
#include "report/html/report_data.h"
#include "report/html/report_page.h"
#include "report/store.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;
using testing::TestModel;

constexpr const char* kChromium = "/usr/bin/chromium-headless-shell";

std::string ArtifactsDir() { return EDGEBENCH_TEST_ARTIFACTS_DIR; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A board's sysfs for the soak: a thermal zone swinging across its passive trip point (so the
// monitor sees throttling), one core's frequency, and a RAPL package drawing 2 W, written by a
// thread while it lives. proc/ is the machine's own, so the worker's memory is read too.
class FakeBoard {
 public:
  explicit FakeBoard(const std::string& root) : root_(root) {
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ + "/sys/class/thermal/thermal_zone0");
    std::filesystem::create_directories(root_ + "/sys/devices/system/cpu/cpu0/cpufreq");
    std::filesystem::create_directories(root_ + "/sys/class/powercap/intel-rapl:0");
    std::filesystem::create_directory_symlink("/proc", root_ + "/proc");
    Put("sys/class/thermal/thermal_zone0/type", "cpu-thermal");
    Put("sys/class/thermal/thermal_zone0/trip_point_0_temp", "85000");
    Put("sys/class/thermal/thermal_zone0/trip_point_0_type", "passive");
    Put("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "2400000");
    Put("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq", "600000");
    Put("sys/class/powercap/intel-rapl:0/name", "package-0");
    Put("sys/class/powercap/intel-rapl:0/max_energy_range_uj", "262143328850");
    start_ = std::chrono::steady_clock::now();
    Update();
    writer_ = std::thread([this] {
      while (!stop_) {
        Update();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    });
  }
  ~FakeBoard() {
    stop_ = true;
    writer_.join();
    std::filesystem::remove_all(root_);
  }

 private:
  // Replaced by rename: sysfs never shows a half-written value.
  void Put(const std::string& relative, const std::string& value) {
    const std::string path = root_ + "/" + relative;
    std::ofstream(path + ".tmp") << value << "\n";
    std::filesystem::rename(path + ".tmp", path);
  }
  void Update() {
    const auto elapsed = std::chrono::steady_clock::now() - start_;
    const double s = std::chrono::duration<double>(elapsed).count();
    const double phase = std::fmod(s, 2.0) / 2.0;  // a 2 s cycle: 80 C up to 90 C and back
    const double temp_mc = 80000 + 10000 * (phase < 0.5 ? 2 * phase : 2 - 2 * phase);
    Put("sys/class/thermal/thermal_zone0/temp", std::to_string(static_cast<long long>(temp_mc)));
    // The clock drops while the zone is over its trip point, as a governor's would.
    Put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
        temp_mc > 85000 ? "1200000" : "2400000");
    Put("sys/class/powercap/intel-rapl:0/energy_uj",
        std::to_string(static_cast<long long>(s * 2e6)));
  }

  std::string root_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> stop_{false};
  std::thread writer_;
};

struct Chromium {
  int exit_code = -1;
  std::string stdout_text;
  std::vector<std::string> console;        // every console message (CONSOLE lines)
  std::vector<std::string> requests;       // every URL in the net log
};

// Opens `page` in headless Chromium with `action` (--dump-dom or --screenshot=PATH).
Chromium OpenInChromium(const std::string& page, const std::string& action,
                        const std::string& scratch) {
  const std::string log = scratch + ".stderr";
  const std::string net = scratch + ".netlog.json";
  auto r = RunCommand(std::string(kChromium) +
                      " --no-sandbox --disable-gpu --hide-scrollbars --enable-logging=stderr --v=0"
                      " --log-net-log=" + net +
                      " --virtual-time-budget=5000 --window-size=1400,12000 " +
                      action + " 'file://" + page + "' 2>" + log);
  Chromium result;
  result.exit_code = r.exit_code;
  result.stdout_text = r.output;
  std::istringstream lines(ReadFile(log));
  for (std::string line; std::getline(lines, line);) {
    if (line.find(":CONSOLE") != std::string::npos) result.console.push_back(line);
  }
  const std::string netlog = ReadFile(net);
  const std::string key = "\"url\":\"";
  for (size_t at = netlog.find(key); at != std::string::npos; at = netlog.find(key, at + 1)) {
    const size_t begin = at + key.size();
    result.requests.push_back(netlog.substr(begin, netlog.find('"', begin) - begin));
  }
  return result;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

struct ChartInDom {
  std::string drawn;
  int series = -1;
  bool svg = false;  // an <svg> with shapes in it
};

// The value of attribute `name` in an opening tag; empty when it has none.
std::string Attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const size_t at = tag.find(key);
  if (at == std::string::npos) return "";
  const size_t begin = at + key.size();
  return tag.substr(begin, tag.find('"', begin) - begin);
}

// The chart containers of the dumped DOM by data-chart id, each with what follows it up to the
// next chart. (String searches, not <regex>: its locale facets would be copy-relocated into the
// test binary and break the llama.cpp plugin that the Registry tests open with RTLD_DEEPBIND.)
std::map<std::string, ChartInDom> ChartsIn(const std::string& dom) {
  std::map<std::string, ChartInDom> charts;
  const std::string open = "<div class=\"chart\"";
  std::vector<std::pair<size_t, std::string>> tags;
  for (size_t at = dom.find(open); at != std::string::npos; at = dom.find(open, at + 1)) {
    tags.push_back({at, dom.substr(at, dom.find('>', at) + 1 - at)});
  }
  auto attribute = Attribute;
  for (size_t i = 0; i < tags.size(); ++i) {
    const size_t end = i + 1 < tags.size() ? tags[i + 1].first : dom.size();
    const std::string inside = dom.substr(tags[i].first, end - tags[i].first);
    ChartInDom chart;
    chart.drawn = attribute(tags[i].second, "data-drawn");
    const std::string series = attribute(tags[i].second, "data-series");
    chart.series = series.empty() ? -1 : std::stoi(series);
    const bool shapes = inside.find("<path") != std::string::npos ||
                        inside.find("<rect") != std::string::npos;
    chart.svg = inside.find("<svg") != std::string::npos && shapes;
    charts[attribute(tags[i].second, "data-chart")] = chart;
  }
  return charts;
}

// The charts and series counts the records call for (docs/report.md says what each draws).
std::map<std::string, int> ExpectedCharts(const std::vector<Record>& records) {
  // Latency boxes and warmup curves: one chart per model.
  std::map<std::string, int> expected;
  // Trade-offs: recommend's configurations of x (ok, VALID single-stream records with a p99 and
  // a peak RSS); a sanitizer build's records are all INVALID, and then there is no scatter.
  int tradeoff_configurations = 0;
  std::map<std::string, int> warmup;
  int memory = 0, soak = 0, memory_maps = 0;
  std::set<std::string> devices, llm_groups, load_groups, shape_models, pipeline_stages;
  int diffusion_cases = 0, vision_cases = 0;
  std::map<std::string, int> race_rounds;  // a tune race's chart: a series per round
  // A mix run's charts: a timeline series per workload beside the others, a CPU series per
  // monitored one and the machine's, a memory series per monitored one.
  struct MixCharts {
    int workloads = 0, monitored = 0;
    bool shared_monitored = false;  // isolation: together: one process's series, drawn once
    bool machine = false;
    bool from_mix = false;         // the mix read the machine itself
    std::set<ChannelKind> device;  // temperature, frequency, power of the machine's series
  };
  std::map<std::string, std::map<int, MixCharts>> mixes;  // by run, then round
  std::vector<std::string> mix_order;
  std::set<std::string> roofs, peaks, phases;  // the roofline chart: a series each
  for (const Record& r : records) {
    const bool ok = r.status == CaseStatus::kOk;
    if (ok && r.llm && r.llm->summary.requests > 0 && r.llm->roofline.computed()) {
      const LlmRoofline& roof = r.llm->roofline;
      roofs.insert(std::to_string(roof.bandwidth_gb_per_s) + "/" + std::to_string(roof.bandwidth_threads) + "/" +
                   HostName(r.environment));
      if (roof.compute_peak_gflops > 0) peaks.insert(roof.compute_peak_source);
      if (roof.decode_omitted.empty()) phases.insert("decode");
      if (roof.prefill_gflops > 0) phases.insert("prefill");
    }
    if (ok && !r.llm && r.work && r.summary.count > 0 && r.tensor_roofline.computed()) {
      const TensorRoofline& roof = r.tensor_roofline;
      roofs.insert(std::to_string(roof.bandwidth_gb_per_s) + "/" + std::to_string(roof.bandwidth_threads) + "/" +
                   HostName(r.environment));
      if (roof.compute_peak_gflops > 0) peaks.insert(r.backend + ":" + r.device + " " + roof.precision + " peak");
      phases.insert("query");
    }
    if (r.mix) {
      const std::string run = r.mix->mix + "/" + r.mix->run;
      if (!mixes.count(run)) mix_order.push_back(run);
      MixCharts& m = mixes[run][r.mix->round];
      // The machine's series: the mix's own reading where it kept one, else the first worker's.
      auto device_kinds = [](const MonitorSeries& series) {
        std::set<ChannelKind> device;
        for (const Channel& c : series.channels) {
          if (c.kind == ChannelKind::kTemperature || c.kind == ChannelKind::kFrequency) device.insert(c.kind);
          if (c.kind == ChannelKind::kPower || c.kind == ChannelKind::kEnergy) device.insert(ChannelKind::kPower);
        }
        return device;
      };
      if (r.mix->phase == "mixed" && r.mix->machine && !r.mix->machine->series.t_ns.empty()) {
        m.from_mix = true;
        m.machine = true;
        m.device = device_kinds(r.mix->machine->series);
      }
      if (r.mix->phase == "mixed") {
        ++m.workloads;
        if (r.monitor && !r.monitor->series.t_ns.empty()) {
          const bool shared = r.mix->isolation == "together";
          if (!shared || !m.shared_monitored) ++m.monitored;
          m.shared_monitored = m.shared_monitored || shared;
          bool cpu = false;
          for (const Channel& c : r.monitor->series.channels) cpu = cpu || c.kind == ChannelKind::kCpuUtil;
          if (cpu && !m.machine && !m.from_mix) m.device = device_kinds(r.monitor->series);
          m.machine = m.machine || cpu;
        }
      }
    }
    if (r.tune) {
      int& rounds = race_rounds[r.tune->race];
      rounds = std::max(rounds, r.tune->round + 1);
    }
    if (ok && r.scenario == "single-stream" && !r.measured_ns.empty()) ++warmup[r.model];
    if (ok && r.valid && r.model == "x" && r.scenario == "single-stream" && r.summary.Percentile(0.99) &&
        r.monitor && r.monitor->derived.memory.peak_rss_bytes) {
      ++tradeoff_configurations;
    }
    const bool tensor = r.scenario != "llm" && r.scenario != "accuracy" && r.scenario != "agree";
    if (ok && tensor && r.summary.count > 0 && (!r.measured_ns.empty() || r.measured_histograms)) {
      expected["latency/" + r.model] = 3;
    }
    if (r.monitor && !r.monitor->memory_map.empty()) ++memory_maps;
    if (r.monitor) {
      for (const Channel& c : r.monitor->series.channels) {
        if (c.kind == ChannelKind::kRss && !r.monitor->series.t_ns.empty()) {
          ++memory;
          break;
        }
      }
    }
    if (ok && r.placement.known) {
      const Placement& p = r.placement;
      const bool model_view = p.model_nodes && !p.original_nodes_by_device.empty();
      for (const auto& [device, n] : model_view ? p.original_nodes_by_device : p.nodes_by_device) {
        if (n > 0) devices.insert(device);
      }
    }
    const std::string curve = r.model + " " + r.requested_target;
    if (ok && r.scenario.rfind("multi-stream", 0) == 0) load_groups.insert(curve + " streams");
    if (ok && r.scenario.rfind("server:", 0) == 0) load_groups.insert(curve + " rate");
    if (ok && r.llm && !r.llm->summary.vision) llm_groups.insert(r.model + " " + r.requested_target);
    if (ok && r.llm && r.llm->summary.vision) ++vision_cases;
    if (!r.dims.empty()) shape_models.insert(r.model);
    if (ok && r.pipeline) {
      for (const PipelineStageRecord& s : r.pipeline->stages) pipeline_stages.insert(s.name);
      if (r.pipeline->diffusion) ++diffusion_cases;
    }
    if (ok && r.scenario.rfind("soak", 0) == 0) {
      std::set<ChannelKind> kinds;
      for (const Channel& c : r.monitor->series.channels) {
        if (c.kind == ChannelKind::kEnergy) kinds.insert(ChannelKind::kPower);
        if (c.kind == ChannelKind::kTemperature || c.kind == ChannelKind::kFrequency ||
            c.kind == ChannelKind::kPower) {
          kinds.insert(c.kind);
        }
      }
      expected["soak/" + std::to_string(soak) + "-windows"] = 3;
      expected["soak/" + std::to_string(soak) + "-device"] = static_cast<int>(kinds.size());
      ++soak;
    }
  }
  if (tradeoff_configurations >= 2) expected["tradeoffs/x"] = 2;
  for (const auto& [model, curves] : warmup) {
    expected["warmup/" + model] = std::min<int>(curves, kMaxCurvesPerChart);
  }
  expected["memory/rss"] = std::min<int>(memory, kMaxCurvesPerChart);
  // --memory-map: a chart per case, a series per group of the map.
  for (int k = 0; k < std::min(memory_maps, 12); ++k) expected["memory/map/" + std::to_string(k)] = 7;
  expected["placement/share"] = static_cast<int>(devices.size());
  expected["pipelines/share"] = static_cast<int>(pipeline_stages.size());
  if (diffusion_cases > 0) expected["pipelines/steps"] = diffusion_cases;
  for (size_t i = 0; i < load_groups.size(); ++i) expected["load/" + std::to_string(i)] = 2;
  for (size_t i = 0; i < shape_models.size(); ++i) expected["shapes/" + std::to_string(i)] = 1;
  expected["llm/prompt"] = 2 * static_cast<int>(llm_groups.size());
  expected["llm/concurrency"] = 2 * static_cast<int>(llm_groups.size());
  if (vision_cases > 0) expected["vlm/ttft"] = 5;  // a series per stage of TTFT
  for (const auto& [race, rounds] : race_rounds) expected["tune/" + race] = rounds;
  for (size_t i = 0; i < mix_order.size(); ++i) {
    for (const auto& [round, m] : mixes[mix_order[i]]) {
      const std::string prefix = "mixes/" + std::to_string(i) + "-" + std::to_string(round);
      if (m.workloads == 0) continue;
      expected[prefix + "-timeline"] = m.workloads;
      if (m.monitored + (m.machine ? 1 : 0) > 0) expected[prefix + "-cpu"] = m.monitored + (m.machine ? 1 : 0);
      if (m.monitored > 0) expected[prefix + "-memory"] = m.monitored;
      if (!m.device.empty()) expected[prefix + "-device"] = static_cast<int>(m.device.size());
    }
  }
  if (!phases.empty()) expected["roofline/chart"] = static_cast<int>(roofs.size() + peaks.size() + phases.size());
  return expected;
}

// Text a hostile colleague or fleet host could put in any string of a record: markup that would
// run script, load an image or leave a marker element if it reached the page as markup.
constexpr const char* kHostile =
    "<b class=hostile-marker>\"'&<img src=x onerror=\"console.error('xss')\">"
    "<script>console.error('xss')</script><svg onload=\"console.error('xss')\">";

size_t HostileCount(const nlohmann::json& record_json) {
  auto read = RecordFromJson(record_json);
  if (!read.ok()) return 0;
  const std::string text = RecordToJson(read.value()).dump();
  size_t n = 0;
  for (size_t at = text.find("hostile-marker"); at != std::string::npos; at = text.find("hostile-marker", at + 1)) ++n;
  return n;
}

// Appends kHostile to every string of a record (values and object keys) that the record still
// reads back with: a word the reader checks (a status, a schema, encoded samples) keeps its own.
// Whether a string reads back is tried once per place in the record, array indices left out
// ("llm/measured/[]/..."), and an object's keys once for all: the reader treats every item of an
// array alike and every key of a map alike, and reading a large record back once per string took
// minutes under AddressSanitizer.
class Poisoner {
 public:
  explicit Poisoner(nlohmann::json& root) : root_(root) {}
  void Poison() { Visit(root_, ""); }

 private:
  // Applies `apply`; keeps it when the record reads back with one more marker, else `undo`es it.
  template <typename Apply, typename Undo>
  void Try(const std::string& place, Apply apply, Undo undo) {
    if (auto known = decided_.find(place); known != decided_.end()) {
      if (known->second) {
        apply();
        stale_ = true;
      }
      return;
    }
    if (stale_) count_ = HostileCount(root_);
    apply();
    const size_t now = HostileCount(root_);
    const bool reads_back = now > count_;
    if (reads_back) {
      count_ = now;
    } else {
      undo();
    }
    stale_ = false;
    decided_[place] = reads_back;
  }

  void Visit(nlohmann::json& node, const std::string& place) {
    if (node.is_string()) {
      const std::string original = node.get<std::string>();
      Try(place, [&] { node = original + kHostile; }, [&] { node = original; });
    } else if (node.is_array()) {
      for (auto& item : node) Visit(item, place + "/[]");
    } else if (node.is_object()) {
      std::vector<std::string> keys;
      for (auto it = node.begin(); it != node.end(); ++it) keys.push_back(it.key());
      for (const std::string& key : keys) {
        Visit(node[key], place + "/" + key);
        // A key: an object is a struct (its field names do not read back when changed) or a map
        // (its keys all do), tried once per place with its first key.
        Try(place + "/#keys", [&] {
          nlohmann::json value = node[key];
          node.erase(key);
          node[key + kHostile] = std::move(value);
        }, [&] {
          nlohmann::json value = node[key + kHostile];
          node.erase(key + kHostile);
          node[key] = std::move(value);
        });
      }
    }
  }

  nlohmann::json& root_;
  size_t count_ = 0;
  bool stale_ = true;
  std::map<std::string, bool> decided_;
};

// Runs one command of the fixture; its output is kept for the message when it fails.
void Make(const std::string& what, const std::string& command) {
  auto r = RunCommand(command + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << what << ":\n" << command << "\n" << r.output.substr(0, 3000);
}

TEST(ReportBrowser, AReportOfEveryKindOfRecordDrawsEverySectionOfflineWithoutAConsoleMessage) {
  ASSERT_TRUE(std::filesystem::exists(kChromium))
      << kChromium
      << " is missing: the devroot installs chromium-headless-shell (scripts/devroot.packages)";
  const std::string scratch = testing::TempFilePath("report_browser_", "work");
  std::filesystem::remove_all(scratch);
  std::filesystem::create_directories(scratch);
  const std::string loads = scratch + "/loads", others = scratch + "/others", races = scratch + "/races";
  const std::string eb = Executable();
  const std::string quick = " --warmup 30 --min-queries 200 --min-duration 300 --max-duration 3000";
  const std::string gguf = TestModel("llama-tiny.gguf");
  const std::string llm_target = " --target 'llamacpp:cpu?threads=1'";
  // This machine's limits, measured small into a cache of the test's own: the llm records carry
  // a roofline (lockstep) or say why not (serving load).
  ::setenv("EDGEBENCH_CACHE", (scratch + "/cache").c_str(), 1);
  ASSERT_NO_FATAL_FAILURE(Make("machine limits", eb + " devices --limits --allow-busy --array-mib 4 --passes 2 --peak-gflops 20 --no-compute"));

  // Store 1: single-stream and multi-stream curves, a server peak search, a shape sweep.
  ASSERT_NO_FATAL_FAILURE(Make("single- and multi-stream",
                               eb + " run x -t 'null:cpu?us=300'" + quick +
                                   " --scenario single-stream,multi-stream:2,multi-stream:4"
                                   " --out " + loads));
  ASSERT_NO_FATAL_FAILURE(Make("server peak search",
                               eb + " run x -t 'null:sleep?us=1000' --scenario server:200"
                                    " --find-peak --p99-bound-ms 50 --warmup 0 --min-queries 100"
                                    " --min-duration 300 --max-duration 1500 --out " + loads));
  // A pipeline of host stages and a null model (docs/pipelines.md): its stage shares.
  const std::string pipeline = scratch + "/pipeline.yaml";
  std::ofstream(pipeline) << "name: frames\ninput: /usr/lib/python3/dist-packages/skimage/data/astronaut.png\n"
                             "stages:\n  - {name: decode, kind: decode_image}\n"
                             "  - {name: resize, kind: preprocess, preprocess: \"resize=4x4\"}\n"
                             "  - {name: model, model: pipeline.yaml, targets: [\"null:sleep?input=1x4x4x3&us=200\"]}\n";
  ASSERT_NO_FATAL_FAILURE(Make("pipeline", eb + " run " + pipeline + " --warmup 2 --min-queries 30"
                                               " --min-duration 100 --out " + loads));
  // A diffusion (docs/diffusion.md) with its image: the per-step chart and the picture.
  ASSERT_NO_FATAL_FAILURE(Make("diffusion", eb + " run " + std::string(EDGEBENCH_SOURCE_DIR) +
                                                "/tests/models/diffusion/diffusion.yaml --target ort:cpu --steps 2"
                                                " --warmup 0 --min-queries 2 --min-duration 0 --save-images " +
                                                scratch + "/images --out " + loads));
  ASSERT_NO_FATAL_FAILURE(Make("shape sweep",
                               eb + " shapes none --target 'null:sleep?us=50&dynamic=true'"
                                    " --dim batch=1,2,4 --warmup 2 --min-queries 20"
                                    " --min-duration 0 --out " + loads));
  // ONNX's node tests on ONNX Runtime, one answer planted wrong: the conformance matrix.
  ASSERT_NO_FATAL_FAILURE(Make("conformance", "EDGEBENCH_CONFORMANCE_PLANT=wrong:test_abs " + eb +
                                                  " conformance --cases " + TestModel("onnx-node-tests") +
                                                  " --target ort:cpu --ops test_abs,test_gather_0 --out " + loads));
  // Store 2: a soak beside the fake board, LLM runs and drift, an accuracy pass.
  {
    FakeBoard board(scratch + "/board");
    ASSERT_NO_FATAL_FAILURE(Make("soak", eb + " run x -t 'null:sleep?us=500' --scenario soak:4s --memory-map"
                                              " --window 500ms --sample-hz 50 --sysfs-root " +
                                              scratch + "/board --out " + others));
  }
  ASSERT_NO_FATAL_FAILURE(Make("llm against prompt length",
                               eb + " llm " + gguf + llm_target +
                                   " --prompt 8,32 --gen 4 --repeat 3 --warmup 1 --out " + others));
  ASSERT_NO_FATAL_FAILURE(Make("llm against concurrency",
                               eb + " llm " + gguf + llm_target +
                                   " --concurrency 2 --prompt 8 --gen 4 --repeat 4 --warmup 1"
                                   " --out " + others));
  ASSERT_NO_FATAL_FAILURE(Make("vision-language requests",
                               eb + " llm " + gguf + llm_target + " --mmproj " + TestModel("vlm-tiny-mmproj.gguf") +
                                   " --image " + TestModel("vlm-photo.png") +
                                   " --prompt-text 'Describe it.' --gen 3 --repeat 2 --warmup 0 --out " + others));
  ASSERT_NO_FATAL_FAILURE(Make("token drift", eb + " drift --reference " + gguf + " --candidate " +
                                                  gguf + " --random-prompts 2 --max-tokens 8"
                                                  " --out " + others));
  // A mix (docs/mixes.md): a camera workload beside a steady one, each alone and then together,
  // in two rounds: a shared timeline per round and the interference table.
  const std::string mix_workloads = "workloads:\n"
                                    "  - name: cam\n    model: " + TestModel("drift_mlp_other.onnx") + "\n"
                                    "    target: null:sleep?us=2000\n    scenario: camera:2@50fps\n"
                                    "  - name: steady\n    model: " + TestModel("drift_mlp_other.onnx") + "\n"
                                    "    target: null:sleep?us=1000\n    scenario: single-stream\n";
  const std::string mix = scratch + "/mix.yaml";
  std::ofstream(mix) << "name: box\nduration: 1s\nrounds: 2\n" << mix_workloads;
  ASSERT_NO_FATAL_FAILURE(Make("mix", eb + " run " + mix + " --out " + others));
  // The same two workloads sharing one process: its CPU and memory drawn once.
  const std::string shared_mix = scratch + "/shared-mix.yaml";
  std::ofstream(shared_mix) << "name: shared-box\nduration: 1s\nisolation: together\n" << mix_workloads;
  ASSERT_NO_FATAL_FAILURE(Make("shared-mix", eb + " run " + shared_mix + " --out " + others));
  ASSERT_NO_FATAL_FAILURE(Make("accuracy", eb + " accuracy " +
                                               TestModel("fashion/fashion_softmax.json") +
                                               " --target ort:cpu --limit 300 --out " + others));
  // Two more configurations of x for the trade-offs scatter (recommend's answer for model x:
  // p99 against peak RSS), in two rounds for the section across rounds; --max-cv 10 and
  // --allow-busy keep a busy machine from making them INVALID, which would leave them out.
  ASSERT_NO_FATAL_FAILURE(Make("configurations to trade off",
                               eb + " run x -t 'null:sleep?us=1000,null:sleep?us=2000'" + quick +
                                   " --rounds 2 --max-cv 10 --allow-busy --out " + loads));

  // Store 3: a tuning race over three configurations of known latency, measured as another host
  // of a fleet (EDGEBENCH_HOST, as `edgebench fleet` sets it): the hosts section compares them.
  ASSERT_NO_FATAL_FAILURE(Make("tune race", "EDGEBENCH_HOST=fleet-x " + eb + " tune x --space 'target=null:sleep;us=300,900,2500;jitter_us=50'"
                                                 " --objective p50 --queries 60 --rounds 3 --warmup 2 --out " + races));

  std::filesystem::create_directories(ArtifactsDir());
  const std::string page = ArtifactsDir() + "/report.html";
  auto report = RunCommand(eb + " report " + loads + " " + others + "/results.jsonl " + races +
                           " --title 'edgebench report: browser test' -o " + page +
                           " 2>&1");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(report.output.find(page + " ("), std::string::npos) << report.output;
  const auto size = std::filesystem::file_size(page);
  std::printf("report: %s, %ju bytes\n", page.c_str(), static_cast<uintmax_t>(size));
  EXPECT_LT(size, 4u * 1024 * 1024) << "the data is meant to be reduced, not raw samples";

  std::vector<Record> records;
  for (const std::string& store : {loads + "/results.jsonl", others + "/results.jsonl", races + "/results.jsonl"}) {
    auto read = ReadRecords(store);
    ASSERT_TRUE(read.ok()) << read.error();
    records.insert(records.end(), read.value().begin(), read.value().end());
  }

  // The net-log check can see a request: a page without the policy that makes one.
  const std::string control = scratch + "/control.html";
  std::ofstream(control) << "<html><body><img src=\"http://127.0.0.1:9/x.png\"></body></html>";
  const Chromium probe = OpenInChromium(control, "--dump-dom", scratch + "/control");
  ASSERT_EQ(probe.requests.size() > 0, true)
      << "the net log shows no request even for a page that makes one";

  const Chromium dom = OpenInChromium(page, "--dump-dom", scratch + "/dom");
  ASSERT_EQ(dom.exit_code, 0);
  EXPECT_TRUE(dom.console.empty()) << "console messages:\n" << Joined(dom.console);
  EXPECT_TRUE(dom.requests.empty()) << "requests from the page:\n" << Joined(dom.requests);
  const std::string& html = dom.stdout_text;
  EXPECT_NE(html.find("data-report-drawn=\"1\""), std::string::npos)
      << "the renderer did not finish";
  EXPECT_EQ(html.find("error-box\">This section"), std::string::npos);
  for (const std::string& id : kReportSectionIds) {
    EXPECT_NE(html.find("<section class=\"report-section\" id=\"" + id + "\""), std::string::npos)
        << "section " << id << " is missing";
  }
  const auto charts = ChartsIn(html);
  const auto expected = ExpectedCharts(records);
  for (const auto& [id, series] : expected) {
    auto it = charts.find(id);
    if (it == charts.end()) {
      ADD_FAILURE() << "chart " << id << " is not in the page";
      continue;
    }
    EXPECT_EQ(it->second.drawn, "1") << id;
    EXPECT_TRUE(it->second.svg) << id << " has no SVG drawing";
    EXPECT_EQ(it->second.series, series) << id;
    EXPECT_GT(series, 0) << id << ": the fixture should give this chart something to draw";
  }
  for (const auto& [id, chart] : charts) {
    EXPECT_TRUE(expected.count(id)) << "chart " << id << " was not expected";
  }
  // The summary lists every record, and names both stores.
  for (const Record& r : records) {
    std::string target;  // as the DOM writes it
    for (char c : r.requested_target) target += c == '&' ? std::string("&amp;") : std::string(1, c);
    EXPECT_NE(html.find(">" + target + "<"), std::string::npos) << target;
  }
  // The hosts section's column of fleet-x, with what the host is (emulated where it was).
  const size_t fleet_x = html.find(">fleet-x (");
  ASSERT_NE(fleet_x, std::string::npos) << "the hosts section's column of fleet-x";
  const std::string fleet_x_header = html.substr(fleet_x, html.find('<', fleet_x) - fleet_x);
  EXPECT_NE(fleet_x_header.find(records.front().environment.architecture), std::string::npos) << fleet_x_header;
  EXPECT_NE(fleet_x_header.find("): p50 / p99 ms"), std::string::npos) << fleet_x_header;
  EXPECT_NE(html.find("title=\"" + loads + "\">loads<"), std::string::npos);
  EXPECT_NE(html.find("title=\"" + others + "/results.jsonl\">others<"), std::string::npos);

  const std::string png = ArtifactsDir() + "/report.png";
  std::filesystem::remove(png);
  const Chromium shot = OpenInChromium(page, "--screenshot=" + png, scratch + "/shot");
  EXPECT_TRUE(shot.console.empty()) << "console messages:\n" << Joined(shot.console);
  ASSERT_TRUE(std::filesystem::exists(png));
  EXPECT_GT(std::filesystem::file_size(png), 100'000u);
  std::printf("screenshot: %s\n", png.c_str());

  // The same records with hostile text in every string the reader keeps, as a store from a
  // colleague or a fleet host could hold them. The page is opened with a driver that hovers
  // every chart's every item; no hostile text may become markup, run, or load anything.
  const std::string hostile_dir = scratch + "/hostile";
  std::filesystem::create_directories(hostile_dir);
  size_t poisoned = 0;
  {
    std::ofstream out(hostile_dir + "/results.jsonl");
    for (const Record& r : records) {
      nlohmann::json json = RecordToJson(r);
      Poisoner(json).Poison();
      poisoned += HostileCount(json);
      out << json.dump() << "\n";
    }
  }
  std::printf("hostile store: %zu strings poisoned in %zu records\n", poisoned, records.size());
  EXPECT_GT(poisoned, 10 * records.size());
  const std::string hostile_page = ArtifactsDir() + "/report-hostile.html";
  auto hostile_report = RunCommand(eb + " report " + hostile_dir + " -o " + hostile_page + " 2>&1");
  ASSERT_EQ(hostile_report.exit_code, 0) << hostile_report.output;
  std::string with_driver = ReadFile(hostile_page);
  const std::string driver = "\n" + ReadFile(std::string(EDGEBENCH_SOURCE_DIR) +
                                             "/tests/cli/data/report_hover_driver.js") + "\n";
  const size_t policy = with_driver.find("script-src ");
  const size_t body = with_driver.find("<body>\n");
  ASSERT_NE(policy, std::string::npos);
  ASSERT_NE(body, std::string::npos);
  with_driver.insert(body + 7, "<script id=\"hover-driver\">" + driver + "</script>\n");
  with_driver.insert(policy + 11, HtmlEscape(ScriptHashSource(driver)) + " ");
  const std::string driven = scratch + "/hostile.html";
  std::ofstream(driven) << with_driver;
  const Chromium hover = OpenInChromium(driven, "--dump-dom", scratch + "/hover");
  ASSERT_EQ(hover.exit_code, 0);
  EXPECT_TRUE(hover.console.empty()) << "console messages:\n" << Joined(hover.console);
  EXPECT_TRUE(hover.requests.empty()) << "requests from the page:\n" << Joined(hover.requests);
  const std::string& hovered_dom = hover.stdout_text;
  const std::string hovered = Attribute(hovered_dom.substr(hovered_dom.find("<body")), "data-hovered");
  const std::string shown = Attribute(hovered_dom.substr(hovered_dom.find("<body")), "data-hostile-text-shown");
  ASSERT_FALSE(hovered.empty()) << "the hover driver did not run";
  std::printf("hostile report: %s tooltips shown, %s with the hostile text as text\n",
              hovered.c_str(), shown.c_str());
  EXPECT_GT(std::stoi(hovered), 100);
  EXPECT_GT(std::stoi(shown), 0) << "no tooltip showed a record's hostile text";
  EXPECT_NE(hovered_dom.find("&lt;b class=hostile-marker&gt;"), std::string::npos)
      << "the tables show no hostile text";
  std::filesystem::remove_all(scratch);
}

TEST(ReportBrowser, BadStoresAndOutputsAreClearErrors) {
  const std::string dir = testing::TempFilePath("report_errors_", "stores");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/empty");
  std::ofstream(dir + "/empty/results.jsonl");
  const std::string eb = Executable();
  auto empty = RunCommand(eb + " report " + dir + "/empty -o " + dir + "/r.html 2>&1");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.output.find("holds no records"), std::string::npos) << empty.output;
  auto missing = RunCommand(eb + " report " + dir + "/nothing -o " + dir + "/r.html 2>&1");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.output.find("does not exist"), std::string::npos) << missing.output;

  ASSERT_NO_FATAL_FAILURE(Make("a store", eb + " run x -t 'null:cpu?us=100' --warmup 2"
                                                " --min-queries 20 --min-duration 0 --out " +
                                                dir + "/s"));
  std::ofstream(dir + "/s/results.jsonl", std::ios::app)
      << "{\"schema\": \"edgebench.record/3\", \"id\": \n";
  auto corrupt = RunCommand(eb + " report " + dir + "/s -o " + dir + "/r.html 2>&1");
  EXPECT_EQ(corrupt.exit_code, 0) << corrupt.output;
  EXPECT_NE(corrupt.output.find("warning: " + dir + "/s/results.jsonl:2: "), std::string::npos)
      << corrupt.output;
  EXPECT_NE(ReadFile(dir + "/r.html").find("results.jsonl:2: "), std::string::npos);

  auto unwritable = RunCommand(eb + " report " + dir + "/s -o " + dir + "/no/such/dir/r.html 2>&1");
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_NE(unwritable.output.find("does not exist; create it"), std::string::npos)
      << unwritable.output;
  auto is_dir = RunCommand(eb + " report " + dir + "/s -o " + dir + " 2>&1");
  EXPECT_EQ(is_dir.exit_code, 1);
  EXPECT_NE(is_dir.output.find("it is a directory"), std::string::npos) << is_dir.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
