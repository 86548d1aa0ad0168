// Infrastructure failures of the engine, mapped from SQLSTATE in one place
// (engine/sqlstate.cc). Bad input is never an exception: it comes back in
// UpsertResult. Callers map these to RPC codes in one place (api/).
#pragma once

#include <stdexcept>
#include <string>

namespace idres {

// Base of all engine failures. what() never carries SQL.
class EngineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // Whether the same call may succeed if simply tried again later.
  virtual bool retryable() const { return false; }
};

// A lock was not granted within lock_timeout (SQLSTATE 55P03). Retryable.
class BusyError : public EngineError {
 public:
  using EngineError::EngineError;
  bool retryable() const override { return true; }
};

// The database cannot be reached or the connection was lost. Retryable; the
// pool replaces the connection.
class UnavailableError : public EngineError {
 public:
  using EngineError::EngineError;
  bool retryable() const override { return true; }
};

// Deadlocks or serialization failures kept coming back after the bounded
// number of transparent retries. Retryable.
class ConflictError : public EngineError {
 public:
  using EngineError::EngineError;
  bool retryable() const override { return true; }
};

// The caller's Deadline (engine/deadline.h) passed before the call finished;
// its transaction rolled back, so that call stored nothing. Not retryable as
// such: the caller decides whether a new call with a new deadline is worth it.
class DeadlineError : public EngineError {
 public:
  using EngineError::EngineError;
};

// MigrateStore (engine/engine.h) cannot bring the store in line: a type the
// model makes exclusive has values that several persons already share, or a
// newer idres has migrated the store past the steps this one knows. Nothing
// was changed. Not retryable: change the model or the data, or run the
// newer binary.
class StoreError : public EngineError {
 public:
  using EngineError::EngineError;
};

// BatchUpsert with a StreamPosition found another position stored for its
// partition than the one it continues from: another consumer applied the
// partition meanwhile. The transaction rolled back; the chunks before it
// stay stored. Not retryable as such: read the stored position again and go
// on from there.
class PositionMovedError : public EngineError {
 public:
  using EngineError::EngineError;
};

// Anything else the database reported (a bug, not the caller's fault).
class InternalError : public EngineError {
 public:
  using EngineError::EngineError;
};

}  // namespace idres
