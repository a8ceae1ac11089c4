#include "monitor/process_reader.h"

#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "monitor/sysfs_text.h"

namespace edgebench {
namespace {

// "VmRSS:	  123456 kB" -> bytes; nullopt when the key is absent.
std::optional<double> KilobyteField(const std::string& text, const std::string& key) {
  size_t at = 0;
  while ((at = text.find(key, at)) != std::string::npos) {
    if (at == 0 || text[at - 1] == '\n') {
      return static_cast<double>(std::atoll(text.c_str() + at + key.size())) * 1024.0;
    }
    at += key.size();
  }
  return std::nullopt;
}

// utime + stime of proc/PID/stat, in seconds; the command name may hold spaces and parentheses,
// so fields are counted after its last ')'.
Result<double> StatCpuSeconds(const std::string& path) {
  auto text = ReadSmallTextFile(path);
  if (!text.ok()) return Status::Error(text.error());
  const size_t close = text.value().rfind(')');
  if (close == std::string::npos) return Status::Error(path + ": not a stat line");
  std::istringstream fields(text.value().substr(close + 1));
  std::string field;
  double ticks = 0;
  // After the name: state (3) ... utime (14), stime (15).
  for (int index = 3; index <= 15 && fields >> field; ++index) {
    if (index == 14 || index == 15) ticks += std::atof(field.c_str());
  }
  if (!fields) return Status::Error(path + ": fewer fields than a stat line has");
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

class ProcessReader : public SensorReader {
 public:
  explicit ProcessReader(const SensorRoots& roots)
      : status_path_(roots.Path("proc/self/status")),
        stat_path_(roots.Path("proc/self/stat")),
        meminfo_path_(roots.Path("proc/meminfo")),
        live_(roots.root.empty() || roots.root == "/") {
    status_.reader = "process";
    auto status = ReadSmallTextFile(status_path_);
    if (status.ok() && KilobyteField(status.value(), "VmRSS:")) {
      channels_.push_back(MakeChannel("process.rss", ChannelKind::kRss, "VmRSS", "proc/self/status"));
      channels_.push_back(MakeChannel("process.rss_peak", ChannelKind::kRssPeak, "VmHWM", "proc/self/status"));
    } else {
      status_.reason = status.ok() ? status_path_ + ": no VmRSS line" : status.error();
    }
    if (live_ || StatCpuSeconds(stat_path_).ok()) {
      channels_.push_back(MakeChannel("process.cpu", ChannelKind::kProcessCpu, "worker CPU",
                                      live_ ? "CLOCK_PROCESS_CPUTIME_ID" : "proc/self/stat"));
    }
    auto meminfo = ReadSmallTextFile(meminfo_path_);
    if (meminfo.ok() && KilobyteField(meminfo.value(), "MemAvailable:")) {
      channels_.push_back(MakeChannel("system.mem_available", ChannelKind::kMemAvailable, "MemAvailable",
                                      "proc/meminfo"));
    } else {
      const std::string why = meminfo.ok() ? meminfo_path_ + ": no MemAvailable line" : meminfo.error();
      status_.reason += (status_.reason.empty() ? "" : "; ") + why;
    }
    status_.available = !channels_.empty();
  }

  const ReaderStatus& status() const override { return status_; }
  const std::vector<Channel>& channels() const override { return channels_; }

  void Read(int64_t t_ns, std::optional<double>* values, std::string* errors) override {
    std::optional<Result<std::string>> status_text;
    for (size_t i = 0; i < channels_.size(); ++i) {
      switch (channels_[i].kind) {
        case ChannelKind::kRss:
        case ChannelKind::kRssPeak: {
          if (!status_text) status_text = ReadSmallTextFile(status_path_);
          if (!status_text->ok()) {
            errors[i] = status_text->error();
            break;
          }
          values[i] = KilobyteField(status_text->value(),
                                    channels_[i].kind == ChannelKind::kRss ? "VmRSS:" : "VmHWM:");
          if (!values[i]) errors[i] = status_path_ + ": no " + channels_[i].label + " line";
          break;
        }
        case ChannelKind::kProcessCpu: {
          double cpu_s = 0;
          if (live_) {
            timespec ts{};
            ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
            cpu_s = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
          } else {
            auto seconds = StatCpuSeconds(stat_path_);
            if (!seconds.ok()) {
              errors[i] = seconds.error();
              last_cpu_t_ns_ = -1;
              break;
            }
            cpu_s = seconds.value();
          }
          // Over 40 ms at least: a boundary sample just after a tick would weigh the sampler's own
          // reads against microseconds. A shorter interval keeps the older reading.
          constexpr int64_t kMinIntervalNs = 40'000'000;
          if (last_cpu_t_ns_ >= 0 && t_ns < last_cpu_t_ns_ + kMinIntervalNs) break;
          if (last_cpu_t_ns_ >= 0) {
            values[i] = 100.0 * (cpu_s - last_cpu_s_) / (static_cast<double>(t_ns - last_cpu_t_ns_) * 1e-9);
          }
          last_cpu_s_ = cpu_s;
          last_cpu_t_ns_ = t_ns;
          break;
        }
        case ChannelKind::kMemAvailable: {
          auto meminfo = ReadSmallTextFile(meminfo_path_);
          if (!meminfo.ok()) {
            errors[i] = meminfo.error();
            break;
          }
          values[i] = KilobyteField(meminfo.value(), "MemAvailable:");
          if (!values[i]) errors[i] = meminfo_path_ + ": no MemAvailable line";
          break;
        }
        default:
          break;
      }
    }
  }

 private:
  static Channel MakeChannel(const std::string& id, ChannelKind kind, const std::string& label,
                             const std::string& source) {
    Channel c;
    c.id = id;
    c.kind = kind;
    c.label = label;
    c.source = source;
    c.reader = "process";
    return c;
  }

  std::string status_path_, stat_path_, meminfo_path_;
  bool live_;
  ReaderStatus status_;
  std::vector<Channel> channels_;
  double last_cpu_s_ = 0;
  int64_t last_cpu_t_ns_ = -1;
};

}  // namespace

std::unique_ptr<SensorReader> OpenProcessReader(const SensorRoots& roots) {
  return std::make_unique<ProcessReader>(roots);
}

}  // namespace edgebench
