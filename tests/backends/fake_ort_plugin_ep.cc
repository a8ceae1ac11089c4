// A stand-in for an ONNX Runtime plugin execution-provider library (such as the onnxruntime-qnn
// wheel's), for the tests of `ort:NAME?ep_library=PATH` (backends/ort_plugin_ep_test.cc): it
// registers one factory, "FakeNpuExecutionProvider", that offers itself on ONNX Runtime's CPU
// hardware device and refuses to create its EP with a message of its own, naming the options the
// session passed it (`ep.fakenpuexecutionprovider.*` session entries), as a real provider refuses
// a device or an option it cannot serve. No model ever runs on it.
#include <onnxruntime_c_api.h>  // includes onnxruntime_ep_c_api.h

#include <cstdint>
#include <string>

namespace {

const OrtApi* ort = nullptr;
const OrtEpApi* ep_api = nullptr;

struct FakeFactory : OrtEpFactory {
  FakeFactory() : OrtEpFactory{} {
    ort_version_supported = ORT_API_VERSION;  // every field below is filled
    GetName = [](const OrtEpFactory*) noexcept -> const char* { return "FakeNpuExecutionProvider"; };
    GetVendor = [](const OrtEpFactory*) noexcept -> const char* { return "edgebench tests"; };
    GetSupportedDevices = [](OrtEpFactory* self, const OrtHardwareDevice* const* devices, size_t num_devices,
                             OrtEpDevice** ep_devices, size_t max_ep_devices, size_t* num_ep_devices) noexcept -> OrtStatus* {
      *num_ep_devices = 0;
      for (size_t i = 0; i < num_devices && *num_ep_devices < max_ep_devices; ++i) {
        if (ort->HardwareDevice_Type(devices[i]) != OrtHardwareDeviceType_CPU) continue;
        OrtEpDevice* device = nullptr;
        if (OrtStatus* failed = ep_api->CreateEpDevice(self, devices[i], nullptr, nullptr, &device)) return failed;
        ep_devices[(*num_ep_devices)++] = device;
      }
      return nullptr;
    };
    CreateEp = [](OrtEpFactory*, const OrtHardwareDevice* const*, const OrtKeyValuePairs* const*, size_t,
                  const OrtSessionOptions* session_options, const OrtLogger*, OrtEp**) noexcept -> OrtStatus* {
      std::string said = "FakeNpu: this test provider runs no model";
      int has = 0;
      if (ort->HasSessionConfigEntry(session_options, "ep.fakenpuexecutionprovider.htp_arch", &has) == nullptr &&
          has) {
        char value[64] = {};
        size_t size = sizeof value;
        if (ort->GetSessionConfigEntry(session_options, "ep.fakenpuexecutionprovider.htp_arch", value, &size) ==
            nullptr) {
          said += " (asked for htp_arch " + std::string(value) + ")";
        }
      }
      return ort->CreateStatus(ORT_NOT_IMPLEMENTED, said.c_str());
    };
    ReleaseEp = [](OrtEpFactory*, OrtEp*) noexcept {};
    GetVendorId = [](const OrtEpFactory*) noexcept -> uint32_t { return 0; };
    GetVersion = [](const OrtEpFactory*) noexcept -> const char* { return "0.1.0"; };
    ValidateCompiledModelCompatibilityInfo = [](OrtEpFactory*, const OrtHardwareDevice* const*, size_t, const char*,
                                                OrtCompiledModelCompatibility* compatibility) noexcept -> OrtStatus* {
      *compatibility = OrtCompiledModelCompatibility_EP_NOT_APPLICABLE;
      return nullptr;
    };
    CreateAllocator = [](OrtEpFactory*, const OrtMemoryInfo*, const OrtKeyValuePairs*,
                         OrtAllocator** allocator) noexcept -> OrtStatus* {
      *allocator = nullptr;  // ONNX Runtime's own
      return nullptr;
    };
    ReleaseAllocator = [](OrtEpFactory*, OrtAllocator*) noexcept {};
    CreateDataTransfer = [](OrtEpFactory*, OrtDataTransferImpl** transfer) noexcept -> OrtStatus* {
      *transfer = nullptr;  // the CPU's memory: nothing to copy
      return nullptr;
    };
    IsStreamAware = [](const OrtEpFactory*) noexcept { return false; };
    CreateSyncStreamForDevice = [](OrtEpFactory*, const OrtMemoryDevice*, const OrtKeyValuePairs*,
                                   OrtSyncStreamImpl** stream) noexcept -> OrtStatus* {
      *stream = nullptr;
      return nullptr;
    };
  }
};

FakeFactory* factory = nullptr;

}  // namespace

extern "C" {

__attribute__((visibility("default"))) OrtStatus* CreateEpFactories(const char* /*registered_name*/,
                                                                     const OrtApiBase* api_base,
                                                                     const OrtLogger* /*logger*/,
                                                                     OrtEpFactory** factories, size_t max_factories,
                                                                     size_t* num_factories) {
  ort = api_base->GetApi(ORT_API_VERSION);
  if (ort == nullptr) return nullptr;
  ep_api = ort->GetEpApi();
  *num_factories = 0;
  if (max_factories < 1) return ort->CreateStatus(ORT_INVALID_ARGUMENT, "FakeNpu: no room for its factory");
  factory = new FakeFactory();
  factories[0] = factory;
  *num_factories = 1;
  return nullptr;
}

__attribute__((visibility("default"))) OrtStatus* ReleaseEpFactory(OrtEpFactory* released) {
  delete static_cast<FakeFactory*>(released);
  if (released == factory) factory = nullptr;
  return nullptr;
}

}  // extern "C"
