#include "backends/litert/litert_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

namespace edgebench {

std::string LiteRtLibraryPath() {
  if (const char* path = std::getenv("EDGEBENCH_LITERT_LIB"); path && *path) return path;
  // A fleet host's copy, beside its executable (src/fleet/fleet_files.h): bin/runtimes/.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path beside = exe.parent_path() / "runtimes" /
                                         (std::string("ai-edge-litert-") + kLiteRtWheelVersion) / "libLiteRt.so";
    if (std::filesystem::is_regular_file(beside, ec)) return beside.string();
  }
  std::string cache;
  if (const char* c = std::getenv("EDGEBENCH_CACHE"); c && *c) {
    cache = c;
  } else {
    const char* home = std::getenv("HOME");
    cache = std::string(home ? home : "/root") + "/.cache/edgebench";
  }
  // scripts/fixtures unpacks x86-64's wheels into runtimes/, arm64's into runtimes-aarch64/.
#if defined(__aarch64__)
  constexpr const char* kRuntimes = "/runtimes-aarch64/";
#else
  constexpr const char* kRuntimes = "/runtimes/";
#endif
  return cache + kRuntimes + "ai-edge-litert-" + kLiteRtWheelVersion + "/libLiteRt.so";
}

Result<std::shared_ptr<LiteRtLibrary>> LiteRtLibrary::Open(const std::string& path) {
  auto library = std::shared_ptr<LiteRtLibrary>(new LiteRtLibrary());
  library->path_ = path;
  library->handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library->handle_) {
    const char* why = ::dlerror();
#if defined(__x86_64__)
    const std::string what_to_do = " (run scripts/fixtures to fetch ai-edge-litert " +
                                   std::string(kLiteRtWheelVersion) + ", or set EDGEBENCH_LITERT_LIB)";
#elif defined(__aarch64__)
    const std::string what_to_do = " (run scripts/fixtures --arch arm64 to fetch ai-edge-litert " +
                                   std::string(kLiteRtWheelVersion) + "'s aarch64 wheel, or set EDGEBENCH_LITERT_LIB)";
#else
    // scripts/fixtures.lock pins the wheel for x86-64 and aarch64 only.
    const std::string what_to_do = " (scripts/fixtures fetches ai-edge-litert " +
                                   std::string(kLiteRtWheelVersion) +
                                   " for x86-64 and aarch64 only: set EDGEBENCH_LITERT_LIB to the libLiteRt.so of "
                                   "the wheel built for this processor)";
#endif
    return Status::Error("cannot load LiteRT from '" + path + "': " + (why ? why : "unknown error") +
                         what_to_do);
  }
  std::string missing;
  auto resolve = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(library->handle_, name));
    if (!fn) missing += (missing.empty() ? "" : ", ") + std::string(name);
  };
  LiteRtApi& a = library->api_;
  resolve(a.CreateEnvironment, "LiteRtCreateEnvironment");
  resolve(a.DestroyEnvironment, "LiteRtDestroyEnvironment");
  resolve(a.CreateModelFromFile, "LiteRtCreateModelFromFile");
  resolve(a.DestroyModel, "LiteRtDestroyModel");
  resolve(a.GetNumModelSignatures, "LiteRtGetNumModelSignatures");
  resolve(a.GetModelSignature, "LiteRtGetModelSignature");
  resolve(a.GetSignatureSubgraph, "LiteRtGetSignatureSubgraph");
  resolve(a.GetNumSubgraphOps, "LiteRtGetNumSubgraphOps");
  resolve(a.GetSubgraphOp, "LiteRtGetSubgraphOp");
  resolve(a.GetOpCode, "LiteRtGetOpCode");
  resolve(a.GetNumSignatureInputs, "LiteRtGetNumSignatureInputs");
  resolve(a.GetNumSignatureOutputs, "LiteRtGetNumSignatureOutputs");
  resolve(a.GetSignatureInputName, "LiteRtGetSignatureInputName");
  resolve(a.GetSignatureOutputName, "LiteRtGetSignatureOutputName");
  resolve(a.GetSignatureInputTensorByIndex, "LiteRtGetSignatureInputTensorByIndex");
  resolve(a.GetSignatureOutputTensorByIndex, "LiteRtGetSignatureOutputTensorByIndex");
  resolve(a.GetRankedTensorType, "LiteRtGetRankedTensorType");
  resolve(a.CreateOptions, "LiteRtCreateOptions");
  resolve(a.DestroyOptions, "LiteRtDestroyOptions");
  resolve(a.SetOptionsHardwareAccelerators, "LiteRtSetOptionsHardwareAccelerators");
  resolve(a.CreateOpaqueOptions, "LiteRtCreateOpaqueOptions");
  resolve(a.AddOpaqueOptions, "LiteRtAddOpaqueOptions");
  resolve(a.CreateCompiledModel, "LiteRtCreateCompiledModel");
  resolve(a.DestroyCompiledModel, "LiteRtDestroyCompiledModel");
  resolve(a.CompiledModelIsFullyAccelerated, "LiteRtCompiledModelIsFullyAccelerated");
  resolve(a.GetCompiledModelInputBufferRequirements, "LiteRtGetCompiledModelInputBufferRequirements");
  resolve(a.GetCompiledModelOutputBufferRequirements, "LiteRtGetCompiledModelOutputBufferRequirements");
  resolve(a.GetTensorBufferRequirementsBufferSize, "LiteRtGetTensorBufferRequirementsBufferSize");
  resolve(a.CreateTensorBufferFromHostMemory, "LiteRtCreateTensorBufferFromHostMemory");
  resolve(a.DestroyTensorBuffer, "LiteRtDestroyTensorBuffer");
  resolve(a.RunCompiledModel, "LiteRtRunCompiledModel");
  resolve(a.CompiledModelGetProfiler, "LiteRtCompiledModelGetProfiler");
  resolve(a.StartProfiler, "LiteRtStartProfiler");
  resolve(a.StopProfiler, "LiteRtStopProfiler");
  resolve(a.GetProfileSummary, "LiteRtGetProfileSummary");
  resolve(a.ResetProfiler, "LiteRtResetProfiler");
  if (!missing.empty()) {
    return Status::Error("'" + path + "' is not the LiteRT C API edgebench drives (ai-edge-litert " +
                         kLiteRtWheelVersion + "): missing " + missing);
  }
  return library;
}

std::string LiteRtLibrary::GpuAcceleratorPath() const {
  const size_t slash = path_.rfind('/');
  return (slash == std::string::npos ? std::string() : path_.substr(0, slash + 1)) +
         "libLiteRtWebGpuAccelerator.so";
}

Status LiteRtLibrary::LoadGpuAccelerator() {
  if (gpu_handle_) return Status::Ok();
  const std::string path = GpuAcceleratorPath();
  gpu_handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!gpu_handle_) {
    const char* why = ::dlerror();
    return Status::Error("cannot load LiteRT's GPU accelerator from '" + path + "': " + (why ? why : "unknown error") +
                         " (run scripts/fixtures: it takes libLiteRtWebGpuAccelerator.so from the ai-edge-litert " +
                         kLiteRtWheelVersion + " wheel beside libLiteRt.so)");
  }
  return Status::Ok();
}

LiteRtLibrary::~LiteRtLibrary() {
  // The library registers accelerators with process-wide state; unloading it is not safe.
  // The handle is kept for the life of the process on purpose.
}

}  // namespace edgebench
