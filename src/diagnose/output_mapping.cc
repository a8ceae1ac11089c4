#include "diagnose/output_mapping.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace edgebench {
namespace {

std::string Names(const std::vector<Tensor>& outputs) {
  std::string names;
  for (const Tensor& t : outputs) names += (names.empty() ? "'" : ", '") + t.name + "' " + ShapeToString(t.shape);
  return names.empty() ? "none" : names;
}

// Concatenates `parts` (checked: same dtype and rank, equal sizes off `axis`) along `axis`.
Result<Tensor> Concatenate(const std::string& name, const std::vector<const Tensor*>& parts, int axis,
                           const std::string& artifact) {
  const Tensor& first = *parts.front();
  const int rank = static_cast<int>(first.shape.size());
  const int a = axis < 0 ? axis + rank : axis;
  std::string sources;
  for (const Tensor* t : parts) sources += (sources.empty() ? "'" : " + '") + t->name + "' " + ShapeToString(t->shape);
  const std::string what = "output '" + name + "' of " + artifact + " (" + sources + ")";
  if (a < 0 || a >= rank) {
    return Status::Error("cannot concatenate " + what + " along axis " + std::to_string(axis) + ": they have " +
                         std::to_string(rank) + (rank == 1 ? " axis" : " axes"));
  }
  Tensor out{name, first.dtype, first.shape, {}};
  out.shape[static_cast<size_t>(a)] = 0;
  for (const Tensor* t : parts) {
    bool fits = t->dtype == first.dtype && t->shape.size() == first.shape.size();
    for (int k = 0; fits && k < rank; ++k) fits = k == a || t->shape[static_cast<size_t>(k)] == first.shape[static_cast<size_t>(k)];
    if (!fits) {
      return Status::Error("cannot concatenate " + what + " along axis " + std::to_string(axis) +
                           ": they must have one type and equal sizes on every other axis");
    }
    out.shape[static_cast<size_t>(a)] += t->shape[static_cast<size_t>(a)];
  }
  // Row-major: each part contributes a block of (its axis size x inner) elements per outer index.
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < a; ++k) outer *= first.shape[static_cast<size_t>(k)];
  for (int k = a + 1; k < rank; ++k) inner *= first.shape[static_cast<size_t>(k)];
  const size_t element = DTypeSize(first.dtype);
  out.data.resize(static_cast<size_t>(ElementCount(out.shape)) * element);
  std::byte* dst = out.data.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor* t : parts) {
      const size_t block = static_cast<size_t>(t->shape[static_cast<size_t>(a)] * inner) * element;
      if (block == 0) continue;
      std::memcpy(dst, t->data.data() + static_cast<size_t>(o) * block, block);
      dst += block;
    }
  }
  return out;
}

}  // namespace

Result<std::vector<Tensor>> ApplyOutputMapping(const std::vector<OutputMapping>& mapping,
                                               std::vector<Tensor> outputs, const std::string& artifact) {
  if (mapping.empty()) return outputs;
  std::vector<Tensor> mapped;
  std::set<std::string> used;
  for (const OutputMapping& m : mapping) {
    std::vector<const Tensor*> parts;
    for (const std::string& source : m.sources) {
      auto it = std::find_if(outputs.begin(), outputs.end(), [&](const Tensor& t) { return t.name == source; });
      if (it == outputs.end()) {
        return Status::Error("the output mapping of '" + m.name + "' names '" + source + "', which " + artifact +
                             " does not output; its outputs are " + Names(outputs));
      }
      if (!used.insert(source).second) {
        return Status::Error("the output mapping of " + artifact + " uses output '" + source +
                             "' twice; each output can go into one mapped output only");
      }
      if (it->data.size() != static_cast<size_t>(it->element_count()) * DTypeSize(it->dtype)) {
        return Status::Error("output '" + source + "' of " + artifact + " has an unsupported type or inconsistent size");
      }
      parts.push_back(&*it);
    }
    if (parts.empty()) return Status::Error("the output mapping of '" + m.name + "' names no outputs");
    if (parts.size() == 1) {
      Tensor renamed = *parts.front();
      renamed.name = m.name;
      mapped.push_back(std::move(renamed));
      continue;
    }
    auto joined = Concatenate(m.name, parts, m.axis, artifact);
    if (!joined.ok()) return joined.status();
    mapped.push_back(joined.take());
  }
  for (Tensor& t : outputs) {
    if (!used.count(t.name)) mapped.push_back(std::move(t));
  }
  std::set<std::string> names;
  for (const Tensor& t : mapped) {
    if (!names.insert(t.name).second) {
      return Status::Error("the output mapping of " + artifact + " gives two outputs the name '" + t.name +
                           "' (a mapped name that is also an output left unmapped?)");
    }
  }
  return mapped;
}

}  // namespace edgebench
