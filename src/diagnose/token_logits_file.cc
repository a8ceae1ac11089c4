#include "diagnose/token_logits_file.h"

#include <cstring>
#include <filesystem>

namespace edgebench {
namespace {

constexpr char kMagic[8] = {'E', 'B', 'T', 'O', 'K', 'L', 'O', 'G'};
constexpr uint32_t kVersion = 1;
// Far above any real vocabulary or prompt; keeps a corrupt header from asking for terabytes.
constexpr uint32_t kMaxVocab = 1u << 24;
constexpr uint32_t kMaxPrompts = 1u << 20;
constexpr uint32_t kMaxTokensPerPrompt = 1u << 24;
constexpr uint32_t kMaxModelLength = 1u << 16;

void PutU32(std::ofstream& out, uint32_t v) { out.write(reinterpret_cast<const char*>(&v), sizeof v); }

bool GetU32(std::ifstream& in, uint32_t& v) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&v), sizeof v));
}

uint64_t HeaderBytes(const TokenLogitsHeader& h) {
  uint64_t tokens = 0;
  for (const auto& p : h.prompts) tokens += p.size();
  return sizeof kMagic + 4 * 4 + h.model.size() + 4 * h.prompts.size() + 4 * tokens;
}

}  // namespace

uint64_t TokenLogitsFileSize(const TokenLogitsHeader& h) {
  uint64_t tokens = 0;
  for (const auto& p : h.prompts) tokens += p.size();
  return HeaderBytes(h) + tokens * static_cast<uint64_t>(h.vocab_size) * sizeof(float);
}

Result<TokenLogitsWriter> TokenLogitsWriter::Create(const std::string& path, TokenLogitsHeader header) {
  if (header.vocab_size <= 0) return Status::Error("a token logits file needs a vocabulary size above 0");
  TokenLogitsWriter w;
  w.path_ = path;
  w.out_.open(path, std::ios::binary | std::ios::trunc);
  if (!w.out_) return Status::Error("cannot create the reference logits file '" + path + "'");
  w.out_.write(kMagic, sizeof kMagic);
  PutU32(w.out_, kVersion);
  PutU32(w.out_, static_cast<uint32_t>(header.vocab_size));
  PutU32(w.out_, static_cast<uint32_t>(header.prompts.size()));
  PutU32(w.out_, static_cast<uint32_t>(header.model.size()));
  w.out_.write(header.model.data(), static_cast<std::streamsize>(header.model.size()));
  for (const auto& p : header.prompts) PutU32(w.out_, static_cast<uint32_t>(p.size()));
  for (const auto& p : header.prompts) {
    w.out_.write(reinterpret_cast<const char*>(p.data()), static_cast<std::streamsize>(p.size() * sizeof(int32_t)));
  }
  if (!w.out_) return Status::Error("cannot write the header of the reference logits file '" + path + "'");
  w.header_ = std::move(header);
  return w;
}

Status TokenLogitsWriter::WritePrompt(std::span<const float> logits) {
  if (written_ >= header_.prompts.size()) {
    return Status::Error("the reference logits file '" + path_ + "' was made for " +
                         std::to_string(header_.prompts.size()) + " prompts; one more was written");
  }
  const uint64_t expected = header_.prompts[written_].size() * static_cast<uint64_t>(header_.vocab_size);
  if (logits.size() != expected) {
    return Status::Error("prompt " + std::to_string(written_) + " has " + std::to_string(logits.size()) +
                         " logits, expected " + std::to_string(expected) + " (tokens x vocabulary)");
  }
  out_.write(reinterpret_cast<const char*>(logits.data()), static_cast<std::streamsize>(logits.size_bytes()));
  if (!out_) return Status::Error("cannot write to the reference logits file '" + path_ + "' (is the disk full?)");
  ++written_;
  return Status::Ok();
}

Status TokenLogitsWriter::Finish() {
  if (written_ != header_.prompts.size()) {
    return Status::Error("the reference logits file '" + path_ + "' has " + std::to_string(written_) + " of its " +
                         std::to_string(header_.prompts.size()) + " prompts");
  }
  out_.close();
  if (!out_) return Status::Error("cannot finish the reference logits file '" + path_ + "' (is the disk full?)");
  return Status::Ok();
}

Result<TokenLogitsReader> TokenLogitsReader::Open(const std::string& path) {
  TokenLogitsReader r;
  r.path_ = path;
  r.in_.open(path, std::ios::binary);
  if (!r.in_) return Status::Error("cannot open the reference logits file '" + path + "'");
  const std::string not_one = "'" + path + "' is not a reference logits file of this edgebench: ";
  char magic[sizeof kMagic];
  if (!r.in_.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0) {
    return Status::Error(not_one + "it does not start with EBTOKLOG");
  }
  uint32_t version = 0, vocab = 0, prompts = 0, model_length = 0;
  if (!GetU32(r.in_, version) || !GetU32(r.in_, vocab) || !GetU32(r.in_, prompts) || !GetU32(r.in_, model_length)) {
    return Status::Error(not_one + "its header is cut short");
  }
  if (version != kVersion) {
    return Status::Error(not_one + "version " + std::to_string(version) + ", this edgebench reads version " +
                         std::to_string(kVersion));
  }
  if (vocab == 0 || vocab > kMaxVocab || prompts > kMaxPrompts || model_length > kMaxModelLength) {
    return Status::Error(not_one + "its header gives a vocabulary of " + std::to_string(vocab) + ", " +
                         std::to_string(prompts) + " prompts and a model name of " + std::to_string(model_length) +
                         " bytes");
  }
  r.header_.vocab_size = static_cast<int32_t>(vocab);
  r.header_.model.resize(model_length);
  r.in_.read(r.header_.model.data(), model_length);
  std::vector<uint32_t> counts(prompts);
  for (uint32_t& c : counts) {
    if (!GetU32(r.in_, c)) return Status::Error(not_one + "its token counts are cut short");
    if (c > kMaxTokensPerPrompt) return Status::Error(not_one + "a prompt of " + std::to_string(c) + " tokens");
  }
  r.header_.prompts.resize(prompts);
  for (uint32_t i = 0; i < prompts; ++i) {
    auto& tokens = r.header_.prompts[i];
    tokens.resize(counts[i]);
    if (!r.in_.read(reinterpret_cast<char*>(tokens.data()), static_cast<std::streamsize>(counts[i] * 4))) {
      return Status::Error(not_one + "its tokens are cut short");
    }
  }
  std::error_code ec;
  const uint64_t actual = std::filesystem::file_size(path, ec);
  const uint64_t expected = TokenLogitsFileSize(r.header_);
  if (ec || actual != expected) {
    return Status::Error("the reference logits file '" + path + "' has " + std::to_string(actual) +
                         " bytes, but its header says " + std::to_string(expected) +
                         " (cut short or overwritten); make it again");
  }
  uint64_t offset = HeaderBytes(r.header_);
  for (const auto& p : r.header_.prompts) {
    r.logits_offsets_.push_back(offset);
    offset += p.size() * static_cast<uint64_t>(vocab) * sizeof(float);
  }
  return r;
}

Result<std::vector<float>> TokenLogitsReader::ReadPrompt(size_t index) {
  if (index >= header_.prompts.size()) {
    return Status::Error("prompt " + std::to_string(index) + " is not in '" + path_ + "' (" +
                         std::to_string(header_.prompts.size()) + " prompts)");
  }
  std::vector<float> logits(header_.prompts[index].size() * static_cast<size_t>(header_.vocab_size));
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(logits_offsets_[index]));
  if (!in_.read(reinterpret_cast<char*>(logits.data()), static_cast<std::streamsize>(logits.size() * sizeof(float)))) {
    return Status::Error("cannot read prompt " + std::to_string(index) + "'s logits from '" + path_ + "'");
  }
  return logits;
}

}  // namespace edgebench
