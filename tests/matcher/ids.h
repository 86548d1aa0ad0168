// Test helper: identifiers from {type, value} literals.
#pragma once

#include <initializer_list>
#include <utility>
#include <vector>

#include "normalize/identifier.h"

namespace idres::testing {

inline std::vector<Identifier> Ids(
    std::initializer_list<std::pair<const char*, const char*>> list) {
  std::vector<Identifier> out;
  for (auto [t, v] : list) out.push_back({t, v});
  return out;
}

}  // namespace idres::testing
