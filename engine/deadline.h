// Deadline: the moment a caller stops waiting for an answer (for the RPC
// service, the request's Connect-Timeout-Ms). The engine checks it before
// each attempt, while waiting for a connection and before each round trip,
// and caps each statement by what was left of it when the transaction began
// (lock_timeout and statement_timeout), so a caller that has given up does
// not keep locks and connections busy. A call that runs out of time throws
// DeadlineError (engine/errors.h) and its transaction rolls back; one that
// committed before the deadline answers, however late the answer arrives.
// No deadline (the default) never expires.
//
// A plain value; thread-safe to copy and read.
#pragma once

#include <chrono>
#include <optional>

namespace idres {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  // Never expires.
  Deadline() = default;
  // Expires at `at`.
  static Deadline At(Clock::time_point at) { return Deadline(at); }
  // Expires `timeout` from now.
  static Deadline After(std::chrono::milliseconds timeout) { return At(Clock::now() + timeout); }

  bool IsSet() const { return at_.has_value(); }
  bool Passed() const { return at_ && Clock::now() >= *at_; }
  // Whole milliseconds left, rounded up (0 once passed); nullopt when unset.
  std::optional<std::chrono::milliseconds> Remaining() const;
  std::optional<Clock::time_point> at() const { return at_; }

 private:
  explicit Deadline(Clock::time_point at) : at_(at) {}
  std::optional<Clock::time_point> at_;
};

inline std::optional<std::chrono::milliseconds> Deadline::Remaining() const {
  if (!at_) return std::nullopt;
  const auto left = *at_ - Clock::now();
  if (left <= Clock::duration::zero()) return std::chrono::milliseconds(0);
  return std::chrono::ceil<std::chrono::milliseconds>(left);
}

}  // namespace idres
