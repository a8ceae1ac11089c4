#include "backends/ort/openmp_threads.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace edgebench {
namespace {

constexpr const char* kOpenMpLibrary = "libgomp.so.1";

// Whether the OpenMP runtime is loaded in this process (asked without loading it).
bool OpenMpLoaded() {
  void* handle = ::dlopen(kOpenMpLibrary, RTLD_NOW | RTLD_NOLOAD);
  if (handle) ::dlclose(handle);  // drops the reference the question took
  return handle != nullptr;
}

}  // namespace

int OpenMpMaxThreads() {
  void* handle = ::dlopen(kOpenMpLibrary, RTLD_NOW | RTLD_NOLOAD);
  if (!handle) return 0;
  using MaxThreads = int (*)();
  auto* max_threads = reinterpret_cast<MaxThreads>(::dlsym(handle, "omp_get_max_threads"));
  const int n = max_threads ? max_threads() : 0;
  ::dlclose(handle);  // drops the reference NOLOAD took
  return n;
}

Status ApplyOpenMpThreads(int threads) {
  if (!OpenMpLoaded()) {
    ::setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
    return Status::Ok();
  }
  const int loaded = OpenMpMaxThreads();
  if (loaded == threads) return Status::Ok();
  return Status::Error("threads=" + std::to_string(threads) +
                       " cannot reach oneDNN: its OpenMP runtime is already loaded in this process with " +
                       std::to_string(loaded) +
                       " threads (OpenMP reads its count once); run each case in its own worker (without "
                       "--in-process) or give the same threads= to every oneDNN case");
}

}  // namespace edgebench
