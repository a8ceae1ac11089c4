#include "report/text_table.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "core/strings.h"

namespace edgebench {

namespace {

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The byte offset just past the first `count` code points of `text` (its size when shorter).
size_t PrefixBytes(const std::string& text, size_t count) {
  size_t seen = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (IsContinuationByte(text[i])) continue;
    if (seen == count) return i;
    ++seen;
  }
  return text.size();
}

// The byte offset where the last `count` code points of `text` begin.
size_t SuffixStart(const std::string& text, size_t count) {
  if (count == 0) return text.size();
  size_t seen = 0;
  for (size_t i = text.size(); i > 0; --i) {
    if (IsContinuationByte(text[i - 1])) continue;
    if (++seen == count) return i - 1;
  }
  return 0;
}

std::string Printable(const std::string& cell) {
  std::string out = cell;
  for (char& c : out) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) c = '?';
  }
  return out;
}

// `text` in at most `width` code points: its start and end around "...".
std::string Shortened(const std::string& text, size_t width) {
  const size_t length = DisplayWidth(text);
  if (length <= width) return text;
  if (width <= 3) return text.substr(0, PrefixBytes(text, width));
  const size_t kept = width - 3;
  const size_t head = (kept + 1) / 2;
  const size_t tail = kept - head;
  return text.substr(0, PrefixBytes(text, head)) + "..." + text.substr(SuffixStart(text, tail));
}

// `text` broken into lines of at most `width` code points, at spaces where it can be.
std::vector<std::string> Wrapped(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string rest = text;
  width = std::max<size_t>(width, 1);
  while (DisplayWidth(rest) > width) {
    const size_t limit = PrefixBytes(rest, width);
    size_t cut = rest.rfind(' ', limit);
    if (cut == std::string::npos || cut == 0) {
      lines.push_back(rest.substr(0, limit));
      rest = rest.substr(limit);
    } else {
      lines.push_back(rest.substr(0, cut));
      rest = rest.substr(cut + 1);
    }
  }
  lines.push_back(rest);
  return lines;
}

size_t TotalWidth(const std::vector<size_t>& widths) {
  size_t total = 0;
  for (size_t w : widths) total += w;
  return widths.empty() ? 0 : total + 2 * (widths.size() - 1);
}

}  // namespace

std::string WrappedParagraph(const std::string& lead, const std::string& given_text, size_t width) {
  const std::string text = Printable(given_text);
  if (width == 0 || width <= lead.size() + 10) return lead + text + "\n";
  std::string out;
  const std::vector<std::string> lines = Wrapped(text, width - lead.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    out += (i == 0 ? lead : std::string(lead.size(), ' ')) + lines[i] + "\n";
  }
  return out;
}

size_t DisplayWidth(const std::string& text) {
  size_t count = 0;
  for (char c : text) count += IsContinuationByte(c) ? 0 : 1;
  return count;
}

size_t TerminalWidth() {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
    char* end = nullptr;
    const long value = std::strtol(columns, &end, 10);
    if (*end == '\0' && value > 0 && value < 100000) return static_cast<size_t>(value);
  }
  winsize size{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return 0;
}

bool ColumnNameMatches(const std::string& name, const std::string& header) {
  const std::string wanted = ToLowerAscii(name);
  const std::string full = ToLowerAscii(header);
  if (wanted == full) return true;
  const size_t unit = full.find(" (");
  return unit != std::string::npos && wanted == full.substr(0, unit);
}

Status CheckColumnNames(const std::vector<std::string>& names, const std::vector<std::string>& headers,
                        const std::string& flag) {
  for (const std::string& name : names) {
    const bool known = std::any_of(headers.begin(), headers.end(),
                                   [&](const std::string& header) { return ColumnNameMatches(name, header); });
    if (known) continue;
    std::vector<std::string> sorted = headers;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::string list;
    for (const std::string& header : sorted) list += (list.empty() ? "" : ", ") + header;
    return Status::Error(flag + ": no column is called '" + name +
                         "'; columns (a header without its unit also names it, e.g. p99): " + list);
  }
  return Status::Ok();
}

std::string RenderTextTable(const std::vector<TextColumn>& given_columns, const std::vector<TextRow>& given_rows,
                            const TableLayout& layout) {
  std::vector<TextColumn> columns = given_columns;
  std::vector<std::vector<std::string>> cells;
  // Notes become numbered footnotes; the same text, the same number.
  std::vector<std::string> notes;
  std::map<std::string, size_t> note_number;
  for (const TextRow& row : given_rows) {
    std::vector<std::string> line;
    for (const std::string& cell : row.cells) line.push_back(Printable(cell));
    line.resize(columns.size());
    if (!row.note.empty()) {
      auto [at, added] = note_number.emplace(row.note, notes.size() + 1);
      if (added) notes.push_back(Printable(row.note));
      line.push_back("[" + std::to_string(at->second) + "]");
    } else {
      line.push_back("");
    }
    cells.push_back(std::move(line));
  }
  if (!notes.empty()) {
    columns.push_back({"note", false, 0, false});
  } else {
    for (auto& line : cells) line.pop_back();
  }
  // The columns asked for by name are shown like the rank 0 ones, and only those.
  std::vector<size_t> shown;
  for (size_t i = 0; i < columns.size(); ++i) {
    const bool named = std::any_of(layout.columns.begin(), layout.columns.end(), [&](const std::string& name) {
      return ColumnNameMatches(name, columns[i].header);
    });
    if (named) columns[i].rank = 0;
    if (layout.columns.empty() || named || columns[i].rank == 0) shown.push_back(i);
  }
  std::vector<size_t> widths(columns.size(), 0);
  for (size_t i = 0; i < columns.size(); ++i) {
    widths[i] = DisplayWidth(columns[i].header);
    for (const auto& line : cells) widths[i] = std::max(widths[i], DisplayWidth(line[i]));
  }
  auto shown_widths = [&] {
    std::vector<size_t> w;
    for (size_t i : shown) w.push_back(widths[i]);
    return w;
  };
  const size_t width = layout.width;
  std::vector<std::string> left_out;
  if (width > 0) {
    const std::vector<size_t> natural = widths;
    // 1. Wrap free text down to a readable width before leaving anything out.
    constexpr size_t kMinWrappedWidth = 30;
    for (size_t i : shown) {
      const size_t total = TotalWidth(shown_widths());
      if (!columns[i].wraps || total <= width) continue;
      const size_t others = total - widths[i];
      widths[i] = std::min(natural[i], std::max(width > others ? width - others : 0, kMinWrappedWidth));
    }
    // 2. Leave out the least important columns, rightmost first; among those of the least
    //    importance, the narrowest whose absence alone makes the table fit goes first (one long
    //    column of text rather than three numbers, a status rather than a result).
    while (TotalWidth(shown_widths()) > width) {
      size_t drop = shown.size();
      for (size_t k = 0; k < shown.size(); ++k) {
        const TextColumn& c = columns[shown[k]];
        if (c.rank == 0 || c.wraps) continue;
        if (drop == shown.size() || c.rank >= columns[shown[drop]].rank) drop = k;
      }
      if (drop == shown.size()) break;
      const size_t total = TotalWidth(shown_widths());
      const int rank = columns[shown[drop]].rank;
      size_t narrowest_fit = shown.size();
      for (size_t k = shown.size(); k-- > 0;) {
        const TextColumn& c = columns[shown[k]];
        if (c.rank != rank || c.wraps || total - widths[shown[k]] - 2 > width) continue;
        if (narrowest_fit == shown.size() || widths[shown[k]] < widths[shown[narrowest_fit]]) narrowest_fit = k;
      }
      if (narrowest_fit != shown.size()) drop = narrowest_fit;
      left_out.push_back(columns[shown[drop]].header);
      shown.erase(shown.begin() + static_cast<std::ptrdiff_t>(drop));
    }
    // The free text takes back what leaving columns out freed.
    for (size_t i : shown) {
      if (!columns[i].wraps) continue;
      const size_t others = TotalWidth(shown_widths()) - widths[i];
      if (width > others) widths[i] = std::min(natural[i], std::max(widths[i], width - others));
    }
    // 3. Shorten the widest text columns, in their middle.
    while (TotalWidth(shown_widths()) > width) {
      size_t widest = columns.size();
      for (size_t i : shown) {
        if (columns[i].numeric || widths[i] <= kMinShortenedWidth) continue;
        if (widest == columns.size() || widths[i] > widths[widest]) widest = i;
      }
      if (widest == columns.size()) break;
      const size_t excess = TotalWidth(shown_widths()) - width;
      widths[widest] -= std::min(excess, widths[widest] - kMinShortenedWidth);
    }
  }
  std::string out;
  auto emit = [&](const std::vector<std::string>& line_cells) {
    // A wrapping column may need several lines; every other cell is on the first.
    std::vector<std::vector<std::string>> pieces;
    size_t height = 1;
    for (size_t i : shown) {
      const std::string& cell = line_cells[i];
      pieces.push_back(columns[i].wraps ? Wrapped(cell, widths[i])
                                        : std::vector<std::string>{Shortened(cell, widths[i])});
      height = std::max(height, pieces.back().size());
    }
    for (size_t h = 0; h < height; ++h) {
      std::string text;
      for (size_t k = 0; k < shown.size(); ++k) {
        const std::string cell = h < pieces[k].size() ? pieces[k][h] : "";
        const size_t cell_width = DisplayWidth(cell);
        const std::string padding(widths[shown[k]] > cell_width ? widths[shown[k]] - cell_width : 0, ' ');
        if (k > 0) text += "  ";
        text += columns[shown[k]].numeric ? padding + cell : cell + padding;
      }
      text.erase(text.find_last_not_of(' ') + 1);
      out += text + "\n";
    }
  };
  std::vector<std::string> header_cells;
  for (const TextColumn& c : columns) header_cells.push_back(c.header);
  emit(header_cells);
  for (const auto& line : cells) emit(line);
  for (size_t n = 0; n < notes.size(); ++n) {
    out += WrappedParagraph("[" + std::to_string(n + 1) + "] ", notes[n], width);
  }
  if (!left_out.empty()) {
    out += WrappedParagraph("", "(not shown at " + std::to_string(width) + " columns: " + Join(left_out, ", ") +
                             "; --columns NAME,... chooses, --width 0 shows all, --format json has every value)",
                     width);
  }
  return out;
}

}  // namespace edgebench
