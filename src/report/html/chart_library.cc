#include "report/html/chart_library.h"

// The files are assembled in as read-only data (.incbin): a megabyte of JavaScript as a C++
// literal or byte array would cost the compiler far more than the assembler's copy.
// EDGEBENCH_CHART_LIBRARY_JS and _LICENSE are the paths CMake found (see CMakeLists.txt).
#define EDGEBENCH_EMBED(symbol, path)                          \
  __asm__(".pushsection .rodata\n"                             \
          ".balign 16\n"                                       \
          ".hidden " #symbol "_begin\n"                        \
          ".hidden " #symbol "_end\n"                          \
          #symbol "_begin:\n"                                  \
          ".incbin \"" path "\"\n"                             \
          #symbol "_end:\n"                                    \
          ".byte 0\n"                                          \
          ".popsection\n")

EDGEBENCH_EMBED(edgebench_chart_library_js, EDGEBENCH_CHART_LIBRARY_JS);
EDGEBENCH_EMBED(edgebench_chart_library_license, EDGEBENCH_CHART_LIBRARY_LICENSE);

extern "C" const char edgebench_chart_library_js_begin[];
extern "C" const char edgebench_chart_library_js_end[];
extern "C" const char edgebench_chart_library_license_begin[];
extern "C" const char edgebench_chart_library_license_end[];

namespace edgebench {

std::string_view ChartLibraryJs() {
  return {edgebench_chart_library_js_begin,
          static_cast<size_t>(edgebench_chart_library_js_end - edgebench_chart_library_js_begin)};
}

std::string_view ChartLibraryName() { return "echarts " EDGEBENCH_CHART_LIBRARY_VERSION; }

std::string_view ChartLibrarySha256() { return EDGEBENCH_CHART_LIBRARY_SHA256; }

std::string_view ChartLibraryLicense() {
  return {edgebench_chart_library_license_begin,
          static_cast<size_t>(edgebench_chart_library_license_end -
                              edgebench_chart_library_license_begin)};
}

}  // namespace edgebench
