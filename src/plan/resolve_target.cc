#include "plan/resolve_target.h"

#include "core/strings.h"

namespace edgebench {
namespace {

TargetResolution Fail(CaseStatus status, std::string error) {
  TargetResolution r;
  r.status = status;
  r.error = std::move(error);
  return r;
}

bool NamesDeviceLibrary(const Target& target, const BackendInfo& info) {
  return !info.device_library_option.empty() && target.options.count(info.device_library_option) > 0;
}

}  // namespace

Status CheckTargetKnown(const Target& target, const Registry& registry) {
  const Backend* backend = registry.Find(target.backend);
  if (!backend) {
    const std::string why = registry.WhyUnusable(target.backend);
    if (why.rfind("unknown backend", 0) == 0) return Status::Error("target '" + target.text + "': " + why);
    return Status::Ok();  // known, not built: an unavailable record says why
  }
  const BackendInfo info = backend->Info();
  if (NamesDeviceLibrary(target, info)) return Status::Ok();
  std::vector<std::string> devices;
  for (const DeviceInfo& d : info.devices) {
    if (d.name == target.device) return Status::Ok();
    devices.push_back(info.name + ":" + d.name);
  }
  return Status::Error("target '" + target.text + "': backend '" + info.name + "' has no device '" +
                       target.device + "'; its devices: " + Join(devices, ", "));
}

TargetResolution ResolveTarget(const Target& target, const Registry& registry, SessionKind kind) {
  Backend* backend = registry.Find(target.backend);
  if (!backend) return Fail(CaseStatus::kUnavailable, registry.WhyUnusable(target.backend));
  BackendInfo info = backend->Info();
  const DeviceInfo* device = nullptr;
  std::string known;
  for (const DeviceInfo& d : info.devices) {
    if (d.name == target.device) device = &d;
    known += (known.empty() ? "" : ", ") + info.name + ":" + d.name;
  }
  DeviceInfo from_library;
  if ((!device || !device->available) && NamesDeviceLibrary(target, info)) {
    // A device the named library brings: the backend's Load registers it, or says why not.
    from_library.name = target.device;
    from_library.description = "from " + target.options.at(info.device_library_option);
    from_library.available = true;
    from_library.capabilities.placement = true;
    device = &from_library;
  }
  if (!device) {
    return Fail(CaseStatus::kFailed, "backend '" + info.name + "' has no device '" +
                                         target.device + "'; its devices: " + known);
  }
  if (!device->available) {
    return Fail(CaseStatus::kUnavailable,
                info.name + ":" + device->name + " is not available here: " + device->reason);
  }
  const bool wants_llm = kind == SessionKind::kLanguageModel;
  if (wants_llm && !device->capabilities.language_model) {
    return Fail(CaseStatus::kFailed, info.name + ":" + device->name +
                                         " does not run language models; use llamacpp:cpu");
  }
  if (!wants_llm && device->capabilities.language_model) {
    return Fail(CaseStatus::kFailed, info.name + ":" + device->name +
                                         " runs language models only: measure them with `edgebench llm`");
  }
  TargetResolution r;
  const DeviceInfo chosen = *device;
  r.resolved = ResolvedTarget{target, backend, std::move(info), chosen};
  return r;
}

}  // namespace edgebench
