// Limits: how much one request may ask of the server. Plain value.
#pragma once

#include <cstddef>

namespace idres::api {

struct Limits {
  // Largest request body; bigger ones are refused (resource_exhausted)
  // before they are read whole.
  std::size_t max_body_bytes = 1 << 20;
  // Most identifiers in one record (resource_exhausted above).
  std::size_t max_identifiers = 100;
  // Most traits in one record (resource_exhausted above).
  std::size_t max_traits = 100;
  // Most records in one BatchUpsert (resource_exhausted above).
  std::size_t max_batch = 1000;
};

}  // namespace idres::api
