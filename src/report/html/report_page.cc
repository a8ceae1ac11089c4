#include "report/html/report_page.h"

#include "core/sha256.h"
#include "core/tensor_json.h"
#include "core/version.h"
#include "report/html/chart_library.h"
#include "report/html/embedded_file.h"

// EDGEBENCH_REPORT_JS, EDGEBENCH_REPORT_DECISIONS_JS, EDGEBENCH_REPORT_STAGES_JS, EDGEBENCH_REPORT_MIXES_JS, EDGEBENCH_REPORT_CONFORMANCE_JS and EDGEBENCH_REPORT_CSS: the files' paths in the source tree (see
// CMakeLists.txt, which rebuilds this file when they change).
EDGEBENCH_EMBED(edgebench_report_js, EDGEBENCH_REPORT_JS);
EDGEBENCH_EMBED(edgebench_report_decisions_js, EDGEBENCH_REPORT_DECISIONS_JS);
EDGEBENCH_EMBED(edgebench_report_stages_js, EDGEBENCH_REPORT_STAGES_JS);
EDGEBENCH_EMBED(edgebench_report_mixes_js, EDGEBENCH_REPORT_MIXES_JS);
EDGEBENCH_EMBED(edgebench_report_conformance_js, EDGEBENCH_REPORT_CONFORMANCE_JS);
EDGEBENCH_EMBED(edgebench_report_css, EDGEBENCH_REPORT_CSS);
EDGEBENCH_EMBEDDED_EXTERN(edgebench_report_js);
EDGEBENCH_EMBEDDED_EXTERN(edgebench_report_decisions_js);
EDGEBENCH_EMBEDDED_EXTERN(edgebench_report_stages_js);
EDGEBENCH_EMBEDDED_EXTERN(edgebench_report_mixes_js);
EDGEBENCH_EMBEDDED_EXTERN(edgebench_report_conformance_js);
EDGEBENCH_EMBEDDED_EXTERN(edgebench_report_css);

namespace edgebench {

std::string_view ReportScript() {
  return EmbeddedBytes(edgebench_report_js_begin, edgebench_report_js_end);
}

std::string_view ReportStyle() {
  return EmbeddedBytes(edgebench_report_css_begin, edgebench_report_css_end);
}

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string JsonForScriptElement(const nlohmann::json& data) {
  // Invalid UTF-8 in a record (a runtime's message) is replaced rather than failing the report.
  const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 64);
  for (char c : text) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

std::string ScriptHashSource(std::string_view script) {
  const std::string hex = Sha256Hex(script);
  std::vector<std::byte> digest;
  digest.reserve(hex.size() / 2);
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    digest.push_back(static_cast<std::byte>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return "'sha256-" + Base64Encode(digest) + "'";
}

std::string ReportContentSecurityPolicy(const std::vector<std::string_view>& scripts) {
  std::string policy = "default-src 'none'; script-src";
  for (std::string_view script : scripts) policy += " " + ScriptHashSource(script);
  policy += "; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
  return policy;
}

std::string RenderReportPage(const nlohmann::json& data) {
  const std::string title = data.value("title", std::string("edgebench report"));
  std::string page;
  const std::string_view library = ChartLibraryJs();
  page.reserve(library.size() + 200000);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Each script's body exactly as the page holds it: the policy names them by hash.
  const std::string library_body = "\n" + std::string(library) + "\n";
  const std::string decisions_body =
      "\n" +
      std::string(EmbeddedBytes(edgebench_report_decisions_js_begin, edgebench_report_decisions_js_end)) +
      "\n";
  const std::string stages_body =
      "\n" + std::string(EmbeddedBytes(edgebench_report_stages_js_begin, edgebench_report_stages_js_end)) + "\n";
  const std::string mixes_body =
      "\n" + std::string(EmbeddedBytes(edgebench_report_mixes_js_begin, edgebench_report_mixes_js_end)) + "\n";
  const std::string conformance_body =
      "\n" +
      std::string(EmbeddedBytes(edgebench_report_conformance_js_begin, edgebench_report_conformance_js_end)) + "\n";
  const std::string renderer_body = "\n" + std::string(ReportScript()) + "\n";
  page += "<meta http-equiv=\"Content-Security-Policy\" content=\"";
  page += HtmlEscape(ReportContentSecurityPolicy(
      {library_body, decisions_body, stages_body, mixes_body, conformance_body, renderer_body}));
  page += "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<meta name=\"generator\" content=\"edgebench " + std::string(kEdgebenchVersion) +
          "\">\n";
  page += "<title>" + HtmlEscape(title) + "</title>\n<style>\n";
  page += ReportStyle();
  page += "</style>\n</head>\n<body>\n<header class=\"page-header\"><h1>" + HtmlEscape(title) +
          "</h1>";
  page += "<p class=\"generated\" id=\"generated\"></p></header>\n";
  page += "<nav id=\"toc\" class=\"toc\"></nav>\n<main id=\"report\"></main>\n";
  page += "<noscript><p class=\"error-box\">This report draws its tables and charts with "
          "JavaScript, which is off in this browser.</p></noscript>\n";
  page += "<script type=\"application/json\" id=\"report-data\">";
  page += JsonForScriptElement(data);
  page += "</script>\n";
  page += "<script id=\"chart-library\" data-name=\"" + HtmlEscape(ChartLibraryName()) +
          "\" data-sha256=\"" + HtmlEscape(ChartLibrarySha256()) + "\">";
  page += library_body;
  page += "</script>\n<script id=\"report-decisions\">";
  page += decisions_body;
  page += "</script>\n<script id=\"report-stages\">";
  page += stages_body;
  page += "</script>\n<script id=\"report-mixes\">";
  page += mixes_body;
  page += "</script>\n<script id=\"report-conformance\">";
  page += conformance_body;
  page += "</script>\n<script id=\"report-renderer\">";
  page += renderer_body;
  page += "</script>\n<footer class=\"page-footer\">\n<p>Drawn with " +
          HtmlEscape(ChartLibraryName()) +
          " (Apache-2.0), inlined from its npm package, sha256 <code>" +
          HtmlEscape(ChartLibrarySha256()) +
          "</code>. Nothing in this page is fetched from a network.</p>\n";
  page += "<details class=\"license\"><summary>Chart library licence</summary><pre>" +
          HtmlEscape(ChartLibraryLicense()) + "</pre></details>\n</footer>\n</body>\n</html>\n";
  return page;
}

}  // namespace edgebench
