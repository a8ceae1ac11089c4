#include "worker/heap_tracking.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace edgebench {

// The mark: one allocation from a function of this name, freed at once. Not static, not inlined,
// so that heaptrack's stack names it.
extern "C" __attribute__((noinline, used)) void EdgebenchLeakSitesWindowStart() {
  void* volatile mark = std::malloc(16);
  std::free(mark);
}

namespace {

using HeapTrackCall = void (*)();

struct HeapTrackApi {
  HeapTrackCall pause = nullptr;
  HeapTrackCall resume = nullptr;
  HeapTrackCall stop = nullptr;
  bool window_open = false;
  std::atomic<bool> stopped{false};
  // The trace's size, watched while the window is open.
  std::string trace;
  int64_t limit_bytes = 0;
  std::thread watcher;
  std::mutex mutex;
  std::condition_variable wake;
  bool closing = false;
};

void StopOnce(HeapTrackApi& api) {
  if (!api.stopped.exchange(true)) api.stop();
}

// Every 250 ms: past the limit, heaptrack stops (the reader then sees a shorter window).
void WatchTrace(HeapTrackApi& api) {
  std::unique_lock<std::mutex> lock(api.mutex);
  while (!api.wake.wait_for(lock, std::chrono::milliseconds(250), [&] { return api.closing; })) {
    struct stat st {};
    if (::stat(api.trace.c_str(), &st) == 0 && st.st_size > api.limit_bytes) {
      StopOnce(api);
      return;
    }
  }
}

HeapTrackApi& Api() {
  static HeapTrackApi api;
  return api;
}

}  // namespace

bool StartHeapTracking() {
  const char* asked = std::getenv(kHeapTrackingVariable);
  if (asked == nullptr || std::strcmp(asked, "1") != 0) return false;
  HeapTrackApi& api = Api();
  api.pause = reinterpret_cast<HeapTrackCall>(::dlsym(RTLD_DEFAULT, "heaptrack_pause"));
  api.resume = reinterpret_cast<HeapTrackCall>(::dlsym(RTLD_DEFAULT, "heaptrack_resume"));
  api.stop = reinterpret_cast<HeapTrackCall>(::dlsym(RTLD_DEFAULT, "heaptrack_stop"));
  if (api.pause == nullptr || api.resume == nullptr || api.stop == nullptr) {
    api.pause = api.resume = api.stop = nullptr;
    return false;
  }
  if (const char* trace = std::getenv(kHeapTrackingTraceVariable); trace != nullptr) api.trace = trace;
  double limit_mb = kHeapTrackingDefaultLimitMb;
  if (const char* limit = std::getenv(kHeapTrackingLimitVariable); limit != nullptr && *limit != '\0') {
    char* end = nullptr;
    const double mb = std::strtod(limit, &end);
    if (end != limit && *end == '\0' && mb > 0) limit_mb = mb;
  }
  api.limit_bytes = static_cast<int64_t>(limit_mb * 1024 * 1024);
  api.pause();
  return true;
}

void OpenHeapTrackingWindow() {
  HeapTrackApi& api = Api();
  if (api.resume == nullptr || api.window_open) return;
  api.window_open = true;
  api.resume();
  EdgebenchLeakSitesWindowStart();
  if (!api.trace.empty()) api.watcher = std::thread([&api] { WatchTrace(api); });
}

void CloseHeapTrackingWindow() {
  HeapTrackApi& api = Api();
  if (api.stop == nullptr || !api.window_open) return;
  if (api.watcher.joinable()) {
    {
      std::lock_guard<std::mutex> lock(api.mutex);
      api.closing = true;
    }
    api.wake.notify_all();
    api.watcher.join();
  }
  StopOnce(api);
}

}  // namespace edgebench
