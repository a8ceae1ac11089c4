// A plain-text table that fits a terminal: every text table edgebench prints (run, llm, suite,
// devices) is laid out here.
//
// Laid out at its natural size (each column as wide as its widest cell) when that fits `width`.
// When it does not:
// 1. a `wraps` column (free text such as a details column) wraps onto continuation lines,
//    down to 30 characters;
// 2. columns are left out, the least important first (highest `rank`), the rightmost first
//    among equals unless leaving out one of them alone makes the table fit (then the
//    narrowest such one);
//    rank 0 columns (what a row is: model, target, verdict) are never left out; a wrapping
//    column then takes back the width freed;
// 3. the widest text columns left are shortened in their middle ("yolo...s.onnx") down to
//    kMinShortenedWidth (a terminal too narrow for the rank 0 columns at that width gets lines
//    wider than itself rather than rows nobody can tell apart).
// What was left out is said under the table, with how to see it (--columns, --format json).
// A row's note (why a case failed or is INVALID) is a numbered footnote under the table: the
// row carries "[n]" in a `note` column; rows with the same note share a number. Control
// characters in cells print as '?', so a hostile model name cannot drive the terminal.
// Widths count UTF-8 code points, and shortening never splits one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/status.h"

namespace edgebench {

inline constexpr size_t kMinShortenedWidth = 12;

struct TextColumn {
  std::string header;
  bool numeric = false;  // right-aligned
  int rank = 1;          // 0: always shown; higher: left out sooner
  bool wraps = false;    // free text that may wrap instead of being left out
};

struct TextRow {
  std::vector<std::string> cells;  // one per column
  std::string note;                // "" for none
};

// How tables are laid out: the terminal's width (0: no limit) and the columns asked for by name.
struct TableLayout {
  size_t width = 0;
  std::vector<std::string> columns;  // empty: chosen by rank to fit `width`
  std::string pivot;                 // --pivot METRIC: that metric as targets x scenarios instead
};

// The terminal's width: COLUMNS when it is a number, else the width of the terminal on stdout,
// else 0 (stdout is a file or a pipe: nothing is left out).
size_t TerminalWidth();

// Whether `name` names `header`: equal ignoring case, or equal to the header without its unit
// ("p99" names "p99 (ms)").
bool ColumnNameMatches(const std::string& name, const std::string& header);

// The table's lines, each ending in "\n", none wider than layout.width (when it is above 0),
// followed by the footnotes and what was left out. With layout.columns, only the columns named
// there are shown (rank 0 columns too), in the table's order.
std::string RenderTextTable(const std::vector<TextColumn>& columns, const std::vector<TextRow>& rows,
                            const TableLayout& layout);

// Checks --columns (or `flag`'s) names against the headers a table could have: an error naming
// the unknown one and listing the known ones.
Status CheckColumnNames(const std::vector<std::string>& names, const std::vector<std::string>& headers,
                        const std::string& flag = "--columns");

// A paragraph: `lead` then `text`, wrapped at spaces to `width` (0: one line), continuation lines
// indented by the lead's width; ends in "\n".
std::string WrappedParagraph(const std::string& lead, const std::string& text, size_t width);

// Display width of UTF-8 text: its code points.
size_t DisplayWidth(const std::string& text);

}  // namespace edgebench
