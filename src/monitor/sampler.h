// The sampler thread: reads every channel of a SensorSet at a fixed rate beside the case, on
// its own thread, so that the timing loop never waits on a sensor. Phase boundaries reported by
// the scenario's observer are marked and sampled at once (without waiting for the next tick),
// so that energy over the measured phase is read at its bounds.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "record/monitor_record.h"
#include "monitor/sensor_set.h"

namespace edgebench {

// An hour at 10 Hz, and at most a million values in all (a 64-core machine has some 150
// channels: its record stays under about 10 MB).
size_t DefaultMaxSamples(size_t channels);

// The sampling thread's next tick after a sample taken at `sample_ns`, when the next tick was due
// at `next_tick_ns`: a sample a mark asked for between ticks leaves the ticks where they were; a
// tick moves the next one a period on; a tick so late that it missed whole periods is not made up
// for in a burst (the next is a period after it).
int64_t NextTickAfterSample(int64_t next_tick_ns, int64_t sample_ns, int64_t period_ns);

class Sampler {
 public:
  // `max_samples`: past it, every other sample is dropped and the period doubles (a day-long
  // soak keeps a bounded series; the record states the effective rate). 0: DefaultMaxSamples.
  Sampler(SensorSet sensors, double sample_hz, size_t max_samples = 0);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // Takes the first sample on the calling thread, then starts the sampling thread: whatever the
  // caller does after Start (a phase that starts at once) has a sample before it, however late
  // the thread is scheduled on a loaded machine.
  void Start();
  // Marks a boundary ("measure", "start") at the harness clock now and asks for a sample now.
  // Quick: a lock, a push and a notify; callable from any thread.
  void Mark(const std::string& name, const std::string& event);
  // Stops the thread after a last sample; times relative to `origin_ns` (harness clock), or,
  // when it is 0, to the "measure" phase's start mark (the first sample's time without one).
  MonitorSeries Finish(int64_t origin_ns);

 private:
  void Loop(int64_t next_tick_ns);
  void Keep(const SensorSample& sample);  // under mutex_
  void Thin();  // under mutex_

  SensorSet sensors_;
  int64_t period_ns_;
  size_t max_samples_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool sample_now_ = false;
  std::vector<MonitorMark> marks_;  // absolute times until Finish
  std::vector<int64_t> t_ns_;
  std::vector<std::vector<std::optional<double>>> values_;
};

}  // namespace edgebench
