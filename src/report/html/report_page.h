// The HTML report page (`edgebench report`, docs/report.md): one self-contained file that opens
// offline. A Content-Security-Policy lets nothing leave the page (no request of any kind, only
// the page's own three scripts, named by their SHA-256 hashes, inline style and data: images; no
// event handler attribute and no other inline script runs); the chart library, the report's own script and
// style sheet (report.js, report.css, embedded at build time) and the data (report_data.h) are
// inline. The script draws every section from the data when the page loads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace edgebench {

// The page's policy for scripts whose bodies are `scripts` (each exactly the text between its
// <script> and </script>): nothing may be fetched, no form sent, no <base> set, and only those
// scripts run, by hash: a string of a record that reached the page as markup could not run
// script, not even as an event handler attribute.
std::string ReportContentSecurityPolicy(const std::vector<std::string_view>& scripts);

// A CSP source expression for a script body: 'sha256-BASE64'.
std::string ScriptHashSource(std::string_view script);

// The whole page for `data` (BuildReportData's document; its "title" is the page's title).
std::string RenderReportPage(const nlohmann::json& data);

// `text` safe inside <script type="application/json">: every '<' written as \u003c, so that no
// "</script>" or "<!--" in a string can end or confuse the element. Valid JSON, same value.
std::string JsonForScriptElement(const nlohmann::json& data);

// `text` with &, <, >, " and ' as character references.
std::string HtmlEscape(std::string_view text);

// The report's own renderer script and style sheet (src/report/html/report.js, report.css).
std::string_view ReportScript();
std::string_view ReportStyle();

}  // namespace edgebench
