#include "record/weights_residency.h"

#include <cstdio>

namespace edgebench {
namespace {

constexpr double kMappedShare = 0.5;   // the file's resident pages after load, of its size
constexpr double kCopiedShare = 0.8;   // anonymous growth at load, of the file's size
constexpr int64_t kSmallestJudged = 1 << 20;  // under 1 MiB, allocator noise is as large

int64_t AnonymousKb(const MemorySnapshot& s) {
  int64_t kb = 0;
  for (const MemoryClassUse& c : s.classes) {
    if (c.kind == "heap" || c.kind == "anon" || c.kind.rfind("anon:", 0) == 0) kb += c.rss_kb;
  }
  return kb;
}

int64_t FileKb(const MemorySnapshot& s, const std::string& path) {
  int64_t kb = 0;
  for (const MemoryClassUse& c : s.classes) {
    if (c.kind == "file" && c.name == path) kb += c.rss_kb;
  }
  return kb;
}

std::string Mb(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  return text;
}

}  // namespace

std::vector<WeightsResidency> DeriveWeightsResidency(const std::vector<MemorySnapshot>& map,
                                                     const std::vector<MonitorRecord::ModelFile>& files) {
  std::vector<WeightsResidency> out;
  size_t before = map.size();
  for (size_t i = 0; i < map.size(); ++i) {
    if (map[i].moment == "load start") before = i;
  }
  if (before + 1 >= map.size()) return out;
  const MemorySnapshot& a = map[before];
  const MemorySnapshot& b = map[before + 1];
  for (const MonitorRecord::ModelFile& f : files) {
    WeightsResidency w;
    w.file = f.path;
    w.file_bytes = f.bytes;
    w.mapped_rss_kb = FileKb(b, f.path);
    w.anonymous_growth_kb = AnonymousKb(b) - AnonymousKb(a);
    const double size = static_cast<double>(f.bytes);
    const double mapped = static_cast<double>(w.mapped_rss_kb) * 1024;
    const double grown = static_cast<double>(w.anonymous_growth_kb) * 1024;
    const std::string figures = Mb(mapped) + " of the " + Mb(size) + " file resident as mapped pages, " +
                                Mb(grown) + " of anonymous memory added, from '" + a.moment + "' to '" + b.moment +
                                "'";
    if (f.bytes < kSmallestJudged) {
      w.verdict = "too small to tell";
      w.explanation = "too small to tell (a file under 1 MiB, within the allocator's own growth): " + figures;
    } else {
      const bool is_mapped = mapped >= kMappedShare * size;
      const bool is_copied = grown >= kCopiedShare * size;
      w.verdict = is_mapped && is_copied ? "mapped and copied"
                  : is_mapped            ? "mapped"
                  : is_copied            ? "copied"
                                         : "neither";
      w.explanation = (w.verdict == "neither" ? std::string("neither mapped nor copied at load (read later, or "
                                                            "converted as it was read)")
                                              : w.verdict) +
                      ": " + figures;
    }
    out.push_back(w);
  }
  return out;
}

}  // namespace edgebench
