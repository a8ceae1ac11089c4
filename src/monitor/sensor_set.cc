#include "monitor/sensor_set.h"

#include <utility>

namespace edgebench {

SensorSet::SensorSet(std::vector<std::unique_ptr<SensorReader>> readers) : readers_(std::move(readers)) {
  for (const auto& reader : readers_) {
    offsets_.push_back(channels_.size());
    const auto& channels = reader->channels();
    channels_.insert(channels_.end(), channels.begin(), channels.end());
  }
  failed_.assign(channels_.size(), false);
}

std::vector<ReaderStatus> SensorSet::statuses() const {
  std::vector<ReaderStatus> statuses;
  for (const auto& reader : readers_) statuses.push_back(reader->status());
  return statuses;
}

SensorSample SensorSet::Sample(int64_t t_ns) {
  SensorSample sample;
  sample.t_ns = t_ns;
  sample.values.assign(channels_.size(), std::nullopt);
  std::vector<std::string> errors(channels_.size());
  for (size_t r = 0; r < readers_.size(); ++r) {
    if (readers_[r]->channels().empty()) continue;
    readers_[r]->Read(t_ns, sample.values.data() + offsets_[r], errors.data() + offsets_[r]);
  }
  for (size_t i = 0; i < channels_.size(); ++i) {
    if (!sample.values[i] && !errors[i].empty() && !failed_[i]) {
      failed_[i] = true;
      failures_.push_back({i, t_ns, errors[i]});
    }
  }
  return sample;
}

}  // namespace edgebench
