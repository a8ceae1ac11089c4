// The mode of a planned case. Measuring is the default mode: RunPlan hands the case to
// RunCaseInWorker and the scenario runs it. Every other mode (outputs for agreement, an accuracy
// pass over a labelled data set) is a CaseMode: how the case runs in its worker and which typed
// record section it answers. RunPlan runs every mode alike, as LoadGen runs its accuracy and
// performance modes through one StartTest: resume by case key, cooldown, interrupts, progress
// and the sink that stores and prints the record.
#pragma once

#include <string>

#include "record/record.h"
#include "plan/case_spec.h"
#include "runner/worker_process.h"

namespace edgebench {

class CaseMode {
 public:
  virtual ~CaseMode() = default;
  // Runs `spec` (settled: its key decides resume) in its worker(s) and answers its record,
  // finished (FinishRecord), with the device monitor beside it when spec.monitor asks for one.
  // A worker that crashes, hangs or fails is a record with that status, never an exception.
  // `on_message`: the worker's stage messages, as they arrive (progress).
  virtual Record Run(const CaseSpec& spec, const WorkerMessageCallback& on_message) = 0;
  // After Run: why no later case of the plan can run (agreement's reference failed: there is
  // nothing to compare with), or empty. RunPlan stores this case's record and stops; the cases
  // after it have no record, so --resume runs them.
  virtual std::string StopReason() const { return ""; }
};

}  // namespace edgebench
