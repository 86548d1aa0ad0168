// Classify() sorts database failures for the retry loop. libpqxx 6 throws
// class 40 (deadlock, serialization) as transaction_rollback, outside its
// sql_error hierarchy: those must still be retried.
#include "engine/detail/sqlstate.h"

#include <catch2/catch.hpp>
#include <pqxx/except>

namespace idres::detail {
namespace {

TEST_CASE("class 40 failures are transient, however libpqxx throws them", "[engine]") {
  CHECK(Classify(pqxx::deadlock_detected("deadlock detected")) == Failure::kDeadlock);
  CHECK(Classify(pqxx::serialization_failure("could not serialize")) == Failure::kSerialization);
  CHECK(Classify(pqxx::sql_error("x", "q", "40P01")) == Failure::kDeadlock);
  CHECK(IsTransient(Failure::kDeadlock));
  CHECK(IsTransient(Failure::kSerialization));
}

TEST_CASE("other failures are sorted by what the caller can do", "[engine]") {
  CHECK(Classify(pqxx::sql_error("x", "q", "55P03")) == Failure::kBusy);
  CHECK(Classify(pqxx::sql_error("x", "q", "23505")) == Failure::kUniqueViolation);
  CHECK(Classify(pqxx::broken_connection("gone")) == Failure::kUnavailable);
  CHECK(Classify(pqxx::statement_completion_unknown("in doubt")) == Failure::kUnavailable);
  CHECK(Classify(pqxx::sql_error("x", "q", "42P01")) == Failure::kOther);
  CHECK_FALSE(IsTransient(Failure::kUnavailable));
}

}  // namespace
}  // namespace idres::detail
