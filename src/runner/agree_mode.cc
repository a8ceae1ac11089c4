#include "runner/agree_mode.h"

#include <algorithm>

#include "core/sha256.h"
#include "diagnose/output_mapping.h"
#include "worker/outputs_case.h"
#include "worker/case_record.h"
#include "load/case_kind.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

// What every case of one `agree` shares: the request, the reference's outputs and the inputs
// every target gets (once the reference has run), and why the plan stopped, if it did.
class AgreeSession {
 public:
  AgreeSession(const AgreePlanRequest& request, const PlannedTarget& reference, std::string input_description,
               const Registry& registry, std::shared_ptr<std::map<std::string, AgreeOutcome>> outcomes)
      : request_(request),
        reference_(reference),
        input_description_(std::move(input_description)),
        registry_(registry),
        outcomes_(std::move(outcomes)) {}

  Record Run(const CaseSpec& spec, const PlannedTarget& target, bool is_reference,
             const WorkerMessageCallback& on_message) {
    Record r = MakeBaseRecord(spec, registry_);
    r.agreement = AgreementRecord{reference_.target.text, is_reference, input_description_, request_.tolerances, {}};
    AgreeOutcome& outcome = (*outcomes_)[spec.case_key];
    outcome = AgreeOutcome{};
    outcome.is_reference = is_reference;
    auto finish = [&](CaseStatus status, const std::string& stage, const std::string& error) {
      r.status = status;
      r.failed_stage = stage;
      r.error = error;
      FinishRecord(r);
      return r;
    };
    if (!is_reference && !reference_outputs_) {
      // The reference's own case was not run here (resumed): run it again, without a record.
      OutputsResult reference = RunOutputs(reference_, {}, nullptr, {});
      const CaseStatus status = ParseCaseStatus(reference.status).value_or(CaseStatus::kFailed);
      if (Status s = KeepReference(reference); !s.ok()) {
        return finish(status == CaseStatus::kOk ? CaseStatus::kFailed : status, "reference", stop_reason_);
      }
    }
    WorkerOutcome worker;
    OutputsResult result =
        RunOutputs(target, is_reference ? std::vector<Tensor>() : reference_inputs_, &worker, on_message);
    outcome.artifact = result.artifact;
    outcome.effective_target = result.effective_target;
    r.effective_target = result.effective_target.empty() ? r.effective_target : result.effective_target;
    r.placement = result.placement;
    r.signal = worker.signal;
    r.monitor = AnswerMonitor(worker, spec.monitor);
    if (is_reference) {
      if (result.status != "ok") {
        const CaseStatus status = ParseCaseStatus(result.status).value_or(CaseStatus::kFailed);
        const std::string stage = result.stage, error = result.error;
        (void)KeepReference(result);
        return finish(status, stage, error);
      }
      if (Status s = KeepReference(result); !s.ok()) return finish(CaseStatus::kFailed, "compare", s.message());
      outcome.reference_outputs = *reference_outputs_;
      return finish(CaseStatus::kOk, "", "");
    }
    if (result.status != "ok") {
      return finish(ParseCaseStatus(result.status).value_or(CaseStatus::kFailed), result.stage, result.error);
    }
    // The manifest's output mapping first, so that twins' outputs carry the same names.
    auto mapped = ApplyOutputMapping(target.artifact->outputs, std::move(result.outputs), target.artifact->path);
    if (!mapped.ok()) return finish(CaseStatus::kFailed, "compare", mapped.error());
    TargetAgreement comparison = CompareWithReference(
        {reference_.target.text, *reference_outputs_, ArtifactPostprocess(request_.model, *reference_.artifact)},
        {target.target.text, mapped.take(), ArtifactPostprocess(request_.model, *target.artifact)},
        request_.tolerances, request_.model.detection_tolerances);
    r.agreement->outputs = comparison.outputs;
    // Records have no fields for detection metrics: a disagreement is a failed comparison with
    // the violations as its error, so the record is not read as agreement.
    const std::string error = comparison.error.empty() ? comparison.detection_disagreement() : comparison.error;
    outcome.comparison = std::move(comparison);
    return finish(error.empty() ? CaseStatus::kOk : CaseStatus::kFailed, error.empty() ? "" : "compare", error);
  }

  const std::string& stop_reason() const { return stop_reason_; }

 private:
  OutputsResult RunOutputs(const PlannedTarget& target, std::vector<Tensor> inputs, WorkerOutcome* worker_out,
                           const WorkerMessageCallback& on_message) {
    OutputsRequest request{request_.model.name, *target.artifact, reference_.artifact->layout, target.target,
                           request_.dims, request_.seed, std::move(inputs), request_.image, request_.preprocess, {}};
    if (auto it = request_.pipelines.find(target.target.text); it != request_.pipelines.end()) request.pipeline = it->second;
    OutputsResult failed;
    failed.artifact = target.artifact->path;
    failed.effective_target = target.target.text;
    return AskWorker(request_.executable, OutputsRequestToJson(request), request_.timeout_ms, request_.worker_args, 0,
                     on_message, OutputsResultFromJson, std::move(failed), worker_out ? &request_.monitor : nullptr,
                     worker_out);
  }

  // The reference's answer kept for every other target; or, when it has none, the plan stops
  // (nothing can be compared) and the error says why.
  Status KeepReference(OutputsResult& result) {
    std::string error;
    if (result.status != "ok") {
      error = result.status + " at " + result.stage + ": " + result.error;
    } else {
      auto mapped = ApplyOutputMapping(reference_.artifact->outputs, std::move(result.outputs), reference_.artifact->path);
      if (mapped.ok()) {
        // Every other target gets exactly these (an image: the same spec, decoded the same way).
        reference_outputs_ = mapped.take();
        reference_inputs_ = std::move(result.inputs);
        return Status::Ok();
      }
      error = mapped.error();
    }
    stop_reason_ = "the reference target " + reference_.target.text + " failed (" + error +
                   "); nothing to compare against";
    return Status::Error(error);
  }

  const AgreePlanRequest request_;
  const PlannedTarget reference_;
  const std::string input_description_;
  const Registry& registry_;
  std::shared_ptr<std::map<std::string, AgreeOutcome>> outcomes_;
  std::optional<std::vector<Tensor>> reference_outputs_;
  std::vector<Tensor> reference_inputs_;
  std::string stop_reason_;
};

class AgreeTargetMode : public CaseMode {
 public:
  AgreeTargetMode(std::shared_ptr<AgreeSession> session, PlannedTarget target, bool is_reference)
      : session_(std::move(session)), target_(std::move(target)), is_reference_(is_reference) {}
  Record Run(const CaseSpec& spec, const WorkerMessageCallback& on_message) override {
    return session_->Run(spec, target_, is_reference_, on_message);
  }
  std::string StopReason() const override { return session_->stop_reason(); }

 private:
  std::shared_ptr<AgreeSession> session_;
  PlannedTarget target_;
  bool is_reference_;
};

}  // namespace

Result<AgreePlan> PlanAgreeCases(const AgreePlanRequest& request, const Registry& registry) {
  std::vector<PlannedTarget> targets;
  if (request.pipelines.empty()) {
    targets = PlanTargets(request.model, request.targets, registry);
  } else {
    // A pipeline: the file stands for every target's artifacts (each stage chose its own).
    for (const Target& t : request.targets) {
      ArtifactSpec file;
      file.path = request.pipeline_file;
      targets.push_back({t, file, ""});
    }
  }
  if (const std::string missing = MissingArtifacts(targets); !missing.empty()) return Status::Error(missing);
  size_t ref_index = 0;
  if (!request.reference.empty()) {
    ref_index = targets.size();
    for (size_t i = 0; i < targets.size(); ++i) {
      if (targets[i].target.text == request.reference) ref_index = i;
    }
    if (ref_index == targets.size()) return Status::Error("--reference '" + request.reference + "' is not one of --target");
  }
  std::rotate(targets.begin(), targets.begin() + static_cast<long>(ref_index),
              targets.begin() + static_cast<long>(ref_index) + 1);
  if (!targets[0].artifact) {
    return Status::Error("the reference target " + targets[0].target.text + " is skipped: " + targets[0].skip_reason);
  }
  AgreePlan plan;
  plan.reference = targets[0].target.text;
  plan.tolerances = request.tolerances;
  plan.input_description =
      request.image.empty() ? "seeded random (seed " + std::to_string(request.seed) + ")" : request.image;
  if (!request.pipelines.empty()) {
    const PipelinePlan& first = request.pipelines.begin()->second;
    plan.input_description = first.diffusion ? "the pipeline's seeded prompt and latents (seed " +
                                                   std::to_string(first.diffusion->seed) + ")"
                                             : first.input;
  }
  plan.outcomes = std::make_shared<std::map<std::string, AgreeOutcome>>();
  auto session = std::make_shared<AgreeSession>(request, targets[0], plan.input_description, registry, plan.outcomes);
  ArtifactDigests digests;
  for (size_t i = 0; i < targets.size(); ++i) {
    const PlannedTarget& p = targets[i];
    PlannedCase planned;
    CaseSpec& spec = planned.spec;
    spec.model = request.model.name;
    spec.artifact = p.artifact ? p.artifact->path : "";
    spec.target = p.target;
    spec.dims = request.dims;
    spec.scenario = ModeScenarioName(CaseKind::kAgree);
    spec.settings.seed = request.seed;
    spec.monitor = request.monitor;
    if (!spec.artifact.empty()) {
      // Unreadable here means the worker will say why; the record then has no digest.
      auto digest = digests.Of(spec.artifact);
      if (digest.ok()) spec.artifact_sha256 = digest.take();
    }
    spec.case_key =
        Sha256Hex(CaseKey(spec) + "|reference=" + plan.reference + "|input=" + plan.input_description).substr(0, 16);
    if (p.artifact) {
      planned.mode = std::make_shared<AgreeTargetMode>(session, p, i == 0);
    } else {
      planned.skip_reason = p.skip_reason;
    }
    plan.cases.push_back(std::move(planned));
  }
  return plan;
}

}  // namespace edgebench
