// A record's derived figures and verdict: its summary, settling, sections' figures, rooflines,
// monitor derivation and the reasons it is INVALID, from its raw samples and settings. Every
// record is finished when it is made and again when it is read.
#pragma once

#include <optional>

#include "record/record.h"
#include "record/scenario_rules.h"

namespace edgebench {

// Fills summary, settling and verdict from the raw samples and the configuration. `rules`: the
// rules of the record's scenario (a load section and its verdict); nullopt for a mode's case, a
// language model's, or a text no scenario parses. load/finish_record.h's FinishRecord looks them
// up in the scenario registry.
void FinishRecordByRules(Record& record, const std::optional<ScenarioRules>& rules);

}  // namespace edgebench
