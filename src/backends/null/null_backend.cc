#include "backends/null/null_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "core/strings.h"

namespace edgebench {
namespace {

constexpr int64_t kFeatures = 16;

// Misbehaviour at one batch size, for proving that a shape sweep isolates each shape
// (`edgebench shapes`, docs/shapes.md). Each acts in Prepare when the bound batch (input axis 0)
// equals it, and needs dynamic=true (with a fixed batch of 1 there is no other shape to reach):
//   abort_batch=N    abort(): the worker dies on SIGABRT, a `crashed` record
//   hang_batch=N     sleeps forever: a `timeout` record once --timeout passes
//   balloon_batch=N  allocates and touches 64 MiB after 64 MiB without bound: an `oom` record
//                    once --case-memory is reached (run it only in a worker: in-process, it
//                    takes the machine's memory until the kernel kills edgebench)
struct ShapeFaults {
  int64_t abort_batch = 0;  // 0: never
  int64_t hang_batch = 0;
  int64_t balloon_batch = 0;
};

[[noreturn]] void Balloon() {
  constexpr size_t kChunk = size_t{64} << 20;
  std::vector<std::unique_ptr<std::byte[]>> chunks;
  for (;;) {
    chunks.emplace_back(new std::byte[kChunk]);
    // Touch every page, so the memory is resident and counts against the case's limit.
    std::memset(chunks.back().get(), 1, kChunk);
    // A short pause per chunk keeps the growth within what the orchestrator's 50 ms memory check
    // catches before the machine runs short.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// The leak grow_mb, grow_kb and leak_bytes ask for, from one named function (so that
// `--leak-sites` has a site to find by name): a block of `bytes` touched (resident) and chained
// to the last one through its first word, so the chain itself allocates nothing. The blocks are
// never freed: the process ends with them.
struct PlantedBlock {
  PlantedBlock* previous;
};

extern "C" __attribute__((noinline, used)) void* EdgebenchNullPlantedLeak(void* previous, size_t bytes) {
  void* block = std::malloc(std::max(bytes, sizeof(PlantedBlock)));
  if (block == nullptr) return previous;
  std::memset(block, 1, std::max(bytes, sizeof(PlantedBlock)));
  static_cast<PlantedBlock*>(block)->previous = static_cast<PlantedBlock*>(previous);
  return block;
}

class NullSession : public Session {
 public:
  NullSession(std::string device, int run_us, int jitter_us, uint64_t noise_seed, int fail_at, int crash_at,
              bool dynamic, int64_t grow_bytes, ShapeFaults faults, std::vector<int64_t> input_shape)
      : device_(std::move(device)),
        run_us_(run_us),
        jitter_us_(jitter_us),
        noise_seed_(noise_seed),
        fail_at_(fail_at),
        crash_at_(crash_at),
        grow_bytes_(grow_bytes),
        faults_(faults) {
    const Dim batch = dynamic ? Dim::Symbol("batch") : Dim::Fixed(1);
    std::vector<Dim> shape = {batch, Dim::Fixed(kFeatures)};
    if (!input_shape.empty()) {
      shape.clear();
      for (int64_t d : input_shape) shape.push_back(Dim::Fixed(d));
    }
    fixed_shape_ = std::move(input_shape);
    signature_.inputs.push_back({"input", DType::kFloat32, shape});
    signature_.outputs.push_back({"output", DType::kFloat32, shape});
  }

  const Signature& signature() const override { return signature_; }

  Status Prepare(const std::vector<std::vector<int64_t>>& input_shapes) override {
    if (!fixed_shape_.empty()) {
      if (input_shapes.size() != 1 || input_shapes[0] != fixed_shape_) {
        return Status::Error("null backend: expected one input of shape " + ShapeToString(fixed_shape_));
      }
      return Status::Ok();
    }
    if (input_shapes.size() != 1 || input_shapes[0].size() != 2 ||
        input_shapes[0][1] != kFeatures) {
      return Status::Error("null backend: expected one input of shape [batch x 16]");
    }
    const int64_t batch = input_shapes[0][0];
    if (batch == faults_.abort_batch) std::abort();
    if (batch == faults_.hang_batch) {
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    }
    if (batch == faults_.balloon_batch) Balloon();
    return Status::Ok();
  }

  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) override {
    const int run = runs_.fetch_add(1, std::memory_order_relaxed) + 1;
    if (crash_at_ > 0 && run == crash_at_) std::abort();
    if (fail_at_ > 0 && run == fail_at_) {
      return Status::Error("null backend: run " + std::to_string(run) +
                           " failed as requested (fail_at)");
    }
    if (inputs.size() != 1) return Status::Error("null backend: expected one input");
    if (grow_bytes_ > 0) {
      // A leak on purpose: memory the runtime keeps and touches (so it is resident) on each run.
      std::lock_guard<std::mutex> lock(leak_mutex_);
      leaked_ = EdgebenchNullPlantedLeak(leaked_, static_cast<size_t>(grow_bytes_));
    }
    const int64_t run_us = NullRunMicroseconds(run_us_, jitter_us_, noise_seed_, static_cast<uint64_t>(run));
    if (device_ == "spin") {
      const int64_t until = NowNs() + run_us * 1000;
      while (NowNs() < until) {
      }
    } else if (device_ == "cpu") {
      // This thread's own CPU time: when threads outnumber cores, the wall time grows, as a
      // compute-bound runtime's would.
      const int64_t until = ThreadCpuNs() + run_us * 1000;
      while (ThreadCpuNs() < until) {
      }
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(run_us));
    }
    outputs.resize(1);
    Tensor& out = outputs[0];
    out.name = "output";
    out.dtype = DType::kFloat32;
    out.shape = inputs[0].shape;
    out.data.resize(inputs[0].data.size());
    std::memcpy(out.data.data(), inputs[0].data.data(), out.data.size());
    return Status::Ok();
  }

  Placement GetPlacement() const override {
    Placement placement;
    placement.known = true;
    placement.nodes_by_device[device_] = 1;
    placement.devices_used = {device_};
    return placement;
  }

 private:
  Signature signature_;
  std::vector<int64_t> fixed_shape_;  // input=: the one input shape; empty: [batch x 16]
  std::string device_;  // "spin", "cpu" or "sleep"
  int run_us_;
  int jitter_us_;
  uint64_t noise_seed_;
  int fail_at_;
  int crash_at_;
  int64_t grow_bytes_;  // kept and touched on each run: grow_mb, grow_kb and leak_bytes, a leak on purpose
  ShapeFaults faults_;
  std::mutex leak_mutex_;
  void* leaked_ = nullptr;  // the last planted block (EdgebenchNullPlantedLeak)
  std::atomic<int> runs_{0};  // Run is safe from several threads (shared sessions)
};

}  // namespace

int64_t NullRunMicroseconds(int64_t us, int64_t jitter_us, uint64_t noise_seed, uint64_t run) {
  if (jitter_us <= 0) return us;
  // SplitMix64 of (seed, run): cheap, and the same bits on every platform and library.
  uint64_t z = noise_seed * 0x9E3779B97F4A7C15ULL + run * 0xD1B54A32D192ED03ULL + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  // Exponential by inversion, from 53 random bits.
  const double u = static_cast<double>(z >> 11) * 0x1.0p-53;
  return us + static_cast<int64_t>(-static_cast<double>(jitter_us) * std::log1p(-u));
}

NullBackend::~NullBackend() {
  if (crash_on_release_) std::abort();
}

BackendInfo NullBackend::Info() const {
  BackendInfo info;
  info.name = "null";
  info.runtime = "edgebench null backend";
  info.version = "1";
  const Capabilities capabilities{.thread_safe_run = true, .dynamic_shapes = true, .placement = true};
  info.devices = {{"sleep", "sleeps a set time per run", true, "", "", capabilities},
                  {"spin", "busy-waits a set wall time per run", true, "", "", capabilities},
                  {"cpu", "burns a set time of its thread's CPU per run (slower when threads outnumber cores)",
                   true, "", "", capabilities}};
  return info;
}

Result<std::unique_ptr<Session>> NullBackend::Load(const Artifact& /*artifact*/,
                                                   const Target& target) {
  if (target.device != "sleep" && target.device != "spin" && target.device != "cpu") {
    return Status::Error("null backend has no device '" + target.device +
                         "'; use null:sleep, null:spin or null:cpu");
  }
  TargetOptions options(target);
  auto us = options.Int("us", 1000, 0, 60'000'000);
  auto jitter_us = options.Int("jitter_us", 0, 0, 60'000'000);
  auto noise_seed = options.Int("noise_seed", -1, 0, 1 << 30);
  auto fail_at = options.Int("fail_at", 0, 0, 1 << 30);
  auto crash_at = options.Int("crash_at", 0, 0, 1 << 30);
  auto dynamic = options.Bool("dynamic", false);
  auto crash_on_release = options.Bool("crash_on_release", false);
  auto grow_mb = options.Int("grow_mb", 0, 0, 1 << 20);
  auto grow_kb = options.Int("grow_kb", 0, 0, 1 << 20);
  auto leak_bytes = options.Int("leak_bytes", 0, 0, 1 << 30);
  auto abort_batch = options.Int("abort_batch", 0, 0, 1 << 30);
  auto hang_batch = options.Int("hang_batch", 0, 0, 1 << 30);
  auto balloon_batch = options.Int("balloon_batch", 0, 0, 1 << 30);
  const std::string input = options.Text("input", "");
  for (const Status& s : {us.status(), jitter_us.status(), noise_seed.status(), fail_at.status(), crash_at.status(), dynamic.status(),
                          crash_on_release.status(), grow_mb.status(), grow_kb.status(),
                          leak_bytes.status(),
                          abort_batch.status(), hang_batch.status(), balloon_batch.status(),
                          options.CheckAllUsed()}) {
    if (!s.ok()) return s;
  }
  std::vector<int64_t> input_shape;
  if (!input.empty()) {
    for (const std::string& d : SplitList(input, 'x')) {
      char* end = nullptr;
      const long long v = std::strtoll(d.c_str(), &end, 10);
      if (d.empty() || *end != '\0' || v < 1 || v > 65536 || input_shape.size() == 8) {
        return Status::Error("null backend: input=" + input + ": expected 1 to 8 sizes of 1 to 65536 joined by 'x', e.g. 1x4x4x3");
      }
      input_shape.push_back(v);
    }
    if (dynamic.value()) return Status::Error("null backend: input= fixes the shape; leave dynamic=true out");
  }
  const ShapeFaults faults{abort_batch.value(), hang_batch.value(), balloon_batch.value()};
  if (!dynamic.value() && (faults.abort_batch || faults.hang_batch || faults.balloon_batch)) {
    return Status::Error(
        "null backend: abort_batch, hang_batch and balloon_batch act at a batch size, and without "
        "dynamic=true the batch is fixed at 1; add dynamic=true to the target");
  }
  crash_on_release_ = crash_on_release_ || crash_on_release.value();
  return std::unique_ptr<Session>(new NullSession(target.device, us.value(), jitter_us.value(),
                                                  // Without noise_seed, a fresh seed per session: each worker's draws
                                                  // are independent of the last one's (a race's rounds).
                                                  noise_seed.value() >= 0 ? static_cast<uint64_t>(noise_seed.value())
                                                                          : std::random_device{}(),
                                                  fail_at.value(), crash_at.value(),
                                                  dynamic.value(),
                                                  (int64_t{grow_mb.value()} << 20) + (int64_t{grow_kb.value()} << 10) +
                                                      int64_t{leak_bytes.value()},
                                                  faults, std::move(input_shape)));
}

}  // namespace edgebench
