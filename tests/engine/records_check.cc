#include "tests/engine/records_check.h"

namespace idres::testing {
namespace {

// Live persons whose identifiers differ from their records' values, as
// "person: identifiers / records".
constexpr const char* kUnionBroken =
    "WITH held AS (SELECT p.id, COALESCE((SELECT string_agg(type || ':' || value, ' '"
    "  ORDER BY type || ':' || value) FROM identifiers WHERE person_id = p.id), '') AS ids,"
    " COALESCE((SELECT string_agg(pair, ' ' ORDER BY pair) FROM (SELECT DISTINCT t || ':' || v"
    "  AS pair FROM records r, unnest(r.types, r.vals) AS x(t, v) WHERE r.person_id = p.id) d),"
    "  '') AS recs FROM persons p)"
    " SELECT id || ': ' || ids || ' / ' || recs FROM held WHERE ids <> recs ORDER BY id LIMIT 1";

constexpr const char* kWithoutRecord =
    "SELECT p.id FROM persons p WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.person_id = p.id)"
    " ORDER BY p.id LIMIT 1";

}  // namespace

std::string StoreInconsistency(const TestDatabase& db) {
  const auto broken = db.Rows(kUnionBroken);
  if (!broken.empty()) return "identifiers are not the union of the records: " + broken[0][0];
  const auto bare = db.Rows(kWithoutRecord);
  if (!bare.empty()) return "person " + bare[0][0] + " has no record";
  return "";
}

}  // namespace idres::testing
