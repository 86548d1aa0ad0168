// HeldKey: an open transaction on a connection of its own holding the
// advisory lock key of (type, value), as an upsert of that identifier would
// take it, released when it goes out of scope: the tests' held lock.
// Test-only; one thread per object.
#pragma once

#include <pqxx/pqxx>

#include <string>

#include "normalize/lock_key.h"
#include "tests/support/test_db.h"

namespace idres::testing {

class HeldKey {
 public:
  HeldKey(const TestDatabase& db, const char* type, const char* value)
      : conn_(db.url()), tx_(conn_) {
    tx_.exec("SELECT pg_advisory_xact_lock(" + std::to_string(LockKey(type, value)) + ")");
  }

 private:
  pqxx::connection conn_;
  pqxx::work tx_;
};

}  // namespace idres::testing
