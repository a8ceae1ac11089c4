// The device monitor's flags, shared by run, llm and suite (docs/monitoring.md).
#pragma once

#include <optional>
#include <string>

#include "cli/commands.h"
#include "core/status.h"
#include "monitor/cooldown.h"
#include "record/monitor_record.h"

namespace edgebench {

struct MonitorFlags {
  MonitorSettings settings;
  bool no_monitor = false;
  std::string cooldown;  // empty: none
  std::string idle;      // --idle DURATION; empty: none
};

// --sample-hz, --no-monitor, --sysfs-root, --max-growth-mb, --max-busy-share, --allow-busy,
// --cooldown.
void AddMonitorOptions(CLI::App* cmd, MonitorFlags& flags);

struct CheckedMonitorFlags {
  MonitorSettings settings;
  std::optional<CooldownSpec> cooldown;
};

// The flags checked together; an error says which flag and what to give.
Result<CheckedMonitorFlags> CheckMonitorFlags(const MonitorFlags& flags);

}  // namespace edgebench
