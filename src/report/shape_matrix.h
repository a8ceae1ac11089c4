// The matrix of a shape sweep (`edgebench shapes`, docs/shapes.md): a row per shape, a column per
// target, each cell what that shape did on that target. A pure function of the sweep's records,
// so it prints the same from a live sweep and from stored records.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"
#include "record/record.h"

namespace edgebench {

struct ShapeMatrixOptions {
  // The order of dimension names in a row's label ("batch=4 seq=512"): the order the sweep's
  // --dim flags came in. Names not listed follow in alphabetical order.
  std::vector<std::string> dim_order;
  bool markdown = false;  // a GitHub table instead of aligned text
};

// "batch=4 seq=512": the bindings in `order`, then the rest alphabetically; "(no dims)" when empty.
std::string ShapeLabel(const ShapeBindings& dims, const std::vector<std::string>& order);

// Rows are the records' shapes (their `dims`) in the order they first appear, columns their
// requested targets in the order they first appear. An ok cell holds
//   ok p50/p99 MS; first MS; rss MIB (+GROWTH)
// (p99 only where the record has one; first: the first warmup query, the re-planning cost; rss:
// the worker's peak resident memory from the device monitor; growth: against the peak RSS of
// the nearest earlier row of the same target that has one, "-" when there is none). Any other
// cell holds its status, a short reason (a signal, a failed stage) and a reference [N] to the
// full message listed under the matrix. A shape a target has no record for is "-". Empty text
// for no records.
std::string FormatShapeMatrix(const std::vector<Record>& records,
                              const ShapeMatrixOptions& options);

}  // namespace edgebench
