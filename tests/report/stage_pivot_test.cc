#include "report/stage_pivot.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

StagePivotCase Case(const std::string& target, const std::string& scenario, const std::string& detect_ms) {
  return {"face-features", target, scenario,
          {{"decode", "decode_image", "host", "1", "1.44", "7.1%", "1.43"},
           {"detect", "model", "litert:xnnpack", "1", detect_ms, "6.1%", "-"}}};
}

TEST(StagePivot, AStageIsARowAndEachScenarioItsColumns) {
  const std::string table =
      RenderStagePivot({Case("detect=litert:xnnpack", "single-stream", "1.24"),
                        Case("detect=ort:cpu", "single-stream", "2.50"),
                        Case("detect=litert:xnnpack", "multi-stream:10", "1.74")},
                       {0, {}, ""});
  EXPECT_EQ(table,
            "stages of face-features on detect=litert:xnnpack:\n"
            "stage   kind          on              calls/query  single-stream mean (ms)  share  host CPU (ms)"
            "  multi-stream:10 mean (ms)  share  host CPU (ms)\n"
            "decode  decode_image  host                      1                     1.44   7.1%           1.43"
            "                       1.44   7.1%           1.43\n"
            "detect  model         litert:xnnpack            1                     1.24   6.1%              -"
            "                       1.74   6.1%              -\n"
            "\n"
            "stages of face-features on detect=ort:cpu:\n"
            "stage   kind          on              calls/query  single-stream mean (ms)  share  host CPU (ms)\n"
            "decode  decode_image  host                      1                     1.44   7.1%           1.43\n"
            "detect  model         litert:xnnpack            1                     2.50   6.1%              -\n");
  // At 80 columns the means stay and the details go.
  const std::string narrow = RenderStagePivot({Case("detect=litert:xnnpack", "single-stream", "1.24"),
                                               Case("detect=litert:xnnpack", "multi-stream:10", "1.74")},
                                              {80, {}, ""});
  EXPECT_NE(narrow.find("multi-stream:10 mean (ms)"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("not shown at 80 columns"), std::string::npos) << narrow;
  size_t start = 0;
  while (start < narrow.size()) {
    const size_t end = narrow.find('\n', start);
    EXPECT_LE(end - start, 80u) << narrow.substr(start, end - start);
    start = end + 1;
  }
}

}  // namespace
}  // namespace edgebench
