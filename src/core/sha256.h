// SHA-256 digests as lowercase hex, through OpenSSL's libcrypto (EVP API). Records use them to
// identify what they measured (the model file's bytes) and to key cases for `suite --resume`.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"

namespace edgebench {

// The digest of `bytes`: 64 lowercase hex characters.
std::string Sha256Hex(std::string_view bytes);

// The digest of a file's contents, read in chunks (model files may be gigabytes). The error names
// the file and why it could not be read.
Result<std::string> Sha256OfFile(const std::string& path);

}  // namespace edgebench
