// The one place where database failures become engine errors
// (engine/errors.h). Internal to engine/.
//
// Classify() sorts any exception thrown while talking to PostgreSQL into a
// Failure; the retry loop decides on it, and ThrowEngineError() turns what
// is left into the typed hierarchy callers see. Thread-safe (pure).
#pragma once

#include <exception>
#include <string_view>

namespace idres::detail {

enum class Failure {
  kBusy,             // 55P03 lock_not_available: lock_timeout expired
  kDeadlock,         // 40P01: retried
  kSerialization,    // 40001: retried
  kUniqueViolation,  // 23505: retried, the conflicting row now exists
  kCanceled,         // 57014 query_canceled: statement_timeout (a deadline) or a cancel
  kUnavailable,      // connection lost, server shutting down, commit in doubt
  kOther,            // a bug: anything else
};

Failure Classify(const std::exception& e);

// Whether the whole transaction should simply be run again.
bool IsTransient(Failure f);

// The observer's retry reason for a transient failure.
std::string_view RetryReason(Failure f);

// Throws the EngineError for `f`; `e` supplies detail for logs, never SQL.
[[noreturn]] void ThrowEngineError(Failure f, const std::exception& e);

}  // namespace idres::detail
