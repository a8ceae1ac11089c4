// `edgebench devices`: every backend with its version and devices, available or not and why;
// with --sensors, every sensor reader and channel of this machine (or of a tree copied from a
// board, --sysfs-root) with one current value; with --limits, this machine's memory bandwidth
// and each runtime's matrix-product peak measured and cached for the roofline of every later run
// (docs/roofline.md).
#include <chrono>
#include <filesystem>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "backends/isolated_listing.h"
#include "cli/commands.h"
#include "cli/devices_limits.h"
#include "core/clock.h"
#include "core/environment.h"
#include "core/machine_limits.h"
#include "diagnose/bandwidth_probe.h"
#include "diagnose/compute_peak_probe.h"
#include "monitor/device_sensors.h"
#include "record/record.h"
#include "report/text_table.h"
#include "worker/sandbox.h"

namespace edgebench {
namespace {

// A value as read: integers as integers (45000 mC, 2400000 kHz), others to 0.1.
std::string FormatValue(double value) {
  std::ostringstream out;
  if (value == std::floor(value) && std::fabs(value) < 1e18) {
    out << static_cast<long long>(value);
  } else {
    out << std::fixed << std::setprecision(1) << value;
  }
  return out.str();
}

void PrintSensors(const SensorRoots& roots, size_t width) {
  SensorSet sensors = OpenDeviceSensors(roots);
  std::cout << "\nsensors under " << roots.root << "\n";
  std::vector<TextRow> readers;
  for (const ReaderStatus& status : sensors.statuses()) {
    readers.push_back({{status.reader, status.available ? "yes" : "no", status.reason}, ""});
  }
  std::cout << RenderTextTable({{"reader", false, 0}, {"available", false, 0}, {"details", false, 1, true}}, readers,
                               {width, {}, ""});
  // Two samples, so that rates (utilisation) have an interval to be computed over.
  sensors.Sample(NowNs());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::vector<std::string> errors(sensors.channels().size());
  const SensorSample sample = sensors.Sample(NowNs());
  for (const ChannelFailure& failure : sensors.failures()) errors[failure.channel] = failure.error;

  // The value last: a reason in its place can be long.
  std::vector<TextRow> channels;
  for (size_t i = 0; i < sensors.channels().size(); ++i) {
    const Channel& c = sensors.channels()[i];
    std::string value = "-";
    if (sample.values[i]) {
      value = FormatValue(*sample.values[i]);
    } else {
      value += errors[i].empty() ? " (not known yet)" : " (" + errors[i] + ")";
    }
    std::string label = c.label;
    if (c.device_total) label += " [total]";
    if (c.part_of_total) label += " [part]";
    channels.push_back({{c.id, ChannelKindName(c.kind), ChannelUnit(c.kind), label, c.source, value}, ""});
  }
  std::cout << "\n"
            << RenderTextTable({{"channel", false, 0},
                                {"kind", false, 1},
                                {"unit", false, 0},
                                {"label", false, 1},
                                {"source", false, 2},
                                {"value", false, 0, true}},
                               channels, {width, {}, ""});
}

// How a model is run (docs/sandbox.md): in a sandboxed worker, and which formats are code.
void PrintModelSafety(const std::vector<BackendInfo>& backends, size_t width) {
  std::cout << "\n"
            << WrappedParagraph("", "models run in a sandboxed worker (docs/sandbox.md): " + SandboxAvailability(), width);
  for (const BackendInfo& info : backends) {
    if (info.model_is_code.empty()) continue;
    std::string formats;
    for (const std::string& e : info.artifact_extensions) formats += (formats.empty() ? "" : ", ") + e;
    std::cout << WrappedParagraph("", "model files that are code: " + info.name + " (" + formats + "): " + info.model_is_code,
                                  width);
  }
}

}  // namespace

void AddDevicesCommand(CLI::App& app, CommandContext& context) {
  CLI::App* cmd = app.add_subcommand("devices", "list backends, their devices and availability");
  auto show_sensors = std::make_shared<bool>(false);
  auto sysfs_root = std::make_shared<std::string>("/");
  cmd->add_flag("--sensors", *show_sensors,
                "also list the device sensors (memory, CPU, frequency, temperature, power, energy), "
                "each reader available or why not, with a current value");
  cmd->add_option("--sysfs-root", *sysfs_root,
                  "where /proc and /sys are read from (a tree copied from a board)")
      ->capture_default_str();
  auto limits = std::make_shared<LimitsOptions>();
  AddLimitsOptions(cmd, *limits);
  cmd->callback([&context, show_sensors, sysfs_root, limits] {
    if (limits->measure) {
      limits->proc_root = *sysfs_root;
      context.exit_code = MeasureLimits(*limits, context.registry);
      return;
    }
    if (AnyLimitsOptionGiven(*limits)) {
      std::cerr << "edgebench devices: --peak-gbs, --peak-gflops, --array-mib, --compute-targets, --no-compute, "
                   "--max-busy-share and --allow-busy go with --limits\n";
      context.exit_code = 2;
      return;
    }
    const std::vector<TextColumn> columns = {
        {"target", false, 0}, {"available", false, 0}, {"runtime", false, 1}, {"details", false, 1, true}};
    std::vector<TextRow> rows;
    // Each runtime asked in a process of its own: one whose probe crashes is said to have, and
    // the others are listed.
    const std::vector<BackendInfo> backends = ListBackendsIsolated(context.registry);
    for (const BackendInfo& info : backends) {
      const std::string runtime = info.runtime + (info.version.empty() ? "" : " " + info.version);
      if (info.listing_crashed) {
        rows.push_back({{info.name + ":*", "crashed", runtime, info.reason}, ""});
        continue;
      }
      if (!info.built || !info.loaded) {
        rows.push_back({{info.name + ":*", info.built ? "unavailable" : "not built", runtime, info.reason}, ""});
        continue;
      }
      for (const DeviceInfo& d : info.devices) {
        rows.push_back({{info.name + ":" + d.name, d.available ? "yes" : "no", d.runtime.empty() ? runtime : d.runtime,
                         d.available ? d.description : d.reason},
                        ""});
      }
    }
    std::cout << RenderTextTable(columns, rows, {context.table.width, {}, ""});
    PrintModelSafety(backends, context.table.width);
    std::string why;
    if (const auto cached = LoadMachineLimits(ReadEnvironment(), &why)) {
      std::cout << "\n"
                << WrappedParagraph("", "machine limits (measured " + cached->measured_at +
                                            "; `edgebench devices --limits` measures again)",
                                    context.table.width);
      PrintLimits(*cached, context.table.width);
    } else {
      std::cout << "\n" << WrappedParagraph("", "machine limits: " + why, context.table.width);
    }
    if (*show_sensors) {
      SensorRoots roots;
      roots.root = *sysfs_root;
      PrintSensors(roots, context.table.width);
    }
  });
}

}  // namespace edgebench
