#include "worker/together_cases.h"

#include <pthread.h>

#include <mutex>
#include <thread>

#include "worker/run_case.h"

namespace edgebench {
namespace {

constexpr const char kThreadPrefix[] = "eb-together-";

}  // namespace

std::string TogetherThreadName(size_t index) { return kThreadPrefix + std::to_string(index); }

int TogetherCaseOfThread(const std::string& name) {
  const std::string prefix = kThreadPrefix;
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() || name.size() > prefix.size() + 2) return -1;
  int index = 0;
  for (size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    index = index * 10 + (name[i] - '0');
  }
  return index;
}

void RunCasesTogether(const std::vector<CaseSpec>& specs, Registry& registry, const TogetherCallbacks& callbacks) {
  // Held by one case from its start until its scenario starts (its "run" stage) or it ends.
  std::mutex set_up;
  std::vector<std::thread> threads;
  threads.reserve(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    threads.emplace_back([&, i] {
      ::pthread_setname_np(::pthread_self(), TogetherThreadName(i).c_str());
      std::unique_lock<std::mutex> turn(set_up);
      auto stage = [&](const std::string& name) {
        // Announced, then the next case may set up: its set-up is seen after this one's end.
        if (callbacks.stage) callbacks.stage(i, name);
        if (name == "run" && turn.owns_lock()) turn.unlock();
      };
      RunObserver* observer = callbacks.observer ? callbacks.observer(i) : nullptr;
      Record record = RunCase(specs[i], registry, stage, observer);
      if (turn.owns_lock()) turn.unlock();
      if (callbacks.done) callbacks.done(i, record);
    });
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace edgebench
