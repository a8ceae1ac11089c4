#include "monitor/sampler.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/clock.h"

namespace edgebench {

size_t DefaultMaxSamples(size_t channels) {
  return std::min<size_t>(36'000, std::max<size_t>(1'000, 1'000'000 / std::max<size_t>(channels, 1)));
}

int64_t NextTickAfterSample(int64_t next_tick_ns, int64_t sample_ns, int64_t period_ns) {
  if (sample_ns < next_tick_ns) return next_tick_ns;  // a mark's sample between ticks
  const int64_t next = next_tick_ns + period_ns;
  return next > sample_ns ? next : sample_ns + period_ns;
}

Sampler::Sampler(SensorSet sensors, double sample_hz, size_t max_samples)
    : sensors_(std::move(sensors)),
      period_ns_(static_cast<int64_t>(1e9 / std::max(sample_hz, 1e-3))),
      max_samples_(std::max<size_t>(max_samples > 0 ? max_samples : DefaultMaxSamples(sensors_.channels().size()),
                                    16)),
      values_(sensors_.channels().size()) {}

Sampler::~Sampler() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
}

void Sampler::Start() {
  const int64_t t = NowNs();
  {
    SensorSample first = sensors_.Sample(t);
    std::lock_guard<std::mutex> lock(mutex_);
    Keep(first);
  }
  thread_ = std::thread([this, next = t + period_ns_] { Loop(next); });
}

void Sampler::Mark(const std::string& name, const std::string& event) {
  const int64_t now = NowNs();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    marks_.push_back({name, event, now});
    sample_now_ = true;
  }
  wake_.notify_one();
}

void Sampler::Thin() {
  // Keep samples 0, 2, 4, ...: the first stays, so the series still starts where it did.
  auto thin = [](auto& v) {
    size_t kept = 0;
    for (size_t i = 0; i < v.size(); i += 2) v[kept++] = std::move(v[i]);
    v.resize(kept);
  };
  thin(t_ns_);
  for (auto& series : values_) thin(series);
  period_ns_ *= 2;
}

void Sampler::Keep(const SensorSample& sample) {
  t_ns_.push_back(sample.t_ns);
  for (size_t c = 0; c < values_.size(); ++c) {
    std::optional<double> v = sample.values[c];
    // Thousandths are below every sensor's resolution; fewer digits keep records small.
    if (v) v = std::round(*v * 1000.0) / 1000.0;
    values_[c].push_back(v);
  }
  if (t_ns_.size() >= max_samples_) Thin();
}

void Sampler::Loop(int64_t next) {
  // The lowest weight the scheduler gives a normal thread (nice 19). On a machine whose cores the
  // runtime's threads keep busy, a sampler waking at nice 0 preempts one of them, and threads
  // that meet at a barrier per operator (ggml's, ONNX Runtime's pool) all wait for it: llama-100m
  // decode on 2 threads of 2 cores, monitor on / off over 16 alternated rounds, went from a median
  // of 0.971 to 0.996. Its ~20 us a sample still get done: 35 samples in 3.5 s beside two CPU hogs.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // Until the next tick, a mark's request or the stop; Start took the sample before the first.
    const auto deadline = SteadyClock::time_point(std::chrono::nanoseconds(next));
    wake_.wait_until(lock, deadline, [&] { return stop_ || sample_now_; });
    sample_now_ = false;
    const bool last = stop_;
    // Read outside the lock: Mark never waits for a sensor.
    lock.unlock();
    const int64_t t = NowNs();
    SensorSample sample = sensors_.Sample(t);
    lock.lock();
    Keep(sample);
    if (last) break;  // the sample just taken is the last one, taken after the stop was asked
    next = NextTickAfterSample(next, t, period_ns_);
  }
}

MonitorSeries Sampler::Finish(int64_t origin_ns) {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  if (origin_ns == 0) {
    const auto measure = std::find_if(marks_.begin(), marks_.end(), [](const MonitorMark& m) {
      return m.name == "measure" && m.event == "start";
    });
    origin_ns = measure != marks_.end() ? measure->t_ns : (t_ns_.empty() ? 0 : t_ns_.front());
  }
  MonitorSeries series;
  series.origin_ns = origin_ns;
  series.effective_hz = 1e9 / static_cast<double>(period_ns_);
  series.channels = sensors_.channels();
  series.readers = sensors_.statuses();
  for (ChannelFailure f : sensors_.failures()) {
    f.t_ns -= origin_ns;
    series.failures.push_back(std::move(f));
  }
  for (MonitorMark m : marks_) {
    m.t_ns -= origin_ns;
    series.marks.push_back(std::move(m));
  }
  series.t_ns.reserve(t_ns_.size());
  for (int64_t t : t_ns_) series.t_ns.push_back(t - origin_ns);
  series.values = std::move(values_);
  values_.assign(series.channels.size(), {});
  t_ns_.clear();
  return series;
}

}  // namespace edgebench
