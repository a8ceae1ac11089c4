#include "record/record_sections.h"

#include "record/record_roofline.h"

#include "record/json_numbers.h"
#include "record/monitor_json.h"
#include "record/record_load.h"
#include "record/record_monitor.h"
#include "record/record_accuracy.h"
#include "record/record_drift.h"
#include "record/record_token_drift.h"

namespace edgebench {
namespace {

using json = nlohmann::json;

// A section beside any record, held in an optional member: written when present; one that does
// not read is left out with a warning naming it, and the record still reads.
template <typename T, typename ToJson, typename FromJson>
RecordSection BesideSection(const std::string& key, std::optional<T> Record::*member, ToJson to_json,
                            FromJson from_json) {
  return {key, [member](const Record& r) { return (r.*member).has_value(); },
          [member, to_json](const Record& r) { return json(to_json(*(r.*member))); },
          [key, member, from_json](const json& j, Record& r) {
            if (j.is_null()) return Status::Ok();
            auto value = from_json(j);
            if (value.ok()) {
              r.*member = value.take();
            } else {
              r.read_warnings.push_back("record " + r.id + ": " + key + " section left out: " + value.error());
            }
            return Status::Ok();
          },
          nullptr, nullptr, /*mode=*/false};
}

template <typename Judge>
RecordSection WithJudge(RecordSection section, Judge judge) {
  section.judge = judge;
  return section;
}

json AgreementToJson(const AgreementRecord& a) {
  json outputs = json::array();
  for (const OutputAgreement& o : a.outputs) {
    outputs.push_back({{"name", o.output},
                       {"shape", o.shape},
                       {"max_abs_error", Number(o.max_abs_error)},
                       {"mean_abs_error", Number(o.mean_abs_error)},
                       {"cosine", Number(o.cosine)},
                       {"sqnr_db", Number(o.sqnr_db)},
                       {"top1_agrees", o.top1_agrees ? json(*o.top1_agrees) : json(nullptr)},
                       {"top5_overlap", OptionalNumber(o.top5_overlap)},
                       {"violations", o.violations}});
  }
  return {{"reference_target", a.reference_target},
          {"is_reference", a.is_reference},
          {"input", a.input},
          {"tolerances",
           {{"max_abs", OptionalNumber(a.tolerances.max_abs)},
            {"min_cosine", OptionalNumber(a.tolerances.min_cosine)},
            {"min_sqnr_db", OptionalNumber(a.tolerances.min_sqnr_db)}}},
          {"outputs", outputs}};
}

AgreementRecord AgreementFromJson(const json& j) {
  AgreementRecord a;
  a.reference_target = j.at("reference_target").get<std::string>();
  a.is_reference = j.value("is_reference", false);
  a.input = j.value("input", "");
  const json t = j.value("tolerances", json::object());
  auto tolerance = [&](const char* key) -> std::optional<double> {
    if (!t.contains(key) || t.at(key).is_null()) return std::nullopt;
    return NumberFrom(t.at(key));
  };
  a.tolerances = {tolerance("max_abs"), tolerance("min_cosine"), tolerance("min_sqnr_db")};
  for (const json& o : j.value("outputs", json::array())) {
    OutputAgreement out;
    out.output = o.at("name").get<std::string>();
    out.shape = o.value("shape", std::vector<int64_t>{});
    out.max_abs_error = NumberFrom(o.at("max_abs_error"));
    out.mean_abs_error = NumberFrom(o.at("mean_abs_error"));
    out.cosine = NumberFrom(o.at("cosine"));
    out.sqnr_db = NumberFrom(o.at("sqnr_db"));
    if (o.contains("top1_agrees") && !o.at("top1_agrees").is_null()) out.top1_agrees = o.at("top1_agrees").get<bool>();
    if (o.contains("top5_overlap") && !o.at("top5_overlap").is_null()) out.top5_overlap = NumberFrom(o.at("top5_overlap"));
    out.violations = o.value("violations", std::vector<std::string>{});
    a.outputs.push_back(out);
  }
  return a;
}

std::vector<RecordSection> MakeSections() {
  return {
      {"agreement", [](const Record& r) { return r.agreement.has_value(); },
       [](const Record& r) { return AgreementToJson(*r.agreement); },
       [](const json& j, Record& r) {
         try {
           r.agreement = AgreementFromJson(j);
           return Status::Ok();
         } catch (const json::exception& e) {
           return Status::Error(e.what());
         }
       },
       nullptr,
       [](const Record& r, const std::optional<ScenarioRules>&, std::vector<std::string>& reasons) {
         for (const OutputAgreement& o : r.agreement->outputs) {
           for (const std::string& v : o.violations) reasons.push_back("output '" + o.output + "' outside tolerance: " + v);
         }
       }},
      // Accuracy is judged by the reader against the reference (docs/accuracy.md), not here.
      {"accuracy", [](const Record& r) { return r.accuracy.has_value(); },
       [](const Record& r) { return AccuracyToJson(*r.accuracy); },
       [](const json& j, Record& r) {
         auto accuracy = AccuracyFromJson(j);
         if (!accuracy.ok()) return accuracy.status();
         r.accuracy = accuracy.take();
         return Status::Ok();
       },
       [](Record& r, const std::optional<ScenarioRules>&) { FinishAccuracy(*r.accuracy); }, nullptr},
      // Drift below the threshold is the finding, not a fault of the measurement: a record is
      // INVALID only when the comparison could not be made or was incomplete.
      {"tensor_drift", [](const Record& r) { return r.tensor_drift.has_value(); },
       [](const Record& r) { return TensorDriftToJson(*r.tensor_drift); },
       [](const json& j, Record& r) {
         auto drift = TensorDriftFromJson(j);
         if (!drift.ok()) return drift.status();
         r.tensor_drift = drift.take();
         return Status::Ok();
       },
       nullptr,
       [](const Record& r, const std::optional<ScenarioRules>&, std::vector<std::string>& reasons) {
         const TensorDriftRecord& d = *r.tensor_drift;
         if (!d.not_comparable.empty()) reasons.push_back("not comparable: " + d.not_comparable);
         for (const std::string& e : d.errors) reasons.push_back("comparison incomplete: " + e);
       }},
      // Likewise: a language model's KL divergence is the finding.
      {"token_drift", [](const Record& r) { return r.token_drift.has_value(); },
       [](const Record& r) { return TokenDriftToJson(*r.token_drift); },
       [](const json& j, Record& r) {
         auto drift = TokenDriftFromJson(j);
         if (!drift.ok()) return drift.status();
         r.token_drift = drift.take();
         return Status::Ok();
       },
       nullptr,
       [](const Record& r, const std::optional<ScenarioRules>&, std::vector<std::string>& reasons) {
         if (r.token_drift->role == "candidate" && !r.token_drift->drift) reasons.push_back("no drift statistics");
       }},
      // Beside a tensor model's measured record under a load scenario (docs/records.md, "load"):
      // derived from the samples by the scenario's rules, judged by them. Only what a run alone
      // knows is read back (a peak search's answer, the latency inflation); the rest is derived
      // again. A failed step of a peak search has no load summary but may carry the answer.
      {"load", [](const Record& r) { return r.load || r.load_peak || r.load_inflation; },
       [](const Record& r) { return LoadToJson(r.load ? *r.load : LoadRecord{}, r); },
       [](const json& j, Record& r) {
         StoredLoadFromJson(j, r);
         return Status::Ok();
       },
       [](Record& r, const std::optional<ScenarioRules>& rules) {
         if (!r.llm && !ModeSectionOf(r) && rules) {
           r.load = SummarizeLoad(r, *rules);
         } else {
           r.load.reset();
         }
       },
       [](const Record& r, const std::optional<ScenarioRules>& rules, std::vector<std::string>& reasons) {
         if (r.load && rules) JudgeLoad(r, *rules, reasons);
       },
       /*mode=*/false},
      // Beside any record: the device monitor's series (docs/monitoring.md) and what they show,
      // derived again on read (after load: its windows). One that does not read fails the record.
      {"monitor", [](const Record& r) { return r.monitor.has_value(); },
       [](const Record& r) { return MonitorRecordToJson(*r.monitor); },
       [](const json& j, Record& r) {
         try {
           r.monitor = MonitorRecordFromJson(j);
         } catch (const std::runtime_error& e) {
           return Status::Error(e.what());
         }
         return Status::Ok();
       },
       [](Record& r, const std::optional<ScenarioRules>&) { FinishMonitor(r); },
       [](const Record& r, const std::optional<ScenarioRules>&, std::vector<std::string>& reasons) {
         JudgeMonitor(r, reasons);
       },
       /*mode=*/false},
      // Beside any record: which race, configuration and round of `edgebench tune` it is. One that
      // is not a race's is left out with a warning, not taken for one (the record still reads).
      BesideSection("tune", &Record::tune, TuneTagToJson, TuneTagFromJson),
      // Beside any record: whether it started cold, with the page-cache proof, or warm; a cold
      // start that was not one is INVALID.
      WithJudge(BesideSection("start", &Record::start, StartRecordToJson, StartRecordFromJson),
                [](const Record& r, const std::optional<ScenarioRules>&, std::vector<std::string>& reasons) {
                  if (!r.start) return;
                  if (std::string problem = ColdStartProblem(*r.start); !problem.empty()) reasons.push_back(problem);
                }),
      // Beside any record: which of --rounds it was. One that does not read is left out with a
      // warning: the record is then a run of its own.
      BesideSection("round", &Record::round, RoundTagToJson, RoundTagFromJson),
      // Beside any record: which mix, workload and phase it was (docs/mixes.md).
      BesideSection("mix", &Record::mix, MixTagToJson, MixTagFromJson),
      // Beside a pipeline's measured record: what each stage cost. One that does not read is left
      // out with a warning; the end-to-end figures still read.
      BesideSection("pipeline", &Record::pipeline, PipelineRecordToJson, PipelineRecordFromJson),
      // Beside any record: this machine's limits as cached when it ran, or why there were none.
      // One that does not read is left out with a warning; the roofline then says it is missing.
      {"machine_limits",
       [](const Record& r) { return r.machine_limits.has_value() || !r.machine_limits_missing.empty(); },
       [](const Record& r) {
         return r.machine_limits ? MachineLimitsToJson(*r.machine_limits)
                                 : json{{"missing", r.machine_limits_missing}};
       },
       [](const json& j, Record& r) {
         if (j.contains("missing")) {
           r.machine_limits_missing = j.at("missing").is_string() ? j.at("missing").get<std::string>() : "unknown";
           return Status::Ok();
         }
         auto limits = MachineLimitsFromJson(j);
         if (limits.ok()) {
           r.machine_limits = limits.take();
         } else {
           r.machine_limits_missing = "the record's machine limits do not read: " + limits.error();
           r.read_warnings.push_back("record " + r.id + ": machine_limits section left out: " + limits.error());
         }
         return Status::Ok();
       },
       nullptr, nullptr, /*mode=*/false},
      // Beside a tensor model's record: its work per query and the roofline derived from it
      // (docs/roofline.md). Only the work is read back; the roofline is derived again on read.
      {"roofline", [](const Record& r) { return r.work.has_value(); },
       [](const Record& r) {
         json j = TensorRooflineToJson(r.tensor_roofline);
         j["work"] = TensorWorkToJson(*r.work);
         return j;
       },
       [](const json& j, Record& r) {
         if (j.is_null() || !j.contains("work")) return Status::Ok();
         auto work = TensorWorkFromJson(j.at("work"));
         if (work.ok()) r.work = work.take();
         else r.read_warnings.push_back("record " + r.id + ": roofline work left out: " + work.error());
         return Status::Ok();
       },
       nullptr, nullptr, /*mode=*/false},
  };
}

}  // namespace

const std::vector<RecordSection>& RecordSections() {
  static const auto* const sections = new std::vector<RecordSection>(MakeSections());
  return *sections;
}

const RecordSection* ModeSectionOf(const Record& r) {
  for (const RecordSection& section : RecordSections()) {
    if (section.mode && section.present(r)) return &section;
  }
  return nullptr;
}

}  // namespace edgebench
