#include "runner/drift_mode.h"

#include <stdlib.h>

#include <filesystem>

#include "core/sha256.h"
#include "diagnose/candidate_drift.h"
#include "worker/intermediates_case.h"
#include "worker/case_record.h"
#include "load/case_kind.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

// A temporary directory removed with everything in it when the last case holding it is gone.
class ScratchDir {
 public:
  static Result<std::shared_ptr<ScratchDir>> Make() {
    std::string pattern = (std::filesystem::temp_directory_path() / "edgebench-drift-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return Status::Error("cannot create a temporary directory under " +
                           std::filesystem::temp_directory_path().string() + " for the tensors");
    }
    return std::shared_ptr<ScratchDir>(new ScratchDir(pattern));
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  // A fresh, empty subdirectory.
  std::string Sub(const std::string& name) const {
    const std::string dir = path_ + "/" + name;
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    std::filesystem::create_directories(dir, ec);
    return dir;
  }
  void Remove(const std::string& name) const {
    std::error_code ec;
    std::filesystem::remove_all(path_ + "/" + name, ec);
  }

 private:
  explicit ScratchDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

std::vector<DriftTensor> ToDrift(const std::vector<DumpedTensor>& dumped) {
  std::vector<DriftTensor> tensors;
  for (const DumpedTensor& d : dumped) tensors.push_back({d.name, d.node, d.op_type, d.shape, d.file, d.skip_reason});
  return tensors;
}

DriftSideRun SideRun(const IntermediatesResult& result) {
  return {result.samples, result.input_provenance, result.input_shapes, ToDrift(result.outputs),
          ToDrift(result.tensors), result.intermediates_unsupported};
}

// What every case of one `drift` shares: the request, the scratch directory, the reference's
// run (its files stay until the plan ends), and why the plan stopped, if it did.
class DriftSession {
 public:
  DriftSession(DriftPlanRequest request, std::shared_ptr<ScratchDir> scratch, const Registry& registry)
      : request_(std::move(request)), scratch_(std::move(scratch)), registry_(registry) {}

  Record Run(const CaseSpec& spec, const DriftSide& side, size_t index, bool is_reference,
             const WorkerMessageCallback& on_message) {
    Record r = MakeBaseRecord(spec, registry_);
    TensorDriftRecord section;
    section.is_reference = is_reference;
    section.reference_label = request_.reference.label;
    section.reference_artifact = request_.reference.artifact;
    section.candidate_label = side.label;
    section.min_sqnr_db = request_.min_sqnr_db;
    auto finish = [&](CaseStatus status, const std::string& stage, const std::string& error) {
      r.status = status;
      r.failed_stage = stage;
      r.error = error;
      r.tensor_drift = std::move(section);
      FinishRecord(r);
      return r;
    };
    if (!is_reference && !reference_) {
      // The reference's own case was not run here (resumed): run it again, without a record.
      IntermediatesResult reference = RunSide(request_.reference, "reference", true, nullptr, {});
      if (reference.status != "ok") {
        StopOn(reference);
        const CaseStatus status = ParseCaseStatus(reference.status).value_or(CaseStatus::kFailed);
        return finish(status == CaseStatus::kOk ? CaseStatus::kFailed : status, "reference", stop_reason_);
      }
      reference_ = std::move(reference);
    }
    WorkerOutcome worker;
    const std::string name = is_reference ? "reference" : "candidate-" + std::to_string(index);
    IntermediatesResult exposed = RunSide(side, is_reference ? name : name + "/exposed", true, &worker, on_message);
    if (!exposed.effective_target.empty()) r.effective_target = exposed.effective_target;
    r.signal = worker.signal;
    r.monitor = AnswerMonitor(worker, spec.monitor);
    section.samples = exposed.samples;
    section.inputs = exposed.input_provenance;
    section.intermediates_unsupported = exposed.intermediates_unsupported;
    if (exposed.status != "ok") {
      if (is_reference) StopOn(exposed);
      if (!is_reference) scratch_->Remove(name);
      return finish(ParseCaseStatus(exposed.status).value_or(CaseStatus::kFailed), exposed.stage, exposed.error);
    }
    if (is_reference) {
      reference_ = std::move(exposed);
      return finish(CaseStatus::kOk, "", "");
    }
    const DriftSideRun reference_run = SideRun(*reference_);
    const DriftSideRun exposed_run = SideRun(exposed);
    const bool labelled = !request_.labels.empty();
    if (const std::string differ = InputsDiffer(reference_run.input_shapes, exposed_run.input_shapes, labelled);
        !differ.empty()) {
      scratch_->Remove(name);
      section.not_comparable = differ;
      return finish(CaseStatus::kFailed, "inputs", differ);
    }
    // The candidate as it runs when nothing is exposed (ORT fuses DQ->Conv->Q into QLinearConv
    // only then): is its output the exposed run's?
    const IntermediatesResult plain = RunSide(side, name + "/plain", false, nullptr, on_message);
    std::optional<DriftSideRun> plain_run;
    if (plain.status == "ok") plain_run = SideRun(plain);
    const std::string plain_error = plain.status + " at " + plain.stage + ": " + plain.error;
    TensorDriftRecord compared = CompareCandidate(reference_run, exposed_run, plain_run, plain_error, request_.labels,
                                                  request_.min_sqnr_db);
    scratch_->Remove(name);  // disk use stays at one candidate at a time
    compared.is_reference = false;
    compared.reference_label = section.reference_label;
    compared.reference_artifact = section.reference_artifact;
    compared.candidate_label = side.label;
    section = std::move(compared);
    return finish(CaseStatus::kOk, "", "");
  }

  const std::string& stop_reason() const { return stop_reason_; }

 private:
  IntermediatesResult RunSide(const DriftSide& side, const std::string& dir_name, bool expose, WorkerOutcome* worker_out,
                              const WorkerMessageCallback& on_message) {
    IntermediatesRequest request{request_.model,  side.artifact,         request_.target, request_.dims,
                                 request_.inputs, scratch_->Sub(dir_name), expose,              request_.data,
                                 request_.preprocess, side.layout};
    IntermediatesResult failed;
    failed.artifact = side.artifact;
    failed.effective_target = request_.target.text;
    return AskWorker(request_.executable, IntermediatesRequestToJson(request), request_.timeout_ms,
                     request_.worker_args, 0, on_message, IntermediatesResultFromJson, std::move(failed),
                     worker_out ? &request_.monitor : nullptr, worker_out);
  }

  void StopOn(const IntermediatesResult& reference) {
    stop_reason_ = "the reference " + request_.reference.label + " " + reference.status + " at " + reference.stage +
                   ": " + reference.error + "; nothing to compare against";
  }

  const DriftPlanRequest request_;
  std::shared_ptr<ScratchDir> scratch_;
  const Registry& registry_;
  std::optional<IntermediatesResult> reference_;
  std::string stop_reason_;
};

class DriftSideMode : public CaseMode {
 public:
  DriftSideMode(std::shared_ptr<DriftSession> session, DriftSide side, size_t index, bool is_reference)
      : session_(std::move(session)), side_(std::move(side)), index_(index), is_reference_(is_reference) {}
  Record Run(const CaseSpec& spec, const WorkerMessageCallback& on_message) override {
    return session_->Run(spec, side_, index_, is_reference_, on_message);
  }
  std::string StopReason() const override { return session_->stop_reason(); }

 private:
  std::shared_ptr<DriftSession> session_;
  DriftSide side_;
  size_t index_;
  bool is_reference_;
};

}  // namespace

Result<std::vector<PlannedCase>> PlanDriftCases(const DriftPlanRequest& request, const Registry& registry) {
  auto scratch = ScratchDir::Make();
  if (!scratch.ok()) return scratch.status();
  auto session = std::make_shared<DriftSession>(request, scratch.take(), registry);
  ArtifactDigests digests;
  auto digest_of = [&](const std::string& path) {
    auto digest = digests.Of(path);
    return digest.ok() ? digest.take() : std::string();
  };
  // What decides every side's tensors beyond its artifact: the reference and the samples.
  const std::string reference_sha = digest_of(request.reference.artifact);
  const std::string samples = "|data=" + request.data.source + "|split=" + request.data.split +
                              "|offset=" + std::to_string(request.data.offset) +
                              "|limit=" + std::to_string(request.data.limit) + "|preprocess=" + request.preprocess;
  std::vector<PlannedCase> cases;
  for (size_t i = 0; i <= request.candidates.size(); ++i) {
    const bool is_reference = i == 0;
    const DriftSide& side = is_reference ? request.reference : request.candidates[i - 1];
    PlannedCase planned;
    CaseSpec& spec = planned.spec;
    spec.model = request.model;
    spec.artifact = side.artifact;
    spec.artifact_sha256 = is_reference ? reference_sha : digest_of(side.artifact);
    spec.variant = side.variant;
    spec.target = request.target;
    spec.dims = request.dims;
    spec.scenario = ModeScenarioName(CaseKind::kDrift);
    spec.inputs = request.inputs.specs;
    spec.input_pool = request.inputs.pool_size;
    spec.settings.seed = request.inputs.seed;
    spec.monitor = request.monitor;
    const std::string role = is_reference ? "|role=reference"
                                          : "|role=candidate|reference=" + (reference_sha.empty() ? request.reference.artifact
                                                                                                 : reference_sha) +
                                                "|min_sqnr=" + std::to_string(request.min_sqnr_db);
    spec.case_key = Sha256Hex(CaseKey(spec) + role + samples).substr(0, 16);
    planned.mode = std::make_shared<DriftSideMode>(session, side, i, is_reference);
    cases.push_back(std::move(planned));
  }
  return cases;
}

}  // namespace edgebench
