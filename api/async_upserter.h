// AsyncUpserter: an Upsert that does not hold the caller's thread while it
// waits for the database. The server's network threads hand a decoded
// record over and go on serving; the answer comes back through a callback
// (api/session.cc posts it to the connection's strand). Implemented by
// api/coalescing_backend.h.
//
// Thread-safety: Submit may be called from many threads at once.
#pragma once

#include <exception>
#include <functional>

#include "engine/deadline.h"
#include "engine/record.h"

namespace idres::api {

// What an upsert came to: `result`, or `error` (an exception of the kinds
// IdentityBackend::Upsert throws) when it is set.
struct UpsertOutcome {
  UpsertResult result;
  std::exception_ptr error;
};

// Receives an outcome; must not throw, and should return quickly (it runs on
// a thread that applies upserts).
using UpsertCallback = std::function<void(UpsertOutcome)>;

class AsyncUpserter {
 public:
  virtual ~AsyncUpserter() = default;
  // Applies `record` as IdentityBackend::Upsert would, within `deadline`,
  // and calls `done` exactly once with the outcome, on a thread of the
  // upserter's (never inside Submit).
  virtual void Submit(Record record, const Deadline& deadline, UpsertCallback done) = 0;
};

}  // namespace idres::api
