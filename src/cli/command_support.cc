#include "cli/command_support.h"

#include <cstring>
#include <iostream>

#include "cli/record_output.h"
#include "core/log.h"
#include "runner/interrupt.h"

namespace edgebench {

CLI::Validator NonEmpty() {
  return CLI::Validator([](std::string& value) { return value.empty() ? std::string("must not be empty") : std::string(); },
                        "NONEMPTY");
}

std::vector<std::string> WorkerLogArgs() {
  if (LogEnabled(LogLevel::kDebug)) return {"--verbose"};
  return {};
}

int RunPlanAndReport(const std::vector<PlannedCase>& plan, CommandContext& context,
                     const PlanRunRequest& request) {
  auto fail = [&](const std::string& message) {
    std::cerr << "edgebench " << request.command << ": " << message << "\n";
    return 2;
  };
  auto printer = MakePrinter(request.format, std::cout);
  if (!printer.ok()) return fail(printer.error());
  auto output = RecordOutput::Open(printer.take(), request.out_dir);
  if (!output.ok()) return fail(output.error());
  InstallInterruptHandlers();
  RunPlanOptions options;
  options.executable = context.executable;
  options.worker_args = WorkerLogArgs();
  options.in_process = request.in_process;
  options.done_keys = request.done_keys;
  options.cooldown = request.cooldown;
  options.sysfs_root = request.sysfs_root;
  output.value().Begin();
  const RunPlanTotals totals = RunPlan(plan, context.registry, options, [&](const Record& r) {
    return output.value().Emit(r, request.command);
  });
  output.value().End();
  return PlanExitCode(totals, request.command, request.fail_on_invalid);
}

int PlanExitCode(const RunPlanTotals& totals, const std::string& command, bool fail_on_invalid) {
  if (totals.interrupted_by != 0) {
    std::cerr << "edgebench " << command << ": interrupted by signal " << totals.interrupted_by << " ("
              << ::strsignal(totals.interrupted_by) << ") after " << totals.measured + totals.not_measured + totals.skipped
              << " of " << totals.cases << " cases; every record so far is stored"
              << (command == "suite" ? "; --resume runs the rest" : "") << "\n";
    return 128 + totals.interrupted_by;
  }
  int code = 0;
  if (totals.store_errors > 0) code = 1;
  if (totals.not_measured > 0) code = 1;
  if (fail_on_invalid && totals.invalid > 0) {
    std::cerr << "edgebench " << command << ": " << totals.invalid << " of " << totals.measured
              << " measured cases are INVALID (--fail-on-invalid)\n";
    code = 1;
  }
  if (totals.measured == 0 && totals.resumed == 0) {
    std::cerr << "edgebench " << command << ": nothing was measured ("
              << (totals.cases == 0 ? std::string("the plan has no case")
                                    : std::to_string(totals.skipped) + " of " + std::to_string(totals.cases) +
                                          " cases skipped, " + std::to_string(totals.not_measured) + " failed")
              << ")\n";
    code = 1;
  }
  return code;
}

}  // namespace edgebench
