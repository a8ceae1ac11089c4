#include "worker/heap_tracking.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

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
  bool window_closed = false;
};

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
    api = {};
    return false;
  }
  api.pause();
  return true;
}

void OpenHeapTrackingWindow() {
  HeapTrackApi& api = Api();
  if (api.resume == nullptr || api.window_open) return;
  api.window_open = true;
  api.resume();
  EdgebenchLeakSitesWindowStart();
}

void CloseHeapTrackingWindow() {
  HeapTrackApi& api = Api();
  if (api.stop == nullptr || !api.window_open || api.window_closed) return;
  api.window_closed = true;
  api.stop();
}

}  // namespace edgebench
