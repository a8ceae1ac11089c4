// The report's pipelines section (docs/report.md): for every pipeline case (record/
// pipeline_record.h), its stages' shares of the end-to-end time, drawn as one stacked bar per
// case, and each stage's distribution (p50, p90, p99, mean, host CPU, calls per query) in a
// table. Null when no record is a pipeline's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/record.h"
#include "report/html/report_labels.h"

namespace edgebench {

// {"stages": [every stage name, in first-seen order], "cases": [{label, harness_share,
// stages: [{name, kind, on, share, p50_ms, p90_ms, p99_ms, mean_ms, cpu_ms, calls}]}]}; a
// percentile or CPU time the record lacks is null.
// `store_dirs`: per record, the directory of the store it was read from: a diffusion case's
// image is embedded only from inside it (InlineStorePng).
nlohmann::json PipelinesSection(const std::vector<Record>& records, const std::vector<std::string>& store_dirs,
                                const CaseLabels& labels);

// A PNG a run wrote (--save-images) inline as a data URI, so the page stays one file: only a
// regular file of at most 4 MiB inside `store_dir`, starting as a PNG does. Otherwise null, and
// `note` says why.
inline constexpr uint64_t kMaxInlinedImageBytes = 4u << 20;
struct InlinedImage {
  nlohmann::json data_uri;  // null: not embedded
  std::string note;
};
InlinedImage InlineStorePng(const std::string& path, const std::string& store_dir);

}  // namespace edgebench
