#include "monitor/sensor.h"

#include <utility>

namespace edgebench {

std::string SensorRoots::Path(const std::string& relative) const {
  if (root.empty() || root == "/") return "/" + relative;
  return (root.back() == '/' ? root : root + "/") + relative;
}

}  // namespace edgebench
