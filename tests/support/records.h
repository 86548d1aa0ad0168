// Records the tests build again and again. Header-only.
#pragma once

#include <string>

#include "engine/record.h"

namespace idres::testing {

// A record holding one email and nothing else.
inline Record EmailRecord(const std::string& email) {
  Record record;
  record.identifiers = {{"email", email}};
  return record;
}

}  // namespace idres::testing
