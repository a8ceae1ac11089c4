// The record's `monitor` section in JSON (docs/records.md, "monitor").
#pragma once

#include <nlohmann/json.hpp>

#include "record/monitor_record.h"

namespace edgebench {

nlohmann::json MonitorRecordToJson(const MonitorRecord& m);
// Throws nlohmann::json exceptions on a malformed section (the record reader reports them).
MonitorRecord MonitorRecordFromJson(const nlohmann::json& j);

nlohmann::json MonitorSettingsToJson(const MonitorSettings& s);
MonitorSettings MonitorSettingsFromJson(const nlohmann::json& j);

nlohmann::json ChannelToJson(const Channel& c);
nlohmann::json ReaderStatusToJson(const ReaderStatus& r);

}  // namespace edgebench
