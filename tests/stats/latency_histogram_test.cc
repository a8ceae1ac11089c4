#include "stats/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "stats/summary.h"

namespace edgebench {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
const std::vector<double> kPercentiles = {0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999};

LatencyHistogram Of(const std::vector<int64_t>& values, int bits = 8) {
  LatencyHistogram histogram(bits);
  for (int64_t v : values) histogram.Add(v);
  return histogram;
}

// Every percentile within relative_error() of the exact nearest-rank sample, and absent
// exactly when NearestRankPercentile is.
void ExpectWithinError(const std::vector<int64_t>& values, const LatencyHistogram& histogram,
                       double error) {
  std::vector<int64_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (double p : kPercentiles) {
    const auto exact = NearestRankPercentile(sorted, p);
    const auto approximate = histogram.Percentile(p);
    ASSERT_EQ(exact.has_value(), approximate.has_value()) << p;
    if (!exact) continue;
    const auto difference = static_cast<double>(static_cast<__int128>(*approximate) - *exact);
    EXPECT_LE(std::abs(difference), error * static_cast<double>(*exact))
        << "p" << p << ": " << *approximate << " vs exact " << *exact;
  }
}

TEST(LatencyHistogram, ErrorBoundFollowsTheBits) {
  EXPECT_DOUBLE_EQ(LatencyHistogram().relative_error(), 1.0 / 512);  // 0.195%
  EXPECT_DOUBLE_EQ(LatencyHistogram(4).relative_error(), 1.0 / 32);
  EXPECT_EQ(LatencyHistogram(0).sub_bucket_bits(), 1);
  EXPECT_EQ(LatencyHistogram(40).sub_bucket_bits(), 16);
}

TEST(LatencyHistogram, CountMinMaxMeanAreExact) {
  const LatencyHistogram histogram = Of({2, 4, 4, 4, 5, 5, 7, 9, 1'000'003});
  EXPECT_EQ(histogram.count(), 9);
  EXPECT_EQ(histogram.min(), 2);
  EXPECT_EQ(histogram.max(), 1'000'003);
  EXPECT_DOUBLE_EQ(histogram.mean(), 1'000'043.0 / 9);
  const LatencyHistogram empty;
  EXPECT_EQ(empty.count(), 0);
  EXPECT_EQ(empty.min(), 0);
  EXPECT_EQ(empty.max(), 0);
  EXPECT_EQ(empty.mean(), 0.0);
  EXPECT_EQ(empty.Percentile(0.5), std::nullopt);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  std::vector<int64_t> values;
  for (int64_t v = 1; v <= 1000; ++v) values.push_back(v % 500);  // all below 2 x 256
  const LatencyHistogram histogram = Of(values);
  std::sort(values.begin(), values.end());
  for (double p : kPercentiles) {
    EXPECT_EQ(histogram.Percentile(p), NearestRankPercentile(values, p)) << p;
  }
}

TEST(LatencyHistogram, AbsentLikeNearestRank) {
  std::vector<int64_t> values(99, 1'000'000);
  LatencyHistogram histogram = Of(values);
  EXPECT_EQ(histogram.Percentile(0.99), std::nullopt);
  EXPECT_EQ(histogram.Percentile(0.95), 1'000'000);  // clamped to min = max: exact
  histogram.Add(1'000'000);
  EXPECT_EQ(histogram.Percentile(0.99), 1'000'000);
  EXPECT_EQ(histogram.Percentile(0.0), std::nullopt);
  EXPECT_EQ(histogram.Percentile(1.0), std::nullopt);
}

TEST(LatencyHistogram, ConstantAndZero) {
  const std::vector<int64_t> constant(5000, 12'345'678);
  const LatencyHistogram histogram = Of(constant);
  for (double p : {0.5, 0.99, 0.999}) EXPECT_EQ(histogram.Percentile(p), 12'345'678);
  const LatencyHistogram zeros = Of(std::vector<int64_t>(1000, 0));
  EXPECT_EQ(zeros.Percentile(0.999), 0);
  EXPECT_EQ(zeros.max(), 0);
  LatencyHistogram negative;
  negative.Add(-5);  // counted as 0
  EXPECT_EQ(negative.min(), 0);
}

TEST(LatencyHistogram, LognormalAndHeavyTailWithinError) {
  std::mt19937_64 engine(11);
  std::lognormal_distribution<double> lognormal(std::log(1e6), 0.5);  // median 1 ms
  std::vector<int64_t> values;
  for (int i = 0; i < 100'000; ++i) values.push_back(std::llround(lognormal(engine)));
  ExpectWithinError(values, Of(values), LatencyHistogram().relative_error());
  ExpectWithinError(values, Of(values, 4), 1.0 / 32);
  ExpectWithinError(values, Of(values, 12), 1.0 / 8192);

  // Pareto (alpha 1.1) from 100 us: a tail reaching seconds.
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<int64_t> heavy;
  for (int i = 0; i < 100'000; ++i) {
    heavy.push_back(std::llround(1e5 * std::pow(1.0 - uniform(engine), -1.0 / 1.1)));
  }
  ExpectWithinError(heavy, Of(heavy), LatencyHistogram().relative_error());
  EXPECT_EQ(Of(heavy).max(), *std::max_element(heavy.begin(), heavy.end()));
}

TEST(LatencyHistogram, HugeValues) {
  std::vector<int64_t> values = {kMax, kMax - 1, int64_t{1} << 62, (int64_t{1} << 62) + 12345,
                                 kMax / 3, 7, 0};
  for (int i = 0; i < 993; ++i) values.push_back(kMax - i * 1'000'000'007LL);
  const LatencyHistogram histogram = Of(values);
  ExpectWithinError(values, histogram, histogram.relative_error());
  EXPECT_EQ(histogram.max(), kMax);
  EXPECT_EQ(histogram.min(), 0);
  const LatencyHistogram two_max = Of({kMax, kMax});
  EXPECT_DOUBLE_EQ(two_max.mean(), static_cast<double>(kMax));  // the sum does not overflow
  EXPECT_EQ(two_max.Percentile(0.5), kMax);
}

TEST(LatencyHistogram, MergeEqualsAddingAll) {
  std::mt19937_64 engine(5);
  std::lognormal_distribution<double> lognormal(std::log(2e5), 1.0);
  LatencyHistogram all;
  LatencyHistogram first;
  LatencyHistogram second;
  std::vector<int64_t> values;
  for (int i = 0; i < 50'000; ++i) {
    const int64_t v = std::llround(lognormal(engine));
    values.push_back(v);
    all.Add(v);
    (i % 3 ? first : second).Add(v);
  }
  LatencyHistogram merged;
  merged.Merge(first);
  merged.Merge(second);
  merged.Merge(LatencyHistogram());
  EXPECT_EQ(merged.ToJson(), all.ToJson());
  EXPECT_EQ(merged.count(), 50'000);

  // Different resolutions: within both errors added (and their product).
  LatencyHistogram coarse(4);
  coarse.Merge(first);
  coarse.Merge(second);
  EXPECT_EQ(coarse.count(), all.count());
  EXPECT_EQ(coarse.min(), all.min());
  EXPECT_EQ(coarse.max(), all.max());
  EXPECT_DOUBLE_EQ(coarse.mean(), all.mean());
  ExpectWithinError(values, coarse, 1.0 / 32 + 1.0 / 512 + 1.0 / 16384);
}

TEST(LatencyHistogram, JsonRoundTrip) {
  std::mt19937_64 engine(8);
  std::lognormal_distribution<double> lognormal(std::log(3e6), 0.8);
  LatencyHistogram histogram(7);
  for (int i = 0; i < 20'000; ++i) histogram.Add(std::llround(lognormal(engine)));
  const nlohmann::json json = histogram.ToJson();
  auto parsed = LatencyHistogram::FromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed.value().ToJson(), json);
  EXPECT_EQ(parsed.value().sub_bucket_bits(), 7);
  for (double p : kPercentiles) EXPECT_EQ(parsed.value().Percentile(p), histogram.Percentile(p));
  EXPECT_DOUBLE_EQ(parsed.value().mean(), histogram.mean());

  // The exact layout on a small case, at 8 bits: below 512 buckets have width 1 (300); the
  // octave [512, 1024) has width 2 (1,001 -> [1000, 1002)); the octave [2^19, 2^20) has width
  // 2^11 (1,000,000 -> [999424, 1001472)).
  const LatencyHistogram small = Of({300, 1001, 1'000'000, 1'000'000});
  EXPECT_EQ(small.ToJson().dump(),
            R"({"buckets":[[300,1],[1000,1],[999424,2]],"count":4,"max":1000000,"min":300,)"
            R"("sub_bucket_bits":8,"sum":2001301})");
  EXPECT_EQ(small.Percentile(0.5), 1000 + 1);  // [1000, 1002): midpoint 1001

  // A sum beyond INT64_MAX travels as a decimal string.
  const LatencyHistogram huge = Of({kMax, kMax, kMax});
  EXPECT_EQ(huge.ToJson()["sum"], "27670116110564327421");
  auto huge_parsed = LatencyHistogram::FromJson(huge.ToJson());
  ASSERT_TRUE(huge_parsed.ok()) << huge_parsed.error();
  EXPECT_DOUBLE_EQ(huge_parsed.value().mean(), static_cast<double>(kMax));

  auto empty = LatencyHistogram::FromJson(LatencyHistogram().ToJson());
  ASSERT_TRUE(empty.ok()) << empty.error();
  EXPECT_EQ(empty.value().count(), 0);
}

TEST(LatencyHistogram, FromJsonSaysWhatIsWrong) {
  const nlohmann::json good = Of({300, 1001, 1'000'000, 1'000'000}).ToJson();
  auto error_of = [](const nlohmann::json& json) {
    auto parsed = LatencyHistogram::FromJson(json);
    return parsed.ok() ? std::string("ok") : parsed.error();
  };
  EXPECT_EQ(error_of(good), "ok");
  EXPECT_NE(error_of(nlohmann::json::array()).find("expected an object, got array"),
            std::string::npos);
  nlohmann::json bad = good;
  bad.erase("sum");
  EXPECT_NE(error_of(bad).find("the field 'sum' is missing"), std::string::npos);
  bad = good;
  bad["sub_bucket_bits"] = 30;
  EXPECT_NE(error_of(bad).find("'sub_bucket_bits' must be an integer from 1 to 16, got 30"),
            std::string::npos);
  bad = good;
  bad["buckets"][2][0] = 1'000'000;
  EXPECT_EQ(error_of(bad),
            "latency histogram JSON: 'buckets' entry 2 ([1000000,2]) does not start a bucket at 8 "
            "sub-bucket bits (that bucket starts at 999424) (was it written by "
            "LatencyHistogram::ToJson, and not edited?)");
  bad = good;
  bad["buckets"][1][1] = 5;
  EXPECT_NE(error_of(bad).find("the bucket counts add up to 8, not 'count' 4"), std::string::npos);
  bad = good;
  bad["buckets"][1][0] = 300;
  EXPECT_NE(error_of(bad).find("is not above the entry before it"), std::string::npos);
  bad = good;
  bad["buckets"][0][1] = 0;
  EXPECT_NE(error_of(bad).find("a positive count"), std::string::npos);
  bad = good;
  bad["min"] = 5;
  EXPECT_NE(error_of(bad).find("must lie in the first and the last bucket"), std::string::npos);
  bad = good;
  bad["sum"] = 5;
  EXPECT_NE(error_of(bad).find("is not between count x min and count x max"), std::string::npos);
  bad = good;
  bad["sum"] = "12x";
  EXPECT_NE(error_of(bad).find("'sum' must be"), std::string::npos);
}

TEST(LatencyHistogram, CompactInMemoryAndOnDisk) {
  // Three octaves, [2^17, 2^20) ns (131 us to 1 ms): three octaves of 256 counters.
  LatencyHistogram three;
  for (int64_t v = 1 << 17; v < (1 << 20); v += 7) three.Add(v);
  EXPECT_LT(three.allocated_bytes(), 8 * 1024u);

  // A million samples spread over five octaves, [2^17, 2^22) ns, log-uniform.
  std::mt19937_64 engine(2);
  std::uniform_real_distribution<double> exponent(17.0, 22.0);
  LatencyHistogram five;
  for (int i = 0; i < 1'000'000; ++i) five.Add(std::llround(std::exp2(exponent(engine))));
  EXPECT_LE(five.non_empty_buckets(), 5u * 256 + 1);
  const size_t bytes = five.ToJson().dump().size();
  EXPECT_LT(bytes, 25'000u);  // a million raw samples as JSON: about 8 MB
  EXPECT_LT(five.allocated_bytes(), 16 * 1024u);
}

}  // namespace
}  // namespace edgebench
