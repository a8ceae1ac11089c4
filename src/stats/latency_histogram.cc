#include "stats/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "core/int128_text.h"
#include "stats/summary.h"

namespace edgebench {

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

std::optional<int64_t> AsInt64(const nlohmann::json& json) {
  if (json.is_number_unsigned()) {
    const auto value = json.get<uint64_t>();
    if (value > static_cast<uint64_t>(kInt64Max)) return std::nullopt;
    return static_cast<int64_t>(value);
  }
  if (json.is_number_integer()) return json.get<int64_t>();
  return std::nullopt;
}

Status InvalidHistogram(const std::string& what) {
  return Status::Error("latency histogram JSON: " + what +
                       " (was it written by LatencyHistogram::ToJson, and not edited?)");
}

}  // namespace

LatencyHistogram::LatencyHistogram(int sub_bucket_bits)
    : sub_bucket_bits_(std::clamp(sub_bucket_bits, kMinSubBucketBits, kMaxSubBucketBits)),
      octaves_(static_cast<size_t>(63 - sub_bucket_bits_)) {}

LatencyHistogram::Bucket LatencyHistogram::Locate(uint64_t value) const {
  if ((value >> (sub_bucket_bits_ + 1)) == 0) return {0, static_cast<size_t>(value)};
  const int top_bit = 63 - std::countl_zero(value);
  const int octave = top_bit - sub_bucket_bits_;
  return {octave, static_cast<size_t>((value >> octave) - (uint64_t{1} << sub_bucket_bits_))};
}

int64_t LatencyHistogram::Lowest(int octave, size_t slot) const {
  if (octave == 0) return static_cast<int64_t>(slot);
  return static_cast<int64_t>((slot + (size_t{1} << sub_bucket_bits_)) << octave);
}

std::vector<int64_t>& LatencyHistogram::Octave(int octave) {
  std::vector<int64_t>& counters = octaves_[static_cast<size_t>(octave)];
  if (counters.empty()) {
    counters.resize(size_t{1} << (octave == 0 ? sub_bucket_bits_ + 1 : sub_bucket_bits_));
  }
  return counters;
}

void LatencyHistogram::AddCount(int64_t ns, int64_t times) {
  const Bucket bucket = Locate(static_cast<uint64_t>(ns));
  Octave(bucket.octave)[bucket.slot] += times;
}

void LatencyHistogram::Add(int64_t ns) {
  if (ns < 0) ns = 0;
  AddCount(ns, 1);
  if (count_ == 0 || ns < min_) min_ = ns;
  if (count_ == 0 || ns > max_) max_ = ns;
  ++count_;
  sum_ += ns;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (int octave = 0; octave < static_cast<int>(other.octaves_.size()); ++octave) {
    const std::vector<int64_t>& counters = other.octaves_[static_cast<size_t>(octave)];
    for (size_t slot = 0; slot < counters.size(); ++slot) {
      if (counters[slot] == 0) continue;
      if (other.sub_bucket_bits_ == sub_bucket_bits_) {
        Octave(octave)[slot] += counters[slot];
      } else {
        AddCount(other.Lowest(octave, slot) + other.Width(octave) / 2, counters[slot]);
      }
    }
  }
  min_ = count_ ? std::min(min_, other.min_) : other.min_;
  max_ = count_ ? std::max(max_, other.max_) : other.max_;
  count_ += other.count_;
  sum_ += other.sum_;
}

double LatencyHistogram::mean() const {
  return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0;
}

double LatencyHistogram::relative_error() const { return std::ldexp(1.0, -(sub_bucket_bits_ + 1)); }

std::optional<int64_t> LatencyHistogram::Percentile(double p) const {
  if (count_ == 0 || p <= 0.0 || p >= 1.0 || count_ < SamplesNeededFor(p)) return std::nullopt;
  // The rank exactly as NearestRankPercentile computes it.
  auto rank = static_cast<int64_t>(std::ceil(p * static_cast<double>(count_) - 1e-9));
  rank = std::clamp<int64_t>(rank, 1, count_);
  int64_t seen = 0;
  for (int octave = 0; octave < static_cast<int>(octaves_.size()); ++octave) {
    const std::vector<int64_t>& counters = octaves_[static_cast<size_t>(octave)];
    for (size_t slot = 0; slot < counters.size(); ++slot) {
      seen += counters[slot];
      if (seen >= rank) {
        const int64_t midpoint = Lowest(octave, slot) + Width(octave) / 2;
        return std::clamp(midpoint, min_, max_);
      }
    }
  }
  return max_;  // not reached: the counters add up to count_
}

size_t LatencyHistogram::non_empty_buckets() const {
  size_t buckets = 0;
  for (const auto& counters : octaves_) {
    buckets += static_cast<size_t>(std::count_if(counters.begin(), counters.end(),
                                                 [](int64_t c) { return c != 0; }));
  }
  return buckets;
}

size_t LatencyHistogram::allocated_bytes() const {
  size_t bytes = sizeof(*this) + octaves_.capacity() * sizeof(octaves_[0]);
  for (const auto& counters : octaves_) bytes += counters.capacity() * sizeof(int64_t);
  return bytes;
}

nlohmann::json LatencyHistogram::ToJson() const {
  nlohmann::json buckets = nlohmann::json::array();
  for (int octave = 0; octave < static_cast<int>(octaves_.size()); ++octave) {
    const std::vector<int64_t>& counters = octaves_[static_cast<size_t>(octave)];
    for (size_t slot = 0; slot < counters.size(); ++slot) {
      if (counters[slot] != 0) {
        buckets.push_back(nlohmann::json::array({Lowest(octave, slot), counters[slot]}));
      }
    }
  }
  nlohmann::json json = {{"sub_bucket_bits", sub_bucket_bits_},
                         {"count", count_},
                         {"min", min()},
                         {"max", max()}};
  if (sum_ <= kInt64Max) {
    json["sum"] = static_cast<int64_t>(sum_);
  } else {
    json["sum"] = Int128ToDecimal(sum_);
  }
  json["buckets"] = std::move(buckets);
  return json;
}

Result<LatencyHistogram> LatencyHistogram::FromJson(const nlohmann::json& json) {
  if (!json.is_object()) return InvalidHistogram("expected an object, got " + std::string(json.type_name()));
  for (const char* key : {"sub_bucket_bits", "count", "min", "max", "sum", "buckets"}) {
    if (!json.contains(key)) return InvalidHistogram(std::string("the field '") + key + "' is missing");
  }
  const auto bits = AsInt64(json["sub_bucket_bits"]);
  if (!bits || *bits < kMinSubBucketBits || *bits > kMaxSubBucketBits) {
    return InvalidHistogram("'sub_bucket_bits' must be an integer from " +
                   std::to_string(kMinSubBucketBits) + " to " + std::to_string(kMaxSubBucketBits) +
                   ", got " + json["sub_bucket_bits"].dump());
  }
  LatencyHistogram histogram(static_cast<int>(*bits));
  const auto count = AsInt64(json["count"]);
  const auto min = AsInt64(json["min"]);
  const auto max = AsInt64(json["max"]);
  if (!count || !min || !max || *count < 0 || *min < 0 || *max < *min) {
    return InvalidHistogram("'count', 'min' and 'max' must be integers with 0 <= min <= max, got " +
                   json["count"].dump() + ", " + json["min"].dump() + ", " + json["max"].dump());
  }
  std::optional<__int128> sum;
  if (json["sum"].is_string()) {
    sum = Int128FromDecimal(json["sum"].get<std::string>());
  } else if (const auto small = AsInt64(json["sum"])) {
    sum = *small;
  }
  if (!sum) {
    return InvalidHistogram("'sum' must be a non-negative integer or a decimal string, got " +
                   json["sum"].dump());
  }

  const nlohmann::json& buckets = json["buckets"];
  if (!buckets.is_array()) return InvalidHistogram("'buckets' must be an array of [lowest value, count]");
  int64_t total = 0;
  int64_t previous = -1;
  for (size_t i = 0; i < buckets.size(); ++i) {
    const nlohmann::json& entry = buckets[i];
    const std::string where = "'buckets' entry " + std::to_string(i) + " (" + entry.dump() + ")";
    if (!entry.is_array() || entry.size() != 2) {
      return InvalidHistogram(where + " is not [lowest value, count]");
    }
    const auto lowest = AsInt64(entry[0]);
    const auto times = AsInt64(entry[1]);
    if (!lowest || !times || *lowest < 0 || *times <= 0) {
      return InvalidHistogram(where + " needs a non-negative lowest value and a positive count");
    }
    if (*lowest <= previous) return InvalidHistogram(where + " is not above the entry before it");
    const Bucket bucket = histogram.Locate(static_cast<uint64_t>(*lowest));
    if (histogram.Lowest(bucket.octave, bucket.slot) != *lowest) {
      return InvalidHistogram(where + " does not start a bucket at " + std::to_string(*bits) +
                     " sub-bucket bits (that bucket starts at " +
                     std::to_string(histogram.Lowest(bucket.octave, bucket.slot)) + ")");
    }
    if (*times > kInt64Max - total) return InvalidHistogram(where + ": the counts overflow");
    total += *times;
    previous = *lowest;
    histogram.Octave(bucket.octave)[bucket.slot] = *times;
  }
  if (total != *count) {
    return InvalidHistogram("the bucket counts add up to " + std::to_string(total) + ", not 'count' " +
                   std::to_string(*count));
  }
  if (*count > 0) {
    const auto first = buckets.front()[0].get<int64_t>();
    const auto last = buckets.back()[0].get<int64_t>();
    const Bucket min_bucket = histogram.Locate(static_cast<uint64_t>(*min));
    const Bucket max_bucket = histogram.Locate(static_cast<uint64_t>(*max));
    if (histogram.Lowest(min_bucket.octave, min_bucket.slot) != first ||
        histogram.Lowest(max_bucket.octave, max_bucket.slot) != last) {
      return InvalidHistogram("'min' " + std::to_string(*min) + " and 'max' " + std::to_string(*max) +
                     " must lie in the first and the last bucket");
    }
    const __int128 n = *count;
    if (*sum < n * *min || *sum > n * *max) {
      return InvalidHistogram("'sum' " + Int128ToDecimal(*sum) + " is not between count x min and count x max");
    }
  } else if (*sum != 0 || *min != 0 || *max != 0) {
    return InvalidHistogram("an empty histogram has 'min', 'max' and 'sum' 0");
  }
  histogram.count_ = *count;
  histogram.min_ = *min;
  histogram.max_ = *max;
  histogram.sum_ = *sum;
  return histogram;
}

}  // namespace edgebench
