// The sampler thread: samples on its own thread at its rate, samples at once on a mark, dates
// everything on the harness clock relative to the measured phase, and thins a long series.
#include "monitor/sampler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/clock.h"

namespace edgebench {
namespace {

// A reader of one counter channel that counts its reads.
class CountingReader : public SensorReader {
 public:
  explicit CountingReader(std::atomic<int>& reads) : reads_(reads) {
    status_.reader = "counting";
    status_.available = true;
    Channel c;
    c.id = "test.reads";
    c.kind = ChannelKind::kThrottleCount;
    c.reader = "counting";
    channels_.push_back(c);
  }
  const ReaderStatus& status() const override { return status_; }
  const std::vector<Channel>& channels() const override { return channels_; }
  void Read(int64_t, std::optional<double>* values, std::string*) override { values[0] = ++reads_; }

 private:
  std::atomic<int>& reads_;
  ReaderStatus status_;
  std::vector<Channel> channels_;
};

SensorSet Counting(std::atomic<int>& reads) {
  std::vector<std::unique_ptr<SensorReader>> readers;
  readers.push_back(std::make_unique<CountingReader>(reads));
  return SensorSet(std::move(readers));
}

// A phase that starts as soon as Start returns still has a sample before it, however late the
// sampling thread runs (a loaded machine): Start takes the first sample itself.
TEST(Sampler, TheFirstSampleIsTakenBeforeStartReturns) {
  std::atomic<int> reads{0};
  Sampler sampler(Counting(reads), 0.001);  // no tick for 1000 s: only Start, marks and Finish sample
  sampler.Start();
  EXPECT_EQ(reads.load(), 1);
  sampler.Mark("measure", "start");
  sampler.Mark("measure", "end");
  const MonitorSeries series = sampler.Finish(0);
  ASSERT_GE(series.t_ns.size(), 2u);
  EXPECT_LE(series.t_ns.front(), 0);  // at or before the measure mark, the origin
  EXPECT_GE(series.t_ns.back(), series.marks.back().t_ns);  // the last sample after the last mark
  EXPECT_EQ(series.values[0].front(), 1.0);
}

// A mark asks for a sample at once. With no tick due for 1000 s, the sample that follows the
// mark can only be the mark's, however long a loaded machine takes to run the sampling thread.
TEST(Sampler, AMarkSamplesAtOnceRelativeToTheMeasuredPhase) {
  std::atomic<int> reads{0};
  Sampler sampler(Counting(reads), 0.001);
  sampler.Start();
  ASSERT_EQ(reads.load(), 1);
  sampler.Mark("measure", "start");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (reads.load() < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(reads.load(), 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  sampler.Mark("measure", "end");
  const MonitorSeries series = sampler.Finish(0);  // the measure mark is the origin
  ASSERT_EQ(series.values.size(), 1u);
  ASSERT_EQ(series.values[0].size(), series.t_ns.size());
  ASSERT_GE(series.t_ns.size(), 3u);  // Start's, the first mark's, and the last after the stop
  for (size_t i = 0; i < series.t_ns.size(); ++i) {
    EXPECT_EQ(series.values[0][i], static_cast<double>(i + 1));  // no sample lost or repeated
    if (i > 0) {
      EXPECT_GT(series.t_ns[i], series.t_ns[i - 1]);
    }
  }
  ASSERT_EQ(series.marks.size(), 2u);
  EXPECT_EQ(series.marks[0].t_ns, 0);
  EXPECT_LT(series.t_ns.front(), 0);  // before the measured phase
  EXPECT_GT(series.t_ns[1], 0);       // the mark's, after it
  EXPECT_GE(series.marks[1].t_ns, 20'000'000);
  EXPECT_GT(series.t_ns.back(), series.marks[1].t_ns);  // a last sample after the end
  EXPECT_EQ(series.channels[0].id, "test.reads");
}

// Ticks at its rate: the i-th comes no earlier than i periods after the first sample (a loaded
// machine makes ticks late, never early), and the record states the rate.
TEST(Sampler, TicksComeNoEarlierThanItsRate) {
  std::atomic<int> reads{0};
  Sampler sampler(Counting(reads), 20);  // every 50 ms
  sampler.Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const MonitorSeries series = sampler.Finish(0);  // no measure mark: the first sample is the origin
  ASSERT_GE(series.t_ns.size(), 2u);  // Start's and the last after the stop
  EXPECT_EQ(series.t_ns.front(), 0);
  for (size_t i = 0; i + 1 < series.t_ns.size(); ++i) {  // the last is Finish's, not a tick
    EXPECT_GE(series.t_ns[i], static_cast<int64_t>(i) * 50'000'000) << "tick " << i;
    EXPECT_EQ(series.values[0][i], static_cast<double>(i + 1));
  }
  EXPECT_EQ(series.effective_hz, 20);
}

// The tick rule on exact times (ms), not on a sleeping thread: on a loaded machine a thread at
// nice 19 may not run for hundreds of milliseconds, which says nothing about the rule.
TEST(Sampler, MarksBetweenTicksDoNotPushTheTicksBack) {
  const int64_t ms = 1'000'000;
  // A case's stages and phases come in a burst (load, inputs, prepare, run, warmup, measure),
  // a mark's sample each, 2 ms apart, with the first tick due at 50 ms: the tick stays there.
  int64_t next = 50 * ms;
  for (int64_t mark_ms : {1, 3, 5, 7, 9, 11}) {
    next = NextTickAfterSample(next, mark_ms * ms, 50 * ms);
    EXPECT_EQ(next, 50 * ms) << "after a mark's sample at " << mark_ms << " ms";
  }
  // Ticks then keep their period: 50, 100, 150, ...
  next = NextTickAfterSample(next, 50 * ms, 50 * ms);
  EXPECT_EQ(next, 100 * ms);
  next = NextTickAfterSample(next, 101 * ms, 50 * ms);  // a tick 1 ms late keeps the grid
  EXPECT_EQ(next, 150 * ms);
  EXPECT_EQ(NextTickAfterSample(next, 149 * ms, 50 * ms), 150 * ms);  // a mark just before it
  // A tick that missed whole periods (the thread was not scheduled) is not made up for in a
  // burst: the next comes a period after it.
  EXPECT_EQ(NextTickAfterSample(150 * ms, 320 * ms, 50 * ms), 370 * ms);
  EXPECT_EQ(NextTickAfterSample(150 * ms, 200 * ms, 50 * ms), 250 * ms);
}

TEST(Sampler, WithoutAnOriginTheMeasureMarkIsTheOrigin) {
  std::atomic<int> reads{0};
  Sampler sampler(Counting(reads), 100);
  sampler.Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  sampler.Mark("measure", "start");
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const MonitorSeries series = sampler.Finish(0);
  ASSERT_FALSE(series.marks.empty());
  EXPECT_EQ(series.marks[0].t_ns, 0);
  EXPECT_LT(series.t_ns.front(), 0);
}

TEST(Sampler, ALongRunThinsItsSeriesAndStatesTheRateItKept) {
  std::atomic<int> reads{0};
  Sampler sampler(Counting(reads), 1000, 16);
  sampler.Start();
  // Until 40 samples were read (more than twice the 16 kept), however long a loaded machine
  // leaves the nice-19 thread waiting: counted reads, not a sleep, decide that it thinned.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (reads.load() < 40 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_GE(reads.load(), 40);
  const MonitorSeries series = sampler.Finish(NowNs());
  EXPECT_LT(series.t_ns.size(), 16u);
  EXPECT_LT(series.effective_hz, 1000);
  EXPECT_EQ(series.values[0].front(), 1.0);  // the first sample stays
  EXPECT_GT(reads.load(), static_cast<int>(series.t_ns.size()));
}

}  // namespace
}  // namespace edgebench
