// Whether a model's weights were mapped from its file or copied into anonymous memory at load
// (--memory-map): from the memory map before the load stage and the one after it. The
// runtimes differ, and so does what a user pays: a mapped file's clean pages are shared and can
// be dropped under pressure, a copy is private dirty memory for the life of the session.
#pragma once

#include <vector>

#include "record/monitor_record.h"

namespace edgebench {

// One verdict per model file, from the snapshot at "load start" and the next one taken; none
// when there are no such two snapshots.
std::vector<WeightsResidency> DeriveWeightsResidency(const std::vector<MemorySnapshot>& map,
                                                     const std::vector<MonitorRecord::ModelFile>& files);

}  // namespace edgebench
