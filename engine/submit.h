// What Engine::Submit (engine/engine.h) answers with: the outcome of one
// upsert, handed to a callback instead of returned, so that no caller's
// thread waits for the database (the RPC service's network threads hand a
// record over and go on serving; api/connect/session.cc posts the answer back to
// the connection's strand).
#pragma once

#include <exception>
#include <functional>

#include "engine/record.h"

namespace idres {

// What an upsert came to: `result`, or `error` (an exception of the kinds
// Engine::Upsert throws, engine/errors.h) when it is set.
struct UpsertOutcome {
  UpsertResult result;
  std::exception_ptr error;
};

// Receives an outcome; must not throw, and should return quickly (it runs on
// a thread that applies upserts).
using UpsertCallback = std::function<void(UpsertOutcome)>;

}  // namespace idres
