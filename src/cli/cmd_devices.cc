// `edgebench devices`: every backend with its version and devices, available or not and why.
#include <iomanip>
#include <iostream>

#include "cli/commands.h"

namespace edgebench {

void AddDevicesCommand(CLI::App& app, CommandContext& context) {
  CLI::App* cmd = app.add_subcommand("devices", "list backends, their devices and availability");
  cmd->callback([&context] {
    std::cout << std::left << std::setw(22) << "target" << std::setw(13) << "available"
              << std::setw(34) << "runtime" << "details\n";
    for (const BackendInfo& info : context.registry.List()) {
      const std::string runtime = info.runtime + (info.version.empty() ? "" : " " + info.version);
      if (!info.built) {
        std::cout << std::setw(22) << (info.name + ":*") << std::setw(13) << "not built"
                  << std::setw(34) << runtime << info.reason << "\n";
        continue;
      }
      for (const DeviceInfo& d : info.devices) {
        std::cout << std::setw(22) << (info.name + ":" + d.name) << std::setw(13)
                  << (d.available ? "yes" : "no") << std::setw(34)
                  << (d.runtime.empty() ? runtime : d.runtime)
                  << (d.available ? d.description : d.reason) << "\n";
      }
    }
  });
}

}  // namespace edgebench
