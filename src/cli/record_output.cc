#include "cli/record_output.h"

#include <iostream>

namespace edgebench {

Result<RecordOutput> RecordOutput::Open(std::unique_ptr<RecordPrinter> printer, const std::string& out_dir) {
  RecordOutput output;
  output.printer_ = std::move(printer);
  if (!out_dir.empty()) {
    auto store = ResultStore::Open(out_dir);
    if (!store.ok()) return store.status();
    output.store_ = store.take();
  }
  return output;
}

bool RecordOutput::Emit(const Record& record, const std::string& command) {
  bool stored = true;
  if (store_) {
    if (Status s = store_->Append(record); !s.ok()) {
      std::cerr << "edgebench " << command << ": " << s.message() << "\n";
      stored = false;
      ++failed_;
    } else {
      ++stored_;
    }
  }
  printer_->Print(record);
  return stored;
}

void RecordOutput::End() {
  printer_->End();
  if (!store_) return;
  std::cerr << "edgebench: " << stored_ << (stored_ == 1 ? " record" : " records") << " appended to "
            << store_->path();
  if (failed_ > 0) std::cerr << "; " << failed_ << " could not be stored (see above)";
  std::cerr << "\n";
}

}  // namespace edgebench
