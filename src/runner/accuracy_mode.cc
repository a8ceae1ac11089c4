#include "runner/accuracy_mode.h"

#include "core/sha256.h"
#include "worker/accuracy_case.h"
#include "worker/case_record.h"
#include "load/case_kind.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

// The case key `edgebench run MODEL?variant=V --target T` gives this artifact and target, with
// run's defaults: the planner's own, so the two cannot drift apart.
Result<std::string> LatencyCaseKey(const ModelSpec& model, const Target& target, const Registry& registry) {
  PlanRequest request;
  request.models = {PlanModel{model, {}, {}}};
  request.targets = {target};
  auto cases = PlanCases(request, registry);
  if (!cases.ok()) return cases.status();
  if (cases.value().empty()) return Status::Error("no case planned");
  return cases.value().front().spec.case_key;
}

class AccuracyMode : public CaseMode {
 public:
  AccuracyMode(AccuracyRequest request, AccuracyRecord base, const AccuracyPlanRequest& plan,
               const Registry& registry)
      : request_(std::move(request)),
        base_(std::move(base)),
        timeout_ms_(plan.timeout_ms ? plan.timeout_ms : DefaultAccuracyTimeoutMs(plan.images)),
        memory_mb_(plan.case_memory_mb ? plan.case_memory_mb : DefaultCaseMemoryMb()),
        executable_(plan.executable),
        worker_args_(plan.worker_args),
        registry_(registry) {}

  Record Run(const CaseSpec& spec, const WorkerMessageCallback& on_message) override {
    Record r = MakeBaseRecord(spec, registry_);
    AccuracyRecord a = base_;
    AccuracyResult failed;
    failed.artifact = request_.artifact.path;
    failed.effective_target = request_.target.text;
    WorkerOutcome outcome;
    AccuracyResult result = AskWorker(executable_, AccuracyRequestToJson(request_), timeout_ms_, worker_args_, memory_mb_,
                                      on_message, AccuracyResultFromJson, std::move(failed), &spec.monitor, &outcome);
    if (outcome.result && !outcome.after_result.empty()) result.notes.push_back(outcome.after_result);
    r.status = ParseCaseStatus(result.status).value_or(CaseStatus::kFailed);
    r.failed_stage = result.stage;
    r.error = result.error;
    r.signal = outcome.signal;
    if (!result.effective_target.empty()) r.effective_target = result.effective_target;
    r.placement = result.placement;
    r.load_ns = result.load_ns;
    r.notes.insert(r.notes.end(), result.notes.begin(), result.notes.end());  // after the base record's own
    r.monitor = AnswerMonitor(outcome, spec.monitor);
    if (result.nonfinite_outputs > 0) {
      r.notes.push_back(std::to_string(result.nonfinite_outputs) +
                        " images had NaN or infinite class scores (a NaN counts as wrong)");
    }
    a.data_description = result.data_description;
    a.data_total = result.data_total;
    a.data_classes = result.data_classes;
    a.input = result.input;
    a.output = result.output;
    a.classes = result.classes;
    a.warmup = result.warmup;
    a.labels = std::move(result.labels);
    a.top1 = std::move(result.top1);
    a.in_top5 = std::move(result.in_top5);
    a.preprocess_ns = std::move(result.preprocess_ns);
    a.inference_ns = std::move(result.inference_ns);
    a.nonfinite_outputs = result.nonfinite_outputs;
    r.accuracy = std::move(a);
    FinishRecord(r);
    return r;
  }

 private:
  AccuracyRequest request_;
  AccuracyRecord base_;  // what ran: the data set and preprocessing, the latency case's key
  int64_t timeout_ms_;
  int64_t memory_mb_;
  std::string executable_;
  std::vector<std::string> worker_args_;
  const Registry& registry_;
};

}  // namespace

int64_t DefaultAccuracyTimeoutMs(int64_t images) { return 120000 + 100 * images; }

Result<std::vector<PlannedCase>> PlanAccuracyCases(const AccuracyPlanRequest& request, const Registry& registry) {
  if (Status fits = CheckCaseCount(static_cast<double>(request.variants.size()) *
                                       static_cast<double>(request.targets.size()),
                                   "the accuracy plan");
      !fits.ok()) {
    return fits;
  }
  std::vector<PlannedCase> cases;
  ArtifactDigests digests;
  for (const auto& [variant, model] : request.variants) {
    for (const PlannedTarget& p : PlanTargets(model, request.targets, registry)) {
      PlannedCase planned;
      CaseSpec& spec = planned.spec;
      spec.model = model.name;
      spec.variant = variant;
      spec.target = p.target;
      spec.scenario = ModeScenarioName(CaseKind::kAccuracy);
      spec.monitor = request.monitor;
      AccuracyRecord a;
      a.data_source = request.data.source;
      a.data_split = request.data.split;
      a.data_offset = request.data.offset;
      a.data_limit = request.data.limit;
      a.preprocess = request.preprocess;
      a.class_names = model.labels;
      if (p.artifact) {
        spec.artifact = p.artifact->path;
        auto digest = digests.Of(spec.artifact);
        if (!digest.ok()) return digest.status();
        spec.artifact_sha256 = digest.take();
        auto key = LatencyCaseKey(model, p.target, registry);
        if (!key.ok()) return key.status();
        a.latency_case_key = key.take();
      } else {
        planned.skip_reason = p.skip_reason;
      }
      // What decides the answer beyond the artifact and target: the images and how they are made.
      spec.case_key = Sha256Hex(CaseKey(spec) + "|data=" + request.data.source + "|split=" + request.data.split +
                                "|offset=" + std::to_string(request.data.offset) +
                                "|limit=" + std::to_string(request.data.limit) + "|preprocess=" + request.preprocess)
                          .substr(0, 16);
      if (p.artifact) {
        AccuracyRequest pass{model.name, *p.artifact, p.target, request.data,
                             request.preprocess, model.labels, request.warmup};
        planned.mode = std::make_shared<AccuracyMode>(std::move(pass), std::move(a), request, registry);
      }
      cases.push_back(std::move(planned));
    }
  }
  return cases;
}

}  // namespace edgebench
