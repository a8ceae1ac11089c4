#include "core/file_replace.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace edgebench {

Status ReplaceFileContents(const std::string& path, std::string_view bytes) {
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      return Status::Error("cannot write '" + path + "': cannot create '" + temporary + "' (" + std::strerror(errno) +
                           "; permission denied or read-only?)");
    }
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      return Status::Error("cannot write '" + path + "': writing '" + temporary + "' failed (disk full?)");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    return Status::Error("cannot write '" + path + "': renaming the finished file into place failed: " + why);
  }
  return Status::Ok();
}

}  // namespace edgebench
