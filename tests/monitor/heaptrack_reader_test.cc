// The reader of heaptrack_interpret's text: the window opens at the marking allocation, sites are
// the first frames outside the allocator, growth is counted exactly and fitted per query, and a
// broken trace is an error that names its line. The traces here are written by hand in heaptrack's
// format (hexadecimal numbers; strings, frames and trace nodes numbered from 1, allocation sites
// from 0).
#include "monitor/heaptrack_reader.h"

#include <gtest/gtest.h>

#include <sstream>

#include "record/leak_sites.h"

namespace edgebench {
namespace {

// Strings 1..7, frames 1..6, trace nodes 1..5, allocation sites 0..3:
//   site 0: 10 bytes from the mark (EdgebenchLeakSitesWindowStart)
//   site 1: 0x100 bytes from Leaky, through operator new (libstdc++) and an unnamed libc frame
//   site 2: 0x40 bytes from Temporary (allocated and freed each time)
//   site 3: 0x20 bytes from Before (only before the window)
const char* kHeader =
    "v 10650 3\n"
    "X ./edgebench worker\n"
    "s 10 /usr/bin/edgebench\n"                 // 1
    "s 1b /usr/lib/libstdc++.so.6\n"            // 2
    "s 10 /usr/lib/libc.so.6\n"                 // 3
    "s 1d EdgebenchLeakSitesWindowStart\n"      // 4
    "s 1b operator new(unsigned long)\n"        // 5
    "s 19 Leaky(int) [clone .localalias]\n"     // 6
    "s 9 Temporary\n"                           // 7
    "s 6 Before\n"                              // 8
    "i 1000 1 4\n"   // frame 1: the mark
    "i 2000 3\n"     // frame 2: libc, no symbol
    "i 3000 2 5\n"   // frame 3: operator new
    "i 4000 1 6\n"   // frame 4: Leaky
    "i 5000 1 7\n"   // frame 5: Temporary
    "i 6000 1 8\n"   // frame 6: Before
    "t 1 0\n"        // trace 1: the mark
    "t 4 0\n"        // trace 2: Leaky
    "t 3 2\n"        // trace 3: operator new <- Leaky
    "t 2 3\n"        // trace 4: libc <- operator new <- Leaky
    "t 5 0\n"        // trace 5: Temporary
    "t 6 0\n"        // trace 6: Before
    "a 10 1\n"       // site 0
    "a 100 4\n"      // site 1
    "a 40 5\n"       // site 2
    "a 20 6\n";      // site 3

TEST(HeaptrackReader, GrowthIsCountedFromTheMarkAndFittedPerQuery) {
  std::ostringstream trace;
  trace << kHeader;
  // Before the window: an allocation the reader must not count, though never freed.
  trace << "c 0\n+ 3\n+ 3\nc a\n+ 0\n- 0\n";
  // Ten ticks of 10 ms; between ticks, one query: Leaky keeps 0x100 bytes, Temporary returns its.
  for (int tick = 1; tick <= 10; ++tick) {
    trace << "+ 1\n+ 2\n- 2\n";
    trace << "c " << std::hex << (10 + 10 * tick) << std::dec << "\n";
  }
  // Queries completed: one by the end of each 10 ms.
  std::vector<std::pair<int64_t, double>> progress;
  for (int q = 0; q <= 10; ++q) progress.push_back({q * 10'000'000LL, static_cast<double>(q)});
  std::istringstream in(trace.str());
  auto read = ReadHeaptrackSites(in, "EdgebenchLeakSitesWindowStart", progress);
  ASSERT_TRUE(read.ok()) << read.error();
  const LeakSites& sites = read.value();
  EXPECT_EQ(sites.axis, "queries");
  EXPECT_EQ(sites.ticks, 10);
  EXPECT_NEAR(sites.window_s, 0.1, 1e-9);
  EXPECT_EQ(sites.allocations, 20);
  EXPECT_EQ(sites.frees, 10);
  EXPECT_EQ(sites.sites_seen, 2);  // Leaky and Temporary; Before and the mark are outside
  ASSERT_EQ(sites.sites.size(), 1u);  // only a site that grew is kept
  const LeakSite& leaky = sites.sites[0];
  // operator new and the unnamed libc frame are the allocator's: the site is their caller.
  EXPECT_EQ(leaky.function, "Leaky(int)");
  EXPECT_EQ(leaky.library, "edgebench");
  EXPECT_EQ(leaky.grown_bytes, 10 * 0x100);
  EXPECT_EQ(leaky.grown_allocations, 10);
  EXPECT_NEAR(leaky.slope, 256.0, 1e-6);  // bytes per query, exactly a line
  EXPECT_NEAR(leaky.slope_stderr, 0.0, 1e-6);
  EXPECT_NEAR(leaky.fit_r2, 1.0, 1e-9);
  ASSERT_EQ(leaky.stack.size(), 1u);
  EXPECT_EQ(leaky.stack[0], "Leaky(int) (edgebench)");
  ASSERT_EQ(sites.libraries.size(), 1u);
  EXPECT_EQ(sites.libraries[0].library, "edgebench");
  EXPECT_EQ(sites.libraries[0].grown_bytes, 2560);
}

TEST(HeaptrackReader, WithoutProgressTheFitIsAgainstTime) {
  std::ostringstream trace;
  trace << kHeader << "c 0\n+ 0\n";
  for (int tick = 1; tick <= 5; ++tick) trace << "+ 1\nc " << std::hex << 10 * tick << std::dec << "\n";
  std::istringstream in(trace.str());
  auto read = ReadHeaptrackSites(in, "EdgebenchLeakSitesWindowStart");
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value().axis, "seconds");
  ASSERT_EQ(read.value().sites.size(), 1u);
  EXPECT_NEAR(read.value().sites[0].slope, 256.0 / 0.01, 1e-3);  // bytes per second
}

TEST(HeaptrackReader, ATraceWithoutTheMarkIsAnError) {
  std::istringstream in(std::string(kHeader) + "c 0\n+ 1\nc a\n");
  auto read = ReadHeaptrackSites(in, "EdgebenchLeakSitesWindowStart");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("measured phase's start was not in heaptrack's trace"), std::string::npos) << read.error();
}

TEST(HeaptrackReader, ABrokenLineIsAnErrorThatNamesIt) {
  std::istringstream in(std::string(kHeader) + "+ 0\n+ zz\n");
  auto read = ReadHeaptrackSites(in, "EdgebenchLeakSitesWindowStart");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("line 28"), std::string::npos) << read.error();
  std::istringstream unknown(std::string(kHeader) + "+ 0\n+ 7\n");
  read = ReadHeaptrackSites(unknown, "EdgebenchLeakSitesWindowStart");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("unknown site"), std::string::npos) << read.error();
}

TEST(HeaptrackReader, CompilerSuffixesAreDropped) {
  EXPECT_EQ(FrameFunctionName("EdgebenchNullPlantedLeak.localalias"), "EdgebenchNullPlantedLeak");
  EXPECT_EQ(FrameFunctionName("edgebench::Sampler::Loop(long) [clone .localalias]"), "edgebench::Sampler::Loop(long)");
  EXPECT_EQ(FrameFunctionName("f() [clone .constprop.0]"), "f()");
  EXPECT_EQ(FrameFunctionName("plain"), "plain");
}

}  // namespace
}  // namespace edgebench
