#include "backends/opencv/opencv_opencl.h"

#include <opencv2/core/ocl.hpp>

namespace edgebench {

std::string OpenClDeviceText() {
  if (!cv::ocl::haveOpenCL()) return "";
  const cv::ocl::Device& device = cv::ocl::Device::getDefault();
  if (device.empty()) return "";
  return device.name() + " (" + device.vendorName() + ", " + device.version() + ")";
}

std::string OpenClEmulation() {
  if (!cv::ocl::haveOpenCL()) return "";
  const cv::ocl::Device& device = cv::ocl::Device::getDefault();
  if (device.empty() || device.type() != cv::ocl::Device::TYPE_CPU) return "";
  const std::string platform = device.version() + " " + device.vendorName();
  const std::string who = platform.find("PoCL") != std::string::npos || platform.find("pocl") != std::string::npos ||
                                  platform.find("Portable Computing Language") != std::string::npos
                              ? "PoCL"
                              : device.vendorName();
  return who + ", OpenCL on the CPU";
}

}  // namespace edgebench
