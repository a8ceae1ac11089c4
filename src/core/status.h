// Status and Result<T>: errors as values, with a message written for people.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace edgebench {

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !message_.has_value(); }
  const std::string& message() const {
    static const std::string kEmpty;
    return message_ ? *message_ : kEmpty;
  }

 private:
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
};

template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status error) : value_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(value_); }
  T& value() { return std::get<T>(value_); }
  const T& value() const { return std::get<T>(value_); }
  T take() { return std::move(std::get<T>(value_)); }
  const std::string& error() const { return std::get<Status>(value_).message(); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(value_); }

 private:
  std::variant<T, Status> value_;
};

}  // namespace edgebench
