#include "engine/timestamp.h"

#include <catch2/catch.hpp>

namespace idres {
namespace {

TEST_CASE("a time formats as RFC 3339 in UTC with six fractional digits", "[engine]") {
  CHECK(FormatRfc3339(FromMicros(0)) == "1970-01-01T00:00:00.000000Z");
  CHECK(FormatRfc3339(FromMicros(1767323045123456)) == "2026-01-02T03:04:05.123456Z");
  CHECK(FormatRfc3339(FromMicros(1767323046000000)) == "2026-01-02T03:04:06.000000Z");
  // A leap day, the last microsecond of a year, and a time before 1970.
  CHECK(FormatRfc3339(FromMicros(951782400000001)) == "2000-02-29T00:00:00.000001Z");
  CHECK(FormatRfc3339(FromMicros(1704067199999999)) == "2023-12-31T23:59:59.999999Z");
  CHECK(FormatRfc3339(FromMicros(-1)) == "1969-12-31T23:59:59.999999Z");
}

}  // namespace
}  // namespace idres
