#include "report/text_table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace edgebench {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

size_t WidestLine(const std::string& text) {
  size_t widest = 0;
  for (const std::string& line : Lines(text)) widest = std::max(widest, DisplayWidth(line));
  return widest;
}

const std::vector<TextColumn> kColumns = {
    {"model", false, 0}, {"target", false, 0},  {"ran on (nodes)", false, 2}, {"p50 (ms)", true, 1},
    {"p99 (ms)", true, 1}, {"mean (ms)", true, 2}, {"verdict", false, 0},
};

std::vector<TextRow> Rows() {
  return {{{"mobilenet_v3_large_100_224_float32", "ort:xnnpack?threads=2", "XnnpackExecutionProvider:120", "1.25",
            "2.50", "1.30", "VALID"},
           ""},
          {{"vit_tiny16", "ort:cpu", "CPUExecutionProvider:88", "9.75", "12.0", "9.9", "INVALID"},
           "warmup did not settle in 200 queries: the latencies still fell by more than 5% between windows"}};
}

TEST(TextTable, UnlimitedWidthShowsEveryColumn) {
  const std::string table = RenderTextTable(kColumns, Rows(), {0, {}, ""});
  EXPECT_NE(table.find("ran on (nodes)"), std::string::npos);
  EXPECT_NE(table.find("mean (ms)"), std::string::npos);
  EXPECT_EQ(table.find("not shown"), std::string::npos);
  EXPECT_NE(table.find("INVALID  [1]\n"), std::string::npos) << table;
  EXPECT_NE(table.find("\n[1] warmup did not settle"), std::string::npos) << table;
}

TEST(TextTable, NoLineIsWiderThanTheTerminalAndTheDetailsGoFirst) {
  for (size_t width : {80, 100, 120, 200}) {
    const std::string table = RenderTextTable(kColumns, Rows(), {width, {}, ""});
    EXPECT_LE(WidestLine(table), width) << width << ":\n" << table;
    EXPECT_NE(table.find("verdict"), std::string::npos) << table;
  }
  const std::string table = RenderTextTable(kColumns, Rows(), {100, {}, ""});
  // The details are left out, the results kept, and the table says so.
  EXPECT_EQ(table.find("ran on (nodes)  "), std::string::npos) << table;
  EXPECT_NE(table.find("p99 (ms)"), std::string::npos) << table;
  EXPECT_NE(table.find("(not shown at 100 columns: mean (ms), ran on (nodes);"), std::string::npos) << table;
}

TEST(TextTable, TooNarrowForTheIdentityColumnsShortensThemInTheMiddle) {
  const std::string table = RenderTextTable(kColumns, Rows(), {44, {}, ""});
  EXPECT_LE(WidestLine(table), 44u) << table;
  // The start and the end of the long name are kept.
  EXPECT_NE(table.find("mobi"), std::string::npos) << table;
  EXPECT_NE(table.find("..."), std::string::npos) << table;
  // The footnote wraps under its number.
  EXPECT_NE(table.find("[1] warmup"), std::string::npos) << table;
  EXPECT_NE(table.find("\n    "), std::string::npos) << table;
}

TEST(TextTable, NamedColumnsAreTheOnlyOnesBesideTheIdentity) {
  const std::string table = RenderTextTable(kColumns, Rows(), {0, {"P99"}, ""});
  const std::string header = Lines(table).front();
  EXPECT_EQ(header, "model                               target                 p99 (ms)  verdict  note");
}

TEST(TextTable, AFreeTextColumnWrapsInsteadOfBeingLeftOut) {
  const std::vector<TextColumn> columns = {{"target", false, 0}, {"details", false, 1, true}};
  const std::vector<TextRow> rows = {
      {{"ort:cpu", "ONNX Runtime 1.23.2, providers: CPUExecutionProvider, XnnpackExecutionProvider, "
                   "DnnlExecutionProvider; threads default to the physical cores"},
       ""}};
  const std::string table = RenderTextTable(columns, rows, {60, {}, ""});
  EXPECT_LE(WidestLine(table), 60u) << table;
  EXPECT_NE(table.find("physical cores"), std::string::npos) << table;
  EXPECT_GE(Lines(table).size(), 3u) << table;
  EXPECT_EQ(table.find("not shown"), std::string::npos) << table;
}

TEST(TextTable, ControlCharactersCannotReachTheTerminal) {
  const std::vector<TextColumn> columns = {{"model", false, 0}};
  const std::string table = RenderTextTable(columns, {{{"evil\x1b]0;pwned\x07name"}, "bad\x1b[2Jnote"}}, {0, {}, ""});
  EXPECT_EQ(table.find('\x1b'), std::string::npos);
  EXPECT_EQ(table.find('\x07'), std::string::npos);
  EXPECT_NE(table.find("evil?]0;pwned?name"), std::string::npos) << table;
}

TEST(TextTable, ShorteningNeverSplitsACodePoint) {
  const std::vector<TextColumn> columns = {{"model", false, 0}, {"verdict", false, 0}};
  std::string name;
  for (int i = 0; i < 30; ++i) name += "\xc3\xa9";  // é
  const std::string table = RenderTextTable(columns, {{{name, "VALID"}, ""}}, {24, {}, ""});
  EXPECT_LE(WidestLine(table), 24u) << table;
  for (const std::string& line : Lines(table)) {
    size_t pending = 0;  // continuation bytes still due
    for (char c : line) {
      const auto byte = static_cast<unsigned char>(c);
      if ((byte & 0xC0) == 0x80) {
        ASSERT_GT(pending, 0u) << line;
        --pending;
      } else {
        ASSERT_EQ(pending, 0u) << line;
        pending = byte >= 0xC0 ? 1 : 0;
      }
    }
    EXPECT_EQ(pending, 0u) << line;
  }
}

TEST(TextTable, ColumnNamesMatchWithOrWithoutTheirUnit) {
  EXPECT_TRUE(ColumnNameMatches("p99", "p99 (ms)"));
  EXPECT_TRUE(ColumnNameMatches("P99 (MS)", "p99 (ms)"));
  EXPECT_FALSE(ColumnNameMatches("p9", "p99 (ms)"));
  EXPECT_TRUE(CheckColumnNames({"p99", "verdict"}, {"p99 (ms)", "verdict"}).ok());
  const Status unknown = CheckColumnNames({"p999"}, {"p99 (ms)", "verdict"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("no column is called 'p999'"), std::string::npos) << unknown.message();
  EXPECT_NE(unknown.message().find("p99 (ms), verdict"), std::string::npos) << unknown.message();
}

TEST(TextTable, TerminalWidthComesFromColumns) {
  ::setenv("COLUMNS", "97", 1);
  EXPECT_EQ(TerminalWidth(), 97u);
  ::setenv("COLUMNS", "wide", 1);
  const size_t fallback = TerminalWidth();  // the terminal's, or 0 when stdout is not one
  EXPECT_NE(fallback, 97u);
  ::unsetenv("COLUMNS");
}

}  // namespace
}  // namespace edgebench
