// Reading a reader once in a test: its values and errors, and a channel found by id.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "monitor/sensor.h"

namespace edgebench::testing {

struct Reading {
  std::vector<std::optional<double>> values;
  std::vector<std::string> errors;
};

inline Reading ReadOnce(SensorReader& reader, int64_t t_ns = 0) {
  Reading r;
  r.values.assign(reader.channels().size(), std::nullopt);
  r.errors.assign(reader.channels().size(), "");
  reader.Read(t_ns, r.values.data(), r.errors.data());
  return r;
}

inline std::vector<std::string> Ids(const std::vector<Channel>& channels) {
  std::vector<std::string> ids;
  for (const Channel& c : channels) ids.push_back(c.id);
  return ids;
}

}  // namespace edgebench::testing
