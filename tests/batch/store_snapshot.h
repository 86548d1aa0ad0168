// What a test compares between two stores: each live person as its sorted
// identifiers (and, optionally, its traits), the persons sorted, ids left
// out (ids depend on timing and order, the identity graph does not).
#pragma once

#include <string>
#include <vector>

#include "tests/support/test_db.h"

namespace idres::testing {

inline std::vector<std::string> PersonsByIdentifiers(const TestDatabase& db, bool with_traits) {
  std::vector<std::string> persons;
  std::string sql =
      "SELECT string_agg(i.type || ':' || i.value, '|' ORDER BY i.type, i.value)" +
      std::string(with_traits ? " || ' ' || p.traits::text" : "") +
      " FROM persons p JOIN identifiers i ON i.person_id = p.id GROUP BY p.id ORDER BY 1";
  for (const auto& row : db.Rows(sql)) persons.push_back(row.at(0));
  return persons;
}

}  // namespace idres::testing
