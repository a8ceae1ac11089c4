// Which records of BASE and NEW are the same case (`edgebench compare`): the match key (the case
// key, or the --by fields; with the host too when a store holds several hosts), the records of a
// store grouped by it, and the one record of a group that is compared.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "record/record.h"

namespace edgebench {

// The record fields --by may pair cases on, instead of the case key.
inline const std::vector<std::string> kCompareMatchFields = {"model",  "variant", "artifact", "backend",
                                                             "device", "target",  "scenario", "host"};

// The value of a --by field of a record ("host": its fleet name, else its hostname).
std::string FieldValue(const Record& record, const std::string& field);

// With `by_host` (either store holds several hosts: a fleet's merged store), a case is a case on
// one host: its key names the host too, so host A's record is never paired with host B's.
std::string MatchKey(const Record& record, const std::vector<std::string>& by, bool by_host);

// The records of one store grouped by match key, keys in the order they first appear.
struct CaseGroups {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Record*>> records;
};
CaseGroups GroupCases(const std::vector<Record>& records, const std::vector<std::string>& by, bool by_host);

// The record compared from a group: the last measured one, else the last (a note says which
// when there are several). `ambiguous` is set, for people, when the group holds several cases
// (different keys, possible with --by).
const Record* PickCompared(const std::vector<const Record*>& group, const std::string& side,
                           std::vector<std::string>& notes, std::string& ambiguous);

// Whether the records come from more than one host.
bool HoldsSeveralHosts(const std::vector<Record>& records);

}  // namespace edgebench
