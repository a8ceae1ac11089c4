// The HTML report page (`edgebench report`, docs/report.md): one self-contained file that opens
// offline. A Content-Security-Policy lets nothing leave the page (no request of any kind, only
// inline script and style and data: images); the chart library, the report's own script and
// style sheet (report.js, report.css, embedded at build time) and the data (report_data.h) are
// inline. The script draws every section from the data when the page loads.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace edgebench {

// The page's policy: nothing may be fetched, only inline code runs.
inline constexpr const char* kReportContentSecurityPolicy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

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
