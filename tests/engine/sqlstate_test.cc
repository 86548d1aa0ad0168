// Classify() sorts database failures for the retry loop: what the engine's
// connections throw (engine/detail/pg_rows.h, DatabaseError) by SQLSTATE,
// and a lost connection as unavailable.
#include "engine/detail/sqlstate.h"

#include <catch2/catch.hpp>
#include <stdexcept>

#include "engine/detail/pg_rows.h"

namespace idres::detail {
namespace {

DatabaseError State(const char* sqlstate) { return DatabaseError("x", sqlstate, false); }

TEST_CASE("class 40 failures are transient", "[engine]") {
  CHECK(Classify(State("40P01")) == Failure::kDeadlock);
  CHECK(Classify(State("40001")) == Failure::kSerialization);
  CHECK(IsTransient(Failure::kDeadlock));
  CHECK(IsTransient(Failure::kSerialization));
}

TEST_CASE("other failures are sorted by what the caller can do", "[engine]") {
  CHECK(Classify(State("55P03")) == Failure::kBusy);
  CHECK(Classify(State("23505")) == Failure::kUniqueViolation);
  CHECK(Classify(State("57014")) == Failure::kCanceled);
  CHECK(Classify(State("08006")) == Failure::kUnavailable);
  CHECK(Classify(State("57P01")) == Failure::kUnavailable);
  CHECK(Classify(DatabaseError("gone", "", true)) == Failure::kUnavailable);
  CHECK(Classify(State("42P01")) == Failure::kOther);
  CHECK(Classify(std::runtime_error("not the database's")) == Failure::kOther);
  CHECK_FALSE(IsTransient(Failure::kUnavailable));
}

}  // namespace
}  // namespace idres::detail
