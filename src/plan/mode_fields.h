// The options of a mode a suite may list (accuracy, agree, drift), described once. Each mode's
// options struct (plan/accuracy_plan.h, plan/agree_plan.h, plan/drift_plan.h) lists its fields
// in `Fields(visit)`, calling `visit(ModeField{...}, member)` per field; the CLI registers them
// as the command's flags (cli/mode_flags.h) and a suite's block fills them from YAML
// (plan/suite_modes.h), so the two cannot disagree and no text is parsed twice.
#pragma once

#include <string>
#include <vector>

#include "backends/registry.h"
#include "record/monitor_record.h"

namespace edgebench {

enum ModeFieldFlag : unsigned {
  kFieldRequired = 1,     // the command refuses to run without it
  kFieldShowDefault = 2,  // the flag's help shows its default
};

struct ModeField {
  const char* name;  // the flag without dashes ("max-tokens"); a suite may write max_tokens
  const char* help;
  unsigned flags = 0;
  const char* short_flag = nullptr;  // "-d": the command's short form, if any
};

// What every mode's planner needs beside its options: the backends, the device monitor of
// each case, and how to start a worker.
struct ModePlanContext {
  Registry& registry;  // not const: a pipeline's targets are resolved through it
  MonitorSettings monitor;
  std::string executable;                // this program
  std::vector<std::string> worker_args;  // global flags for workers (logging)
};

}  // namespace edgebench
