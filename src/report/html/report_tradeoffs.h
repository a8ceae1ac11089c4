// The report's trade-offs section: for each model, `edgebench recommend`'s answer (report/
// pareto.h) over the stores' records, drawn as a scatter of its first two objectives with the
// Pareto front, the winner marked and the rule printed. Nothing here decides anything that
// `edgebench recommend STORE --model M` with the same objectives and constraints would not.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "record/record.h"

namespace edgebench {

struct TradeoffsQuery {
  // Comma-separated, as `recommend --objective`; at least two (the scatter's axes). Empty: per
  // model, "p99,accuracy" when the model has accuracy records, else "p99,peak_rss_mib".
  std::string objectives;
  std::vector<std::string> constraints;  // as `recommend --constraint`
};

// Checks the query's text (objectives and constraints parse, two objectives or more) before any
// store is read, so a typo is an error rather than an empty section.
Status CheckTradeoffsQuery(const TradeoffsQuery& query);

// {"charts": [{model, scenario, x_label, y_label, points: [{label, x, y, on_front, winner,
// eligible}], rule, winner, runner_up, runner_up_reason, no_winner_reason, notes}], "notes"}:
// one chart per model with two configurations or more that have both axes' values; null when
// no model has. Models left out are named in "notes" with the reason.
nlohmann::json TradeoffsSection(const std::vector<Record>& records, const TradeoffsQuery& query);

}  // namespace edgebench
