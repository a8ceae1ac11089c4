#include "worker/case_record.h"

#include "core/cpu_emulation.h"

#include <filesystem>

#include "backends/target.h"
#include "core/environment.h"
#include "core/machine_limits.h"
#include "load/case_kind.h"
#include "load/finish_record.h"

namespace edgebench {

std::string EffectiveTarget(const Target& requested, const std::map<std::string, std::string>& options) {
  Target effective = requested;
  for (const auto& [key, value] : options) effective.options[key] = value;
  return effective.Canonical();
}

std::optional<Record> TakeScenarioResult(Record& r, ScenarioResult& result) {
  r.warmup_ns = std::move(result.warmup.latency_ns);
  r.warmup_issue_ns = std::move(result.warmup.issue_ns);
  r.measured_ns = std::move(result.measured.latency_ns);
  r.measured_issue_ns = std::move(result.measured.issue_ns);
  r.measured_stream = std::move(result.measured.stream);
  r.measured_service_ns = std::move(result.measured.service_ns);
  r.measured_histograms = std::move(result.measured_histograms);  // a soak or server past the raw-sample cap
  r.measured_server = std::move(result.measured_server);          // a server past it
  r.not_issued = result.not_issued;
  r.frames_delivered = std::move(result.frames_delivered);
  r.frames_dropped = std::move(result.frames_dropped);
  r.measured_start_ns = result.measured_start_ns;
  r.measured_wall_ns = result.measured_wall_ns;
  r.stop_reason = result.stop_reason;
  if (!result.error.ok()) {
    const std::string where = (result.failed_stream >= 0 ? "stream " + std::to_string(result.failed_stream) + ", " : "") +
                              "query " + std::to_string(result.failed_query);
    return FailedRecord(r, CaseStatus::kFailed, result.failed_stage, where + ": " + result.error.message());
  }
  if (r.stop_reason == "max_queries") {
    r.notes.push_back("stopped at max_queries (" + std::to_string(r.effective_settings.max_queries) +
                      ") after " + std::to_string(r.measured_wall_ns / 1'000'000) +
                      " ms, before min_duration; raise --max-queries to run longer");
  }
  return std::nullopt;
}

Record MakeBaseRecord(const CaseSpec& spec, const Registry& registry) {
  Record r;
  r.id = NewRecordId();
  r.started_at = UtcNowIso8601();
  r.case_key = spec.case_key;
  r.model = spec.model;
  r.artifact = spec.artifact;
  r.artifact_sha256 = spec.artifact_sha256;
  r.variant = spec.variant;
  r.tune = spec.tune;
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(spec.artifact, ec);
  r.artifact_bytes = ec ? 0 : static_cast<int64_t>(bytes);
  r.requested_target = spec.TargetText();
  r.scenario = spec.scenario;
  r.requested_settings = spec.settings;
  r.dims = spec.dims;
  // Decided when the case was planned (SettleCase): a soak's durations, the worker's timeout.
  auto effective = EffectiveSettingsOf(spec);
  r.effective_settings = effective.ok() ? effective.value() : spec.settings;
  if (CaseKindOf(spec.scenario) == CaseKind::kLanguageModel) {
    // Every record carries its case's configuration, whatever its status.
    r.llm = LlmRecord{};
    r.llm->settings = spec.llm;
  }
  r.environment = ReadEnvironment();
  if (!r.environment.cpu_emulation.empty()) {
    // Labelled as an emulated accelerator is (record/emulated_device.h): kept, never ranked.
    r.notes.push_back(CpuEmulationNote(r.environment.architecture, r.environment.cpu_emulation));
  }
  r.machine_limits = LoadMachineLimits(r.environment, &r.machine_limits_missing);
  // A pipeline's case without one target has none here (its stages' are in its section).
  const std::optional<Target> target =
      spec.target.backend.empty() ? std::nullopt : std::optional<Target>(spec.target);
  // The case's own runtime only: asking every backend would open every plugin, and a worker
  // opens only its case's runtime (docs/backends.md).
  if (const Backend* backend = target ? registry.Find(target->backend) : nullptr) {
    const BackendInfo info = backend->Info();
    r.environment.runtimes[info.name] = info.runtime + " " + info.version;
    // A device that runs on a runtime of its own (litert:xnnpack on LiteRT's library).
    for (const DeviceInfo& d : info.devices) {
      if (!d.runtime.empty() && target->device == d.name) {
        r.environment.runtimes[info.name + ":" + d.name] = d.runtime;
      }
    }
  }
  if (target) {
    r.backend = target->backend;
    r.device = target->device;
    r.effective_target = target->Canonical();
  }
  return r;
}

Record FailedRecord(Record r, CaseStatus status, const std::string& stage, const std::string& error) {
  r.status = status;
  r.failed_stage = stage;
  r.error = error;
  FinishRecord(r);
  return r;
}

}  // namespace edgebench
