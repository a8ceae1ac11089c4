#include "report/metric_pivot.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

MetricPivotCell Cell(const std::string& target, const std::string& scenario, const std::string& value, bool valid = true) {
  return {"vit", target, scenario, "p99 (ms)", value, valid};
}

TEST(MetricPivot, OneMetricAsTargetsByScenarios) {
  const std::string table = RenderMetricPivot({Cell("ort:cpu", "single-stream", "17.9"),
                                               Cell("ort:dnnl", "single-stream", "19.7"),
                                               Cell("ort:cpu", "multi-stream:4", "80.1"),
                                               Cell("ort:dnnl", "multi-stream:4", "95.0", false),
                                               Cell("ort:cpu", "single-stream", "18.2")},
                                              "p99", {0, {}, "p99"});
  EXPECT_EQ(table,
            "p99 (ms) by target and scenario; * marks an INVALID case; a case run more than once shows its "
            "latest run (1 earlier):\n"
            "model  target    single-stream  multi-stream:4\n"
            "vit    ort:cpu            18.2            80.1\n"
            "vit    ort:dnnl           19.7           95.0*\n");
}

}  // namespace
}  // namespace edgebench
