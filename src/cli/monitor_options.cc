#include "cli/monitor_options.h"

#include <cmath>

#include "load/scenario_spec.h"
#include "monitor/sysfs_text.h"
#include "runner/leak_sites_run.h"

namespace edgebench {

void AddMonitorOptions(CLI::App* cmd, MonitorFlags& flags) {
  const char* group = "Device monitor (docs/monitoring.md)";
  cmd->add_option("--sample-hz", flags.settings.sample_hz,
                  "how often the worker samples memory, CPU, frequency, temperature and power, beside the "
                  "timing loop (0.1 to 1000)")
      ->capture_default_str()
      ->group(group);
  cmd->add_flag("--no-monitor", flags.no_monitor, "sample no device state (the record says so)")->group(group);
  cmd->add_option("--sysfs-root", flags.settings.sysfs_root,
                  "read proc/ and sys/ under DIR instead of / (a board's copied tree, tests)")
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--max-growth-mb", flags.settings.max_growth_mb,
                  "memory growth projected over 10,000 queries above this many MB is reported as a leak")
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--max-busy-share", flags.settings.max_busy_share,
                  "other processes using more than this share of the cores during the measured phase (or "
                  "starving the worker) make the case INVALID")
      ->capture_default_str()
      ->group(group);
  cmd->add_flag("--allow-busy", flags.settings.allow_busy,
                "keep a case measured on a busy machine VALID, labelled with the figures")
      ->group(group);
  cmd->add_flag("--memory-map", flags.settings.memory_map,
                "map the worker's memory (smaps, by class: model files, libraries, heap, anonymous, stacks, "
                "shared, devices) at each stage and phase boundary and 5, 10, 20 s... into the measured phase, and "
                "say whether each model's weights were mapped or copied")
      ->group(group);
  cmd->add_flag("--leak-sites", flags.settings.leak_sites,
                "run the worker under heaptrack over the measured phase and list the call stacks whose live heap "
                "bytes grew, per 1,000 queries, with a leak verdict (the latencies are then not valid)")
      ->group(group);
  cmd->add_option("--idle", flags.idle,
                  "before each case's load, sample power this long with nothing running (10s, 500ms): the record "
                  "keeps idle power, active power and the energy above idle per query and per token")
      ->group(group);
  cmd->add_option("--cooldown", flags.cooldown,
                  "before each case, wait until the hottest sensor is within N C of its reading at the start "
                  "(2C; 2C,max=120s,fallback=10s), or a fixed time (30s)")
      ->group(group);
}

Result<CheckedMonitorFlags> CheckMonitorFlags(const MonitorFlags& flags) {
  CheckedMonitorFlags checked;
  checked.settings = flags.settings;
  checked.settings.enabled = !flags.no_monitor;
  const double hz = flags.settings.sample_hz;
  if (!std::isfinite(hz) || hz < 0.1 || hz > 1000) {
    return Status::Error("--sample-hz " + std::to_string(hz) + " is outside 0.1 to 1000 (samples per second)");
  }
  if (!std::isfinite(flags.settings.max_growth_mb) || flags.settings.max_growth_mb <= 0) {
    return Status::Error("--max-growth-mb must be a positive number of MB per 10,000 queries");
  }
  const double share = flags.settings.max_busy_share;
  if (!std::isfinite(share) || share < 0 || share > 1) {
    return Status::Error("--max-busy-share " + std::to_string(share) +
                         " is outside 0 to 1 (the share of the cores other processes may use)");
  }
  if (flags.settings.sysfs_root.empty() || !PathExists(flags.settings.sysfs_root)) {
    return Status::Error("--sysfs-root '" + flags.settings.sysfs_root +
                         "' does not exist; give a directory holding proc/ and sys/ (default /)");
  }
  if (flags.settings.leak_sites) {
    if (flags.no_monitor) return Status::Error("--leak-sites needs the device monitor; leave --no-monitor out");
    auto heaptrack = FindHeapTrack();
    if (!heaptrack.ok()) return Status::Error(heaptrack.error());
  }
  if (!flags.idle.empty()) {
    const auto idle = ParseDurationMs(flags.idle);
    if (!idle.ok() || idle.value() < 0 || idle.value() > 600'000) {
      return Status::Error("--idle '" + flags.idle + "': give a duration up to 10 minutes, e.g. 10s or 500ms");
    }
    // Two samples at least bracket the window; fewer give no idle power.
    if (idle.value() > 0 && static_cast<double>(idle.value()) * checked.settings.sample_hz < 2000) {
      return Status::Error("--idle " + flags.idle + " holds fewer than 2 samples at --sample-hz " +
                           std::to_string(checked.settings.sample_hz) + "; give a longer window (e.g. --idle 10s)");
    }
    checked.settings.idle_ms = idle.value();
  }
  if (!flags.cooldown.empty()) {
    auto cooldown = ParseCooldown(flags.cooldown);
    if (!cooldown.ok()) return Status::Error(cooldown.error());
    checked.cooldown = cooldown.take();
  }
  return checked;
}

}  // namespace edgebench
