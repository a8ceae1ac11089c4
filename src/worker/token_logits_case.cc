#include "worker/token_logits_case.h"

#include <algorithm>

#include "diagnose/token_logits_file.h"
#include "load/llm_scenario.h"
#include "record/record_token_drift.h"
#include "plan/resolve_target.h"

namespace edgebench {
namespace {

TokenLogitsResult Fail(TokenLogitsResult r, const std::string& stage, const std::string& error,
                       const std::string& status = "failed") {
  r.status = status;
  r.stage = stage;
  r.error = error;
  return r;
}

// A prompt's first words, for messages.
std::string Excerpt(const std::string& text) {
  return text.size() <= 40 ? text : text.substr(0, 37) + "...";
}

struct LoadedModel {
  std::unique_ptr<LlmSession> session;
  LlmSessionInfo info;
};

Result<LoadedModel> LoadModel(const TokenLogitsRequest& request, Registry& registry, int64_t tokens,
                              TokenLogitsResult& r, std::string& failed_status) {
  const TargetResolution resolution = ResolveTarget(request.target, registry, SessionKind::kLanguageModel);
  if (!resolution.resolved) {
    failed_status = CaseStatusName(resolution.status);
    return Status::Error(resolution.error);
  }
  const ResolvedTarget& target = *resolution.resolved;
  LlmLoadHints hints;
  hints.tokens_per_sequence = static_cast<int32_t>(std::max<int64_t>(tokens, 1));
  auto session = target.backend->LoadLlm(Artifact{request.model}, target.target, hints);
  if (!session.ok()) return session.status();
  LoadedModel loaded{session.take(), {}};
  loaded.info = loaded.session->Info();
  Target effective = target.target;
  for (const auto& [key, value] : loaded.info.effective_options) effective.options[key] = value;
  r.effective_target = effective.Canonical();
  r.model_description = loaded.info.model_description;
  r.vocab_size = loaded.info.vocab_size;
  r.random_weights = loaded.info.random_weights;
  return loaded;
}

// The prompts' tokens as the model's tokenizer makes them, cut to max_tokens.
Result<std::vector<std::vector<int32_t>>> TokenizePrompts(LlmSession& session, const TokenLogitsRequest& request,
                                                          int64_t* truncated) {
  std::vector<std::vector<int32_t>> prompts;
  for (size_t i = 0; i < request.prompt_texts.size(); ++i) {
    auto tokens = session.Tokenize(request.prompt_texts[i]);
    if (!tokens.ok()) {
      return Status::Error("prompt " + std::to_string(i + 1) + " ('" + Excerpt(request.prompt_texts[i]) +
                           "'): " + tokens.error());
    }
    std::vector<int32_t> t = tokens.take();
    if (static_cast<int64_t>(t.size()) > request.max_tokens) {
      t.resize(static_cast<size_t>(request.max_tokens));
      if (truncated) ++*truncated;
    }
    if (t.size() < 2) {
      return Status::Error("prompt " + std::to_string(i + 1) + " ('" + Excerpt(request.prompt_texts[i]) +
                           "') is " + std::to_string(t.size()) +
                           " token long: a position is scored against the token after it, so a prompt needs "
                           "at least 2 tokens");
    }
    prompts.push_back(std::move(t));
  }
  return prompts;
}

TokenLogitsResult RunReference(const TokenLogitsRequest& request, Registry& registry, const StageCallback& stage) {
  TokenLogitsResult r;
  r.model = request.model;
  r.effective_target = request.target.text;
  stage("load");
  std::string failed_status = "failed";
  auto loaded = LoadModel(request, registry, request.max_tokens, r, failed_status);
  if (!loaded.ok()) return Fail(r, "load", loaded.error(), failed_status);
  LlmSession& session = *loaded.value().session;

  stage("inputs");
  TokenLogitsHeader header;
  header.model = request.model + " (" + r.model_description + ")";
  header.vocab_size = r.vocab_size;
  if (!request.prompt_texts.empty()) {
    auto prompts = TokenizePrompts(session, request, &r.truncated_prompts);
    if (!prompts.ok()) return Fail(r, "inputs", prompts.error());
    header.prompts = prompts.take();
  } else {
    header.prompts = SeededPrompts(request.random_prompts, request.max_tokens, r.vocab_size, request.seed);
  }
  for (const auto& p : header.prompts) r.prompt_tokens.push_back(static_cast<int64_t>(p.size()));
  auto writer = TokenLogitsWriter::Create(request.logits_file, header);
  if (!writer.ok()) return Fail(r, "inputs", writer.error());

  stage("run");
  for (size_t i = 0; i < header.prompts.size(); ++i) {
    auto logits = session.EvaluateAllLogits(header.prompts[i]);
    if (!logits.ok()) return Fail(r, "run", "prompt " + std::to_string(i + 1) + ": " + logits.error());
    if (Status s = writer.value().WritePrompt(logits.value()); !s.ok()) return Fail(r, "run", s.message());
  }
  if (Status s = writer.value().Finish(); !s.ok()) return Fail(r, "run", s.message());
  return r;
}

TokenLogitsResult RunCandidate(const TokenLogitsRequest& request, Registry& registry, const StageCallback& stage) {
  TokenLogitsResult r;
  r.model = request.model;
  r.effective_target = request.target.text;
  stage("inputs");
  auto reader = TokenLogitsReader::Open(request.logits_file);
  if (!reader.ok()) return Fail(r, "inputs", reader.error());
  const TokenLogitsHeader& header = reader.value().header();
  int64_t longest = 1;
  for (const auto& p : header.prompts) longest = std::max<int64_t>(longest, static_cast<int64_t>(p.size()));

  stage("load");
  std::string failed_status = "failed";
  auto loaded = LoadModel(request, registry, longest, r, failed_status);
  if (!loaded.ok()) return Fail(r, "load", loaded.error(), failed_status);
  LlmSession& session = *loaded.value().session;
  if (r.vocab_size != header.vocab_size) {
    return Fail(r, "inputs",
                "the candidate's vocabulary has " + std::to_string(r.vocab_size) + " tokens and the reference " +
                    header.model + "'s " + std::to_string(header.vocab_size) +
                    ": the two models do not share a tokenizer, so their next-token distributions cannot be "
                    "compared; compare versions (quantizations) of one model");
  }
  if (!request.prompt_texts.empty()) {
    // Same size is not same vocabulary: the candidate must also turn each text into the tokens
    // the reference evaluated.
    auto own = TokenizePrompts(session, request, nullptr);
    if (!own.ok()) return Fail(r, "inputs", own.error());
    if (own.value().size() != header.prompts.size()) {
      return Fail(r, "inputs", "the reference logits file holds " + std::to_string(header.prompts.size()) +
                                   " prompts, the request " + std::to_string(own.value().size()));
    }
    for (size_t i = 0; i < header.prompts.size(); ++i) {
      if (own.value()[i] != header.prompts[i]) {
        return Fail(r, "inputs",
                    "the candidate tokenizes prompt " + std::to_string(i + 1) + " ('" +
                        Excerpt(request.prompt_texts[i]) + "') differently from the reference " + header.model +
                        ": the two models do not share a tokenizer; compare versions (quantizations) of one model");
      }
    }
  }

  stage("run");
  TokenDriftAccumulator all;
  const size_t vocab = static_cast<size_t>(header.vocab_size);
  for (size_t i = 0; i < header.prompts.size(); ++i) {
    const std::vector<int32_t>& tokens = header.prompts[i];
    auto reference = reader.value().ReadPrompt(i);
    if (!reference.ok()) return Fail(r, "run", reference.error());
    auto candidate = session.EvaluateAllLogits(tokens);
    if (!candidate.ok()) return Fail(r, "run", "prompt " + std::to_string(i + 1) + ": " + candidate.error());
    TokenDriftAccumulator prompt;
    for (size_t k = 0; k + 1 < tokens.size(); ++k) {
      const std::span<const float> ref_row(reference.value().data() + k * vocab, vocab);
      const std::span<const float> cand_row(candidate.value().data() + k * vocab, vocab);
      auto c = CompareTokenLogits(ref_row, cand_row, tokens[k + 1]);
      if (!c.ok()) {
        return Fail(r, "run", "prompt " + std::to_string(i + 1) + ", position " + std::to_string(k) + ": " + c.error());
      }
      prompt.Add(c.value());
    }
    const TokenDriftSummary s = prompt.Summary();
    r.prompts.push_back({static_cast<int64_t>(tokens.size()), s.positions, s.mean_kld.value, s.max_kld,
                         s.same_top.value});
    r.prompt_tokens.push_back(static_cast<int64_t>(tokens.size()));
    all.Merge(prompt);
  }
  r.drift = all.Summary();
  return r;
}

}  // namespace

nlohmann::json TokenLogitsRequestToJson(const TokenLogitsRequest& r) {
  return {{"mode", "token_logits"},     {"role", r.role},
          {"model", r.model},           {"target", r.target.text},
          {"logits_file", r.logits_file}, {"prompt_texts", r.prompt_texts},
          {"random_prompts", r.random_prompts}, {"max_tokens", r.max_tokens},
          {"seed", r.seed}};
}

Result<TokenLogitsRequest> TokenLogitsRequestFromJson(const nlohmann::json& j) {
  try {
    TokenLogitsRequest r;
    r.role = j.at("role").get<std::string>();
    if (r.role != "reference" && r.role != "candidate") {
      return Status::Error("token_logits request role '" + r.role + "': expected reference or candidate");
    }
    r.model = j.at("model").get<std::string>();
    auto target = ReadCaseTarget(j);
    if (!target.ok()) return target.status();
    r.target = target.take();
    r.logits_file = j.at("logits_file").get<std::string>();
    r.prompt_texts = j.at("prompt_texts").get<std::vector<std::string>>();
    r.random_prompts = j.at("random_prompts").get<int64_t>();
    r.max_tokens = j.at("max_tokens").get<int64_t>();
    r.seed = j.at("seed").get<uint64_t>();
    if (r.max_tokens < 2) return Status::Error("token_logits request: max_tokens must be at least 2");
    if (r.role == "reference" && r.prompt_texts.empty() && r.random_prompts < 1) {
      return Status::Error("token_logits request: a reference needs prompt texts or random_prompts >= 1");
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed token_logits request: ") + e.what());
  }
}

nlohmann::json TokenLogitsResultToJson(const TokenLogitsResult& r) {
  nlohmann::json j = {{"status", r.status},
                      {"stage", r.stage},
                      {"error", r.error},
                      {"effective_target", r.effective_target},
                      {"model", r.model},
                      {"model_description", r.model_description},
                      {"vocab_size", r.vocab_size},
                      {"random_weights", r.random_weights},
                      {"prompt_tokens", r.prompt_tokens},
                      {"truncated_prompts", r.truncated_prompts},
                      {"prompts", PromptDriftsToJson(r.prompts)}};
  if (r.drift) j["drift"] = TokenDriftSummaryToJson(*r.drift);
  return j;
}

Result<TokenLogitsResult> TokenLogitsResultFromJson(const nlohmann::json& j) {
  try {
    TokenLogitsResult r;
    r.status = j.at("status").get<std::string>();
    r.stage = j.at("stage").get<std::string>();
    r.error = j.at("error").get<std::string>();
    r.effective_target = j.at("effective_target").get<std::string>();
    r.model = j.at("model").get<std::string>();
    r.model_description = j.at("model_description").get<std::string>();
    r.vocab_size = j.at("vocab_size").get<int32_t>();
    r.random_weights = j.at("random_weights").get<bool>();
    r.prompt_tokens = j.at("prompt_tokens").get<std::vector<int64_t>>();
    r.truncated_prompts = j.at("truncated_prompts").get<int64_t>();
    r.prompts = PromptDriftsFromJson(j.at("prompts"));
    if (j.contains("drift")) r.drift = TokenDriftSummaryFromJson(j.at("drift"));
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed token_logits result: ") + e.what());
  }
}

TokenLogitsResult RunTokenLogitsCase(const TokenLogitsRequest& request, Registry& registry,
                                     const StageCallback& on_stage) {
  auto stage = [&](const std::string& name) {
    if (on_stage) on_stage(name);
  };
  return request.role == "reference" ? RunReference(request, registry, stage) : RunCandidate(request, registry, stage);
}

}  // namespace edgebench
