#include "record/emulated_device.h"

namespace edgebench {

std::string EmulatedDeviceOf(const Record& r) {
  static constexpr char kPrefix[] = "emulated: ";
  constexpr size_t kPrefixSize = sizeof(kPrefix) - 1;
  for (const std::string& note : r.notes) {
    if (note.rfind(kPrefix, 0) != 0) continue;
    const size_t end = note.find(": ", kPrefixSize);
    return note.substr(kPrefixSize, end == std::string::npos ? std::string::npos : end - kPrefixSize);
  }
  return "";
}

}  // namespace edgebench
