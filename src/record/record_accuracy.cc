#include "record/record_accuracy.h"

#include <numeric>

#include "core/sample_codec.h"
#include "record/record.h"
#include "record/summary_json.h"

namespace edgebench {
namespace {

using json = nlohmann::json;

json ProportionToJson(const Proportion& p) {
  return {{"correct", p.successes}, {"images", p.trials}, {"value", p.value}, {"ci95_low", p.low},
          {"ci95_high", p.high}};
}

template <typename T>
std::vector<int64_t> Widen(const std::vector<T>& values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

template <typename T>
std::vector<T> Decode(const json& samples, const char* key, size_t count) {
  auto values = DecodeSamples(samples.at(key).get<std::string>());
  if (!values.ok()) throw json::other_error::create(501, std::string(key) + ": " + values.error(), &samples);
  if (values.value().size() != count) {
    throw json::other_error::create(501, std::string(key) + " holds " + std::to_string(values.value().size()) +
                                             " values, count says " + std::to_string(count), &samples);
  }
  return std::vector<T>(values.value().begin(), values.value().end());
}

}  // namespace

void FinishAccuracy(AccuracyRecord& a) {
  const auto n = static_cast<int64_t>(a.labels.size());
  int64_t top1 = 0, top5 = 0;
  for (size_t i = 0; i < a.labels.size(); ++i) {
    if (i < a.top1.size() && a.top1[i] == a.labels[i]) ++top1;
    if (i < a.in_top5.size() && a.in_top5[i]) ++top5;
  }
  a.top1_accuracy = WilsonInterval(top1, n);
  if (a.classes >= 5) {
    a.top5_accuracy = WilsonInterval(top5, n);
  } else {
    a.top5_accuracy.reset();
  }
  const auto classes = static_cast<int32_t>(std::max<int64_t>(a.classes, a.data_classes));
  a.per_class = PerClassAccuracy(a.labels, a.top1, classes, a.class_names);
  a.preprocess_summary = Summarize(a.preprocess_ns, std::accumulate(a.preprocess_ns.begin(), a.preprocess_ns.end(), int64_t{0}));
  a.inference_summary = Summarize(a.inference_ns, std::accumulate(a.inference_ns.begin(), a.inference_ns.end(), int64_t{0}));
}

json AccuracyToJson(const AccuracyRecord& a) {
  json per_class = json::array();
  for (const ClassAccuracy& c : a.per_class) {
    per_class.push_back({{"label", c.label}, {"name", c.name}, {"images", c.images}, {"correct", c.correct},
                         {"top1", c.top1}});
  }
  return {{"data", {{"source", a.data_source}, {"split", a.data_split}, {"offset", a.data_offset},
                    {"limit", a.data_limit}, {"description", a.data_description}, {"total", a.data_total},
                    {"classes", a.data_classes}}},
          {"preprocess", a.preprocess},
          {"input", a.input},
          {"output", a.output},
          {"classes", a.classes},
          {"class_names", a.class_names},
          {"warmup", a.warmup},
          {"latency_case_key", a.latency_case_key},
          {"count", a.labels.size()},
          {"top1", ProportionToJson(a.top1_accuracy)},
          {"top5", a.top5_accuracy ? ProportionToJson(*a.top5_accuracy) : json(nullptr)},
          {"per_class", per_class},
          {"preprocess_ns", SummaryToJson(a.preprocess_summary)},
          {"inference_ns", SummaryToJson(a.inference_summary)},
          {"nonfinite_outputs", a.nonfinite_outputs},
          {"samples",
           {{"encoding", kSampleEncoding},
            {"label", EncodeSamples(Widen(a.labels))},
            {"top1", EncodeSamples(Widen(a.top1))},
            {"in_top5", EncodeSamples(Widen(a.in_top5))},
            {"preprocess_ns", EncodeSamples(a.preprocess_ns)},
            {"inference_ns", EncodeSamples(a.inference_ns)}}}};
}

Result<AccuracyRecord> AccuracyFromJson(const json& j) {
  try {
    AccuracyRecord a;
    const json& data = j.at("data");
    a.data_source = data.at("source").get<std::string>();
    a.data_split = data.at("split").get<std::string>();
    a.data_offset = data.at("offset").get<int64_t>();
    a.data_limit = data.at("limit").get<int64_t>();
    a.data_description = data.at("description").get<std::string>();
    a.data_total = data.at("total").get<int64_t>();
    a.data_classes = data.at("classes").get<int32_t>();
    a.preprocess = j.at("preprocess").get<std::string>();
    a.input = j.at("input").get<std::string>();
    a.output = j.at("output").get<std::string>();
    a.classes = j.at("classes").get<int64_t>();
    a.class_names = j.at("class_names").get<std::vector<std::string>>();
    a.warmup = j.at("warmup").get<int64_t>();
    a.latency_case_key = j.at("latency_case_key").get<std::string>();
    a.nonfinite_outputs = j.at("nonfinite_outputs").get<int64_t>();
    const auto count = j.at("count").get<size_t>();
    const json& s = j.at("samples");
    if (s.at("encoding").get<std::string>() != kSampleEncoding) {
      return Status::Error("unknown sample encoding '" + s.at("encoding").get<std::string>() + "'");
    }
    a.labels = Decode<int32_t>(s, "label", count);
    a.top1 = Decode<int32_t>(s, "top1", count);
    a.in_top5 = Decode<bool>(s, "in_top5", count);
    a.preprocess_ns = Decode<int64_t>(s, "preprocess_ns", count);
    a.inference_ns = Decode<int64_t>(s, "inference_ns", count);
    FinishAccuracy(a);
    return a;
  } catch (const json::exception& e) {
    return Status::Error(e.what());
  }
}

}  // namespace edgebench
