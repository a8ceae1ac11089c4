#include "monitor/cpu_reader.h"

#include <cctype>
#include <map>
#include <sstream>

#include "monitor/file_channel_reader.h"
#include "monitor/sysfs_text.h"

namespace edgebench {
namespace {

}  // namespace

std::map<int, CoreTimes> ParseProcStat(const std::string& text) {
  std::map<int, CoreTimes> cores;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 ||
        !std::isdigit(static_cast<unsigned char>(line[3]))) {
      continue;
    }
    std::istringstream fields(line.substr(3));
    int cpu = -1;
    fields >> cpu;
    CoreTimes times;
    uint64_t value = 0;
    // user nice system idle iowait irq softirq steal [guest guest_nice]
    for (int index = 0; index < 8 && fields >> value; ++index) {
      times.total += value;
      if (index == 3 || index == 4) times.idle += value;
    }
    if (cpu >= 0) cores[cpu] = times;
  }
  return cores;
}

namespace {

class CpuReader : public SensorReader {
 public:
  explicit CpuReader(const SensorRoots& roots) : stat_path_(roots.Path("proc/stat")) {
    status_.reader = "cpu";
    auto text = ReadSmallTextFile(stat_path_);
    if (!text.ok()) {
      status_.reason = "absent: " + text.error();
      return;
    }
    for (const auto& [cpu, times] : ParseProcStat(text.value())) {
      Channel c;
      c.id = "cpu" + std::to_string(cpu) + ".util";
      c.kind = ChannelKind::kCpuUtil;
      c.label = "cpu" + std::to_string(cpu);
      c.source = RelativeToRoot(roots, stat_path_);
      c.reader = "cpu";
      c.cpu = cpu;
      channels_.push_back(c);
    }
    previous_.resize(channels_.size());
    if (channels_.empty()) status_.reason = "absent: " + stat_path_ + " has no cpuN lines";
    status_.available = !channels_.empty();
  }

  const ReaderStatus& status() const override { return status_; }
  const std::vector<Channel>& channels() const override { return channels_; }

  void Read(int64_t /*t_ns*/, std::optional<double>* values, std::string* errors) override {
    auto text = ReadSmallTextFile(stat_path_);
    if (!text.ok()) {
      for (size_t i = 0; i < channels_.size(); ++i) {
        errors[i] = text.error();
        previous_[i].reset();
      }
      return;
    }
    const std::map<int, CoreTimes> cores = ParseProcStat(text.value());
    for (size_t i = 0; i < channels_.size(); ++i) {
      const auto found = cores.find(channels_[i].cpu);
      if (found == cores.end()) {
        errors[i] = stat_path_ + ": no " + channels_[i].label + " line (the core went offline)";
        previous_[i].reset();
        continue;
      }
      const CoreTimes& now = found->second;
      // A few ticks at least (40 ms at the usual 100 Hz): a boundary sample taken just after a
      // tick would otherwise give 0% or 100% from one tick.
      constexpr uint64_t kMinTicks = 4;
      if (previous_[i] && now.total >= previous_[i]->total + kMinTicks && now.idle >= previous_[i]->idle) {
        const double idle = static_cast<double>(now.idle - previous_[i]->idle);
        const double total = static_cast<double>(now.total - previous_[i]->total);
        values[i] = 100.0 * (1.0 - idle / total);
      } else if (previous_[i] && now.total >= previous_[i]->total && now.total < previous_[i]->total + kMinTicks) {
        continue;  // too few ticks passed: keep the older reading and wait for a longer interval
      }
      previous_[i] = now;
    }
  }

 private:
  std::string stat_path_;
  ReaderStatus status_;
  std::vector<Channel> channels_;
  std::vector<std::optional<CoreTimes>> previous_;
};

}  // namespace

std::unique_ptr<SensorReader> OpenCpuReader(const SensorRoots& roots) {
  return std::make_unique<CpuReader>(roots);
}

}  // namespace edgebench
