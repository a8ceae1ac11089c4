#include "monitor/hwmon_reader.h"

#include <cctype>
#include <set>

#include "monitor/file_channel_reader.h"
#include "monitor/sysfs_text.h"

namespace edgebench {
namespace {

struct HwmonType {
  const char* prefix;
  ChannelKind kind;
};

constexpr HwmonType kTypes[] = {
    {"temp", ChannelKind::kTemperature}, {"power", ChannelKind::kPower},
    {"energy", ChannelKind::kEnergy},    {"curr", ChannelKind::kCurrent},
    {"in", ChannelKind::kVoltage},
};

// "power1_input" -> {"power1", "input"} when the stem is a known type and a number.
bool SplitAttribute(const std::string& file, const HwmonType** type, std::string* stem,
                    std::string* attribute) {
  const size_t underscore = file.find('_');
  if (underscore == std::string::npos) return false;
  *stem = file.substr(0, underscore);
  *attribute = file.substr(underscore + 1);
  for (const HwmonType& t : kTypes) {
    const std::string prefix = t.prefix;
    if (stem->size() <= prefix.size() || stem->compare(0, prefix.size(), prefix) != 0) continue;
    bool digits = true;
    for (size_t i = prefix.size(); i < stem->size(); ++i) {
      digits = digits && std::isdigit(static_cast<unsigned char>((*stem)[i]));
    }
    if (!digits) continue;
    *type = &t;
    return true;
  }
  return false;
}

bool IsBoardInputRail(const std::string& label) {
  return label == "VDD_IN" || label == "POM_5V_IN";
}

}  // namespace

std::unique_ptr<SensorReader> OpenHwmonReader(const SensorRoots& roots) {
  ReaderStatus status;
  status.reader = "hwmon";
  const std::string hwmon_dir = roots.Path("sys/class/hwmon");
  const std::vector<std::string> chips = ListDirectory(hwmon_dir, "hwmon");
  if (chips.empty()) {
    status.reason = PathExists(hwmon_dir) ? "absent: no hwmon* under " + hwmon_dir
                                          : "absent: " + hwmon_dir + " does not exist";
    return MakeFileChannelReader(status, {});
  }
  std::vector<FileChannel> files;
  for (const std::string& chip : chips) {
    std::string dir = hwmon_dir + "/" + chip;
    if (!PathExists(dir + "/name") && PathExists(dir + "/device/name")) dir += "/device";
    auto name = ReadWordFile(dir + "/name");
    if (!name.ok()) {
      AddReason(status, name.error());
      continue;
    }
    const size_t chip_begin = files.size();
    auto label_of = [&](const std::string& stem) {
      auto label = ReadWordFile(dir + "/" + stem + "_label");
      // An ina3221 labels its rails on the voltages only: currN is inN's rail.
      if (!label.ok() && name.value() == "ina3221" && stem.rfind("curr", 0) == 0) {
        label = ReadWordFile(dir + "/in" + stem.substr(4) + "_label");
      }
      return label.ok() ? label.value() : stem;
    };
    auto add = [&](const std::string& id_stem, ChannelKind kind, const std::string& path,
                   const std::string& label) -> FileChannel* {
      FileChannel file;
      file.path = path;
      file.channel.id = chip + "." + id_stem;
      file.channel.kind = kind;
      file.channel.label = name.value() + "/" + label;
      file.channel.source = RelativeToRoot(roots, path);
      file.channel.reader = "hwmon";
      files.push_back(file);
      return &files.back();
    };
    const std::vector<std::string> names = ListDirectory(dir);
    const std::set<std::string> present(names.begin(), names.end());
    for (const std::string& file_name : names) {
      const HwmonType* type = nullptr;
      std::string stem, attribute;
      if (!SplitAttribute(file_name, &type, &stem, &attribute)) continue;
      const bool power_average_only = type->kind == ChannelKind::kPower &&
                                      attribute == "average" && !present.count(stem + "_input");
      if (attribute != "input" && !power_average_only) continue;
      const std::string path = dir + "/" + file_name;
      auto value = ReadIntegerFile(path);
      if (!value.ok()) {
        AddReason(status, value.error());
        continue;
      }
      add(stem, type->kind, path, label_of(stem));
    }
    if (name.value() == "ina3221") {
      for (int n = 1; n <= 3; ++n) {
        const std::string in = "in" + std::to_string(n), curr = "curr" + std::to_string(n);
        if (!present.count(in + "_input") || !present.count(curr + "_input")) continue;
        FileChannel* rail = add("rail_power" + std::to_string(n), ChannelKind::kPower,
                                dir + "/" + in + "_input", label_of(in));
        rail->second_path = dir + "/" + curr + "_input";
        rail->channel.source += " x " + curr + "_input";
        auto value = ReadFileChannel(*rail);
        if (!value.ok()) {
          AddReason(status, value.error());
          files.pop_back();
        }
      }
    }
    bool has_input_rail = false;
    for (size_t i = chip_begin; i < files.size(); ++i) {
      const Channel& c = files[i].channel;
      const std::string rail = c.label.substr(name.value().size() + 1);
      if (c.kind == ChannelKind::kPower && IsBoardInputRail(rail)) has_input_rail = true;
    }
    if (!has_input_rail) continue;
    for (size_t i = chip_begin; i < files.size(); ++i) {
      Channel& c = files[i].channel;
      if (c.kind != ChannelKind::kPower) continue;
      const bool input = IsBoardInputRail(c.label.substr(name.value().size() + 1));
      c.device_total = input;
      c.part_of_total = !input;
    }
  }
  if (files.empty() && status.reason.empty()) {
    status.reason =
        "absent: no readable temp, power, energy, current or voltage under " + hwmon_dir;
  }
  return MakeFileChannelReader(status, std::move(files));
}

}  // namespace edgebench
