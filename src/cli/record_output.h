// Where a command's records go: a printer on stdout and, with --out, the results store. Each
// record is stored (fsynced) before it is printed, so a kill loses nothing already measured.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "report/printers.h"
#include "report/store.h"

namespace edgebench {

class RecordOutput {
 public:
  // `printer` is made by the caller (MakePrinter); `out_dir` may be empty.
  static Result<RecordOutput> Open(std::unique_ptr<RecordPrinter> printer, const std::string& out_dir);
  void Begin() { printer_->Begin(); }
  // Prints a record without storing it (a resumed plan's record from the store).
  void PrintOnly(const Record& record) { printer_->Print(record); }
  // Stores and prints one record; false when it could not be stored (said on stderr).
  bool Emit(const Record& record, const std::string& command);
  // Ends the printout and says where the records went.
  void End();

 private:
  std::unique_ptr<RecordPrinter> printer_;
  std::optional<ResultStore> store_;
  int stored_ = 0;
  int failed_ = 0;
};

}  // namespace edgebench
