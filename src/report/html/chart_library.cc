#include "report/html/chart_library.h"

#include "report/html/embedded_file.h"

// EDGEBENCH_CHART_LIBRARY_JS and _LICENSE are the paths CMake found (see CMakeLists.txt).
EDGEBENCH_EMBED(edgebench_chart_library_js, EDGEBENCH_CHART_LIBRARY_JS);
EDGEBENCH_EMBED(edgebench_chart_library_license, EDGEBENCH_CHART_LIBRARY_LICENSE);

EDGEBENCH_EMBEDDED_EXTERN(edgebench_chart_library_js);
EDGEBENCH_EMBEDDED_EXTERN(edgebench_chart_library_license);

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
