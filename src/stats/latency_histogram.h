// A log-linear latency histogram (the idea of HdrHistogram, written here) for runs too long to
// keep every sample: a soak of 30 minutes or a server run at 10,000 QPS.
//
// Layout, with s = sub_bucket_bits and S = 2^s: values below 2S are counted exactly (buckets of
// width 1: octave 0); above that, the octave [2^(s+k), 2^(s+k+1)) is split into S buckets of
// width 2^k (octave k). Every bucket's width is thus at most 1/S of its lowest value. An
// octave's counters are allocated when the first value lands in it (S counters of 8 bytes:
// 2 KiB at the default s = 8), so a histogram over 3 octaves costs about 7 KiB in all.
//
// Percentile(p) is the nearest-rank percentile of the samples added, located exactly (counts
// are exact per bucket), and reported as the midpoint of its bucket, lowest + width / 2,
// clamped to [min, max]. It differs from the exact nearest-rank sample by at most width / 2,
// i.e. by at most relative_error() = 2^-(s+1) of that sample (0.195% at s = 8), and not at all
// below 2S ns. count, min, max and the sum (so the mean) are exact.
//
// Not thread-safe: give each stream its own histogram and Merge them afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace edgebench {

class LatencyHistogram {
 public:
  static constexpr int kMinSubBucketBits = 1;
  static constexpr int kMaxSubBucketBits = 16;

  // sub_bucket_bits is clamped to [kMinSubBucketBits, kMaxSubBucketBits].
  explicit LatencyHistogram(int sub_bucket_bits = 8);

  // Counts one value in ns. A negative value (which no steady clock gives) counts as 0.
  // Allocates only for the first value in an octave; otherwise a few integer operations.
  void Add(int64_t ns);

  // Adds every value of `other`. Exact when both have the same sub_bucket_bits; otherwise each
  // of other's buckets is re-counted at its midpoint (count, min, max and sum stay exact; the
  // percentiles' error is at most the sum of both histograms' relative errors plus their
  // product).
  void Merge(const LatencyHistogram& other);

  int64_t count() const { return count_; }
  int64_t min() const { return count_ ? min_ : 0; }  // 0 when empty
  int64_t max() const { return count_ ? max_ : 0; }  // 0 when empty
  double mean() const;                                // 0 when empty

  // Nearest-rank percentile with NearestRankPercentile's rule (stats/summary.h): absent
  // unless count >= 1 / (1 - p), and for p outside (0, 1). Within relative_error() of the
  // exact nearest-rank sample (see the file comment).
  std::optional<int64_t> Percentile(double p) const;
  double relative_error() const;

  int sub_bucket_bits() const { return sub_bucket_bits_; }
  size_t non_empty_buckets() const;
  size_t allocated_bytes() const;  // this object and its counters

  // Compact and sparse: {"sub_bucket_bits": 8, "count": n, "min": a, "max": b, "sum": s,
  // "buckets": [[lowest value of the bucket in ns, count], ...]} with only non-empty buckets,
  // ascending. A bucket starting at L spans [L, L + width), the width following from L and
  // sub_bucket_bits as above. "sum" is a number, or a decimal string when it exceeds INT64_MAX.
  nlohmann::json ToJson() const;
  // Checks everything ToJson writes: an error says which field is wrong and why.
  static Result<LatencyHistogram> FromJson(const nlohmann::json& json);

 private:
  struct Bucket {
    int octave = 0;
    size_t slot = 0;
  };
  Bucket Locate(uint64_t value) const;
  int64_t Lowest(int octave, size_t slot) const;
  int64_t Width(int octave) const { return int64_t{1} << octave; }
  std::vector<int64_t>& Octave(int octave);
  void AddCount(int64_t ns, int64_t times);  // the counters only

  int sub_bucket_bits_;
  std::vector<std::vector<int64_t>> octaves_;  // empty until a value lands in it
  int64_t count_ = 0;
  int64_t min_ = 0;
  int64_t max_ = 0;
  __int128 sum_ = 0;  // exact even for many values near INT64_MAX
};

}  // namespace edgebench
