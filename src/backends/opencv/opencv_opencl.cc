#include "backends/opencv/opencv_opencl.h"

#include <opencv2/core/ocl.hpp>

#include "backends/opencl_platforms.h"

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
  return OpenClOnCpuLabel(device.version() + " " + device.vendorName(), device.vendorName());
}

}  // namespace edgebench
