// The columns of a pipeline's stage rows (record/pipeline_record.h), printed by table and
// markdown under the cases' own tables: a row per stage of each pipeline case, saying what the
// stage cost per query, how often it ran, its share of the end-to-end time and where it ran.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

struct StageColumn {
  std::string header;
  std::function<std::string(const Record&, const PipelineStageRecord&)> cell;  // kNoValue where none
  bool numeric = false;
};

const std::vector<StageColumn>& PipelineStageColumns();

}  // namespace edgebench
