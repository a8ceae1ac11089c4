#include "runner/token_drift_mode.h"

#include <stdlib.h>

#include <filesystem>

#include "core/sha256.h"
#include "core/strings.h"
#include "load/settings.h"
#include "worker/case_record.h"
#include "worker/token_logits_case.h"
#include "load/case_kind.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

// A temporary directory for the reference's logits, removed when the last case holding it is gone.
class LogitsDirectory {
 public:
  static Result<std::shared_ptr<LogitsDirectory>> Create() {
    std::error_code ec;
    std::string pattern = (std::filesystem::temp_directory_path(ec) / "edgebench-token-drift-XXXXXX").string();
    if (ec || ::mkdtemp(pattern.data()) == nullptr) {
      return Status::Error("cannot create a temporary directory for the reference's logits under " +
                           std::filesystem::temp_directory_path(ec).string() + " (set TMPDIR elsewhere)");
    }
    return std::shared_ptr<LogitsDirectory>(new LogitsDirectory(pattern));
  }
  LogitsDirectory(const LogitsDirectory&) = delete;
  LogitsDirectory& operator=(const LogitsDirectory&) = delete;
  ~LogitsDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string File() const { return path_ + "/reference.logits"; }

 private:
  explicit LogitsDirectory(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

enum class Side { kReference, kItself, kCandidate };

class TokenDriftSession {
 public:
  TokenDriftSession(TokenDriftPlanRequest request, std::shared_ptr<LogitsDirectory> directory, const Registry& registry)
      : request_(std::move(request)), directory_(std::move(directory)), registry_(registry) {}

  Record Run(const CaseSpec& spec, Side side, const std::string& model, const WorkerMessageCallback& on_message) {
    Record r = MakeBaseRecord(spec, registry_);
    TokenDriftRecord d;
    d.role = side == Side::kReference ? "reference" : "candidate";
    d.is_reference = side == Side::kItself;
    d.reference = request_.reference;
    d.prompts = request_.prompts_description;
    d.prompt_source = request_.prompt_source;
    d.max_tokens = request_.max_tokens;
    d.seed = request_.seed;
    auto finish = [&](CaseStatus status, const std::string& stage, const std::string& error) {
      r.status = status;
      r.failed_stage = stage;
      r.error = error;
      r.token_drift = std::move(d);
      FinishRecord(r);
      return r;
    };
    if (side != Side::kReference && !reference_) {
      // The reference's own case was not run here (resumed): run it again, without a record.
      TokenLogitsResult reference = RunSide("reference", request_.reference, request_.target, nullptr, {});
      if (reference.status != "ok") {
        StopOn(reference);
        const CaseStatus status = ParseCaseStatus(reference.status).value_or(CaseStatus::kFailed);
        return finish(status == CaseStatus::kOk ? CaseStatus::kFailed : status, "reference", stop_reason_);
      }
      reference_ = std::move(reference);
    }
    WorkerOutcome worker;
    TokenLogitsResult result = RunSide(d.role, model, spec.target, &worker, on_message);
    r.signal = worker.signal;
    r.monitor = AnswerMonitor(worker, spec.monitor);
    if (!result.effective_target.empty()) r.effective_target = result.effective_target;
    d.description = result.model_description;
    d.vocab_size = result.vocab_size;
    d.random_weights = result.random_weights;
    d.prompt_tokens = result.prompt_tokens;
    d.truncated_prompts = result.truncated_prompts;
    d.drift = result.drift;
    d.per_prompt = result.prompts;
    if (side == Side::kReference) {
      if (result.status != "ok") StopOn(result);
      else reference_ = result;
    }
    if (reference_) d.reference_description = reference_->model_description;
    if (result.status != "ok") {
      return finish(ParseCaseStatus(result.status).value_or(CaseStatus::kFailed), result.stage, result.error);
    }
    return finish(CaseStatus::kOk, "", "");
  }

  const std::string& stop_reason() const { return stop_reason_; }

 private:
  TokenLogitsResult RunSide(const std::string& role, const std::string& model, const Target& target,
                            WorkerOutcome* worker_out, const WorkerMessageCallback& on_message) {
    TokenLogitsRequest request;
    request.role = role;
    request.model = model;
    request.target = target;
    request.logits_file = directory_->File();
    request.prompt_texts = request_.prompt_texts;
    request.random_prompts = request_.random_prompts;
    request.max_tokens = request_.max_tokens;
    request.seed = request_.seed;
    TokenLogitsResult failed;
    failed.model = model;
    failed.effective_target = target.text;
    return AskWorker(request_.executable, TokenLogitsRequestToJson(request), request_.timeout_ms, request_.worker_args,
                     request_.case_memory_mb, on_message, TokenLogitsResultFromJson, std::move(failed),
                     worker_out ? &request_.monitor : nullptr, worker_out);
  }

  void StopOn(const TokenLogitsResult& reference) {
    stop_reason_ = "the reference " + request_.reference + " " + reference.status + " at " + reference.stage + ": " +
                   reference.error + "; nothing to compare against";
  }

  const TokenDriftPlanRequest request_;
  std::shared_ptr<LogitsDirectory> directory_;
  const Registry& registry_;
  std::optional<TokenLogitsResult> reference_;
  std::string stop_reason_;
};

class TokenDriftMode : public CaseMode {
 public:
  TokenDriftMode(std::shared_ptr<TokenDriftSession> session, Side side, std::string model)
      : session_(std::move(session)), side_(side), model_(std::move(model)) {}
  Record Run(const CaseSpec& spec, const WorkerMessageCallback& on_message) override {
    return session_->Run(spec, side_, model_, on_message);
  }
  std::string StopReason() const override { return session_->stop_reason(); }

 private:
  std::shared_ptr<TokenDriftSession> session_;
  Side side_;
  std::string model_;
};

}  // namespace

Result<std::vector<PlannedCase>> PlanTokenDriftCases(const TokenDriftPlanRequest& request, const Registry& registry) {
  auto directory = LogitsDirectory::Create();
  if (!directory.ok()) return directory.status();
  auto session = std::make_shared<TokenDriftSession>(request, directory.take(), registry);
  ArtifactDigests digests;
  auto digest_of = [&](const std::string& path) {
    auto digest = digests.Of(path);
    return digest.ok() ? digest.take() : std::string();
  };
  const std::string reference_sha = digest_of(request.reference);
  // What decides every side's numbers beyond its own file: the reference and the prompts.
  const std::string prompts = "|prompts=" + Sha256Hex(Join(request.prompt_texts, "\n")) +
                              "|random=" + std::to_string(request.random_prompts) +
                              "|max_tokens=" + std::to_string(request.max_tokens);
  std::vector<std::pair<Side, std::string>> sides = {{Side::kReference, request.reference}};
  if (request.reference_row) sides.push_back({Side::kItself, request.reference});
  for (const std::string& c : request.candidates) sides.push_back({Side::kCandidate, c});
  std::vector<PlannedCase> cases;
  for (const auto& [side, path] : sides) {
    PlannedCase planned;
    CaseSpec& spec = planned.spec;
    spec.model = std::filesystem::path(path).stem().string();
    spec.artifact = path;
    spec.artifact_sha256 = side == Side::kCandidate ? digest_of(path) : reference_sha;
    spec.variant = side == Side::kReference ? "logits" : side == Side::kItself ? "itself" : "";
    // A candidate may run on another target than the reference (an accelerator against the CPU):
    // the same file there shows the device's own drift.
    spec.target = side == Side::kCandidate && request.candidate_target ? *request.candidate_target : request.target;
    spec.scenario = ModeScenarioName(CaseKind::kDrift);
    spec.settings.seed = request.seed;
    spec.monitor = request.monitor;
    // The row of the reference against itself is a case of its own, even when a candidate is
    // the same file (as the reference's own run is).
    const std::string role = side == Side::kReference ? "|token_drift|role=reference"
                             : "|token_drift|role=" + std::string(side == Side::kItself ? "itself" : "candidate") +
                                   "|reference=" + (reference_sha.empty() ? request.reference : reference_sha);
    spec.case_key = Sha256Hex(CaseKey(spec) + role + prompts).substr(0, 16);
    planned.mode = std::make_shared<TokenDriftMode>(session, side, path);
    cases.push_back(std::move(planned));
  }
  return cases;
}

}  // namespace edgebench
