#include "record/start_record.h"

namespace edgebench {

nlohmann::json StartRecordToJson(const StartRecord& start) {
  nlohmann::json j = {{"mode", start.mode}};
  if (!start.drop) return j;
  nlohmann::json files = nlohmann::json::array();
  for (const PageCacheFile& f : start.drop->files) {
    files.push_back({{"path", f.path}, {"bytes", f.bytes}, {"pages", f.pages}, {"resident_before", f.resident_before},
                     {"resident_after", f.resident_after}, {"error", f.error}});
  }
  j["page_cache"] = {{"dropped", start.drop->dropped}, {"detail", start.drop->detail},
                     {"page_bytes", start.drop->page_bytes}, {"files", files}};
  return j;
}

Result<StartRecord> StartRecordFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("mode") || !j.at("mode").is_string()) return Status::Error("start: no mode");
  StartRecord start;
  start.mode = j.at("mode").get<std::string>();
  if (start.mode != "cold" && start.mode != "warm") return Status::Error("start: unknown mode '" + start.mode + "'");
  if (!j.contains("page_cache")) return start;
  const nlohmann::json& p = j.at("page_cache");
  PageCacheDrop drop;
  drop.dropped = p.value("dropped", false);
  drop.detail = p.value("detail", "");
  drop.page_bytes = p.value("page_bytes", int64_t{0});
  for (const nlohmann::json& f : p.value("files", nlohmann::json::array())) {
    PageCacheFile file;
    file.path = f.value("path", "");
    file.bytes = f.value("bytes", int64_t{0});
    file.pages = f.value("pages", int64_t{0});
    file.resident_before = f.value("resident_before", int64_t{-1});
    file.resident_after = f.value("resident_after", int64_t{-1});
    file.error = f.value("error", "");
    drop.files.push_back(file);
  }
  start.drop = drop;
  return start;
}

std::string ColdStartProblem(const StartRecord& start) {
  if (start.mode != "cold") return "";
  if (!start.drop) return "--start cold: the model's files were not dropped from the page cache";
  if (start.drop->dropped) return "";
  return "--start cold, but the model was not out of the page cache when it loaded: " + start.drop->detail;
}

}  // namespace edgebench
