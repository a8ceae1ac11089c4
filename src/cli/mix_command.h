// `edgebench run MIX.yaml` (docs/mixes.md): the mix's phases, its records stored and printed as
// any run's, then the interference table and the mix's verdict.
#pragma once

#include <string>

#include "cli/commands.h"

namespace edgebench {

struct MixCommandOptions {
  std::string path;
  std::string format = "table";
  std::string out_dir;  // empty: --no-store
  bool no_monitor = false;
};

// 0 when every workload ran beside the others and met its objectives; 1 when one did not (the
// table says which); 2 for a mix file that does not read.
int RunMixCommand(const MixCommandOptions& options, CommandContext& context);

}  // namespace edgebench
