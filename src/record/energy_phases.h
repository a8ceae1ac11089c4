// Energy beside the measured phase's total (docs/monitoring.md, "Energy, with a method"): the
// method (sampling rate, sensors and their resolution), the idle baseline from --idle's window
// and the energy above it, and a language model's energy split between prefill and decode.
#pragma once

#include "record/monitor_context.h"
#include "record/monitor_record.h"

namespace edgebench {

// Adds the method, the idle figures and the prefill/decode split to `energy` (whose total over
// the measured phase DeriveMonitor has computed). The idle window is the series' "idle" marks.
void DeriveEnergyPhases(const MonitorSeries& series, const MonitorContext& context, EnergyResult& energy);

}  // namespace edgebench
