// The chart library every HTML report inlines: Apache ECharts, pinned with its sha256 in
// scripts/fixtures.lock, fetched by scripts/build and embedded into edgebench at build time, so
// `edgebench report` needs no file and a report opens offline with no request leaving the page.
#pragma once

#include <string_view>

namespace edgebench {

// The library's minified JavaScript, as the pinned package ships it.
std::string_view ChartLibraryJs();
// "echarts 5.6.0": what a report says it drew with.
std::string_view ChartLibraryName();
// The sha256 of ChartLibraryJs() as hex, taken when the build embedded it.
std::string_view ChartLibrarySha256();
// The library's licence text (Apache-2.0), inlined in a report beside the code.
std::string_view ChartLibraryLicense();

}  // namespace edgebench
