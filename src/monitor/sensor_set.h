// Every reader's channels as one list, read together into timestamped samples.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "monitor/sensor.h"

namespace edgebench {

struct SensorSample {
  int64_t t_ns = 0;  // harness clock (core/clock.h NowNs), when the reading started
  std::vector<std::optional<double>> values;  // one per channel of the set
};

class SensorSet {
 public:
  SensorSet() = default;
  explicit SensorSet(std::vector<std::unique_ptr<SensorReader>> readers);
  SensorSet(SensorSet&&) = default;
  SensorSet& operator=(SensorSet&&) = default;

  const std::vector<Channel>& channels() const { return channels_; }
  std::vector<ReaderStatus> statuses() const;
  const std::vector<ChannelFailure>& failures() const { return failures_; }

  // Reads every channel now; `t_ns` dates the sample (harness clock).
  SensorSample Sample(int64_t t_ns);

 private:
  std::vector<std::unique_ptr<SensorReader>> readers_;
  std::vector<Channel> channels_;
  std::vector<size_t> offsets_;  // readers_[i]'s first channel
  std::vector<ChannelFailure> failures_;
  std::vector<bool> failed_;
};

}  // namespace edgebench
