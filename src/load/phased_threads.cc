#include "load/phased_threads.h"

#include <thread>
#include <vector>

namespace edgebench {

int64_t RunInPhases(int threads, const std::function<void(int, PhaseGate&)>& thread_main, RunObserver* observer,
                    int64_t measure_expected_ms, const std::function<int64_t()>& now) {
  PhaseGate gate(threads);
  if (observer) observer->OnPhaseStart("warmup", 0);
  gate.warmup_start_ = now();
  std::vector<std::thread> running;
  running.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) running.emplace_back(thread_main, i, std::ref(gate));
  gate.warmed_.wait();
  if (observer) {
    observer->OnPhaseEnd("warmup");
    observer->OnPhaseStart("measure", measure_expected_ms);
  }
  gate.measured_start_ = now();
  gate.open_.store(true, std::memory_order_release);
  gate.open_.notify_all();
  for (std::thread& t : running) t.join();
  if (observer) observer->OnPhaseEnd("measure");
  return gate.measured_start_;
}

}  // namespace edgebench
