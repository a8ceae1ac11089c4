#include "monitor/memory_map.h"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

#include "monitor/sysfs_text.h"

namespace edgebench {
namespace {

// An smaps header line: "7f3c2a000000-7f3c2a021000 rw-p 00000000 00:00 0   [heap]".
bool IsHeader(const std::string& line) {
  const size_t dash = line.find('-');
  if (dash == std::string::npos || dash == 0) return false;
  for (size_t i = 0; i < dash; ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(line[i]))) return false;
  }
  return true;
}

// The path or pseudo-name after the fifth field, or "".
std::string HeaderName(const std::string& line) {
  std::istringstream in(line);
  std::string field;
  for (int i = 0; i < 5 && (in >> field); ++i) {
  }
  std::string rest;
  std::getline(in, rest);
  const size_t start = rest.find_first_not_of(' ');
  return start == std::string::npos ? "" : rest.substr(start);
}

std::pair<std::string, std::string> KindOf(const std::string& name) {
  if (name.empty()) return {"anon", ""};
  if (name == "[heap]") return {"heap", ""};
  if (name == "[stack]" || name.rfind("[stack:", 0) == 0) return {"stack", ""};
  if (name == "[vdso]" || name == "[vvar]" || name == "[vsyscall]" || name == "[vvar_vclock]") return {"kernel", ""};
  if (name.rfind("[anon:", 0) == 0) return {"anon:" + name.substr(6, name.size() - 7), ""};
  if (name.rfind("[anon_shmem:", 0) == 0 || name.rfind("/dev/shm/", 0) == 0 || name.rfind("/memfd:", 0) == 0 ||
      name.rfind("/SYSV", 0) == 0) {
    return {"shm", name};
  }
  if (name.rfind("/dev/", 0) == 0) return {"device", name};
  if (name[0] == '[') return {"anon", ""};
  std::string path = name;
  if (const size_t deleted = path.rfind(" (deleted)"); deleted != std::string::npos && deleted + 10 == path.size()) {
    path.resize(deleted);
  }
  return {"file", path};
}

}  // namespace

Result<std::vector<MemoryClassUse>> ClassifySmaps(const std::string& smaps_text, const std::vector<std::string>& keep,
                                                  int64_t min_file_kb) {
  std::map<std::pair<std::string, std::string>, MemoryClassUse> by_class;
  MemoryClassUse* current = nullptr;
  std::istringstream in(smaps_text);
  int headers = 0;
  for (std::string line; std::getline(in, line);) {
    if (IsHeader(line)) {
      ++headers;
      const auto [kind, name] = KindOf(HeaderName(line));
      MemoryClassUse& use = by_class[{kind, name}];
      use.kind = kind;
      use.name = name;
      ++use.mappings;
      current = &use;
      continue;
    }
    if (!current) continue;
    int64_t* field = nullptr;
    if (line.rfind("Rss:", 0) == 0) field = &current->rss_kb;
    else if (line.rfind("Pss:", 0) == 0) field = &current->pss_kb;
    else if (line.rfind("Private_Dirty:", 0) == 0) field = &current->private_dirty_kb;
    else if (line.rfind("Swap:", 0) == 0) field = &current->swap_kb;
    if (!field) continue;
    const size_t colon = line.find(':');
    *field += std::strtoll(line.c_str() + colon + 1, nullptr, 10);
  }
  if (headers == 0) return Status::Error("no mapping in the smaps text (is /proc mounted?)");
  std::vector<MemoryClassUse> files, rest;
  MemoryClassUse small{"file", "(other files)", 0, 0, 0, 0, 0};
  for (auto& [key, use] : by_class) {
    if (use.kind != "file") {
      rest.push_back(use);
    } else if (use.rss_kb >= min_file_kb || std::find(keep.begin(), keep.end(), use.name) != keep.end()) {
      files.push_back(use);
    } else {
      small.rss_kb += use.rss_kb;
      small.pss_kb += use.pss_kb;
      small.private_dirty_kb += use.private_dirty_kb;
      small.swap_kb += use.swap_kb;
      small.mappings += use.mappings;
    }
  }
  const auto by_rss = [](const MemoryClassUse& a, const MemoryClassUse& b) {
    return std::tie(b.rss_kb, a.kind, a.name) < std::tie(a.rss_kb, b.kind, b.name);
  };
  std::sort(files.begin(), files.end(), by_rss);
  std::sort(rest.begin(), rest.end(), by_rss);
  if (small.mappings > 0) files.push_back(small);
  files.insert(files.end(), rest.begin(), rest.end());
  return files;
}

Result<MemorySnapshot> TakeMemorySnapshot(const std::string& proc_root, const std::string& moment,
                                          const std::vector<std::string>& keep) {
  const std::string root = proc_root.empty() || proc_root.back() == '/' ? proc_root : proc_root + "/";
  auto text = ReadSmallTextFile(root + "proc/self/smaps");
  if (!text.ok()) return Status::Error(text.error());
  auto classes = ClassifySmaps(text.value(), keep);
  if (!classes.ok()) return Status::Error(root + "proc/self/smaps: " + classes.error());
  MemorySnapshot snapshot;
  snapshot.moment = moment;
  snapshot.classes = classes.take();
  for (const MemoryClassUse& c : snapshot.classes) snapshot.rss_kb += c.rss_kb;
#if defined(__GLIBC__)
  // A malloc that is not glibc's (AddressSanitizer's, a preloaded jemalloc) answers zeros: not
  // read, rather than nothing held.
  const struct mallinfo2 held = ::mallinfo2();
  if (held.arena != 0 || held.hblkhd != 0 || held.uordblks != 0) {
    snapshot.malloc_in_use_kb = static_cast<int64_t>((held.uordblks + held.hblkhd) / 1024);
    snapshot.malloc_free_kb = static_cast<int64_t>(held.fordblks / 1024);
  }
#endif
  return snapshot;
}

}  // namespace edgebench
