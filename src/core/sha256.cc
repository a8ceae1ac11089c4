#include "core/sha256.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace edgebench {
namespace {

struct DigestContextDeleter {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};
using DigestContext = std::unique_ptr<EVP_MD_CTX, DigestContextDeleter>;

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// One digest in progress. EVP calls fail only when libcrypto itself is broken (no memory, no
// SHA-256 provider), so the failure is a message rather than a code path per call.
class Sha256Digest {
 public:
  Sha256Digest() : context_(EVP_MD_CTX_new()) {
    ok_ = context_ && EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) == 1;
  }
  void Update(const void* data, size_t size) {
    ok_ = ok_ && EVP_DigestUpdate(context_.get(), data, size) == 1;
  }
  Result<std::string> FinalHex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    ok_ = ok_ && EVP_DigestFinal_ex(context_.get(), digest, &size) == 1;
    if (!ok_) return Status::Error("OpenSSL's libcrypto failed to compute a SHA-256 digest");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * size);
    for (unsigned int i = 0; i < size; ++i) {
      hex += kHex[digest[i] >> 4];
      hex += kHex[digest[i] & 0xf];
    }
    return hex;
  }

 private:
  DigestContext context_;
  bool ok_ = false;
};

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  Sha256Digest digest;
  digest.Update(bytes.data(), bytes.size());
  auto hex = digest.FinalHex();
  // Only a broken libcrypto gets here; an empty digest never matches a real one.
  return hex.ok() ? hex.take() : std::string();
}

Result<std::string> Sha256OfFile(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    return Status::Error("cannot hash '" + path + "': " + std::strerror(errno));
  }
  Sha256Digest digest;
  std::vector<char> chunk(1 << 20);
  while (true) {
    const size_t read = std::fread(chunk.data(), 1, chunk.size(), file.get());
    if (read > 0) digest.Update(chunk.data(), read);
    if (read < chunk.size()) {
      if (std::ferror(file.get())) {
        return Status::Error("cannot hash '" + path + "': read failed: " + std::strerror(errno));
      }
      break;
    }
  }
  auto hex = digest.FinalHex();
  if (!hex.ok()) return Status::Error("cannot hash '" + path + "': " + hex.error());
  return hex;
}

}  // namespace edgebench
