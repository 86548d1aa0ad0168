// Limits: how much one request may ask of the server, beside the engine's
// limits on a record (RecordLimits, engine/record.h): the transport's own
// (a Connect body, a gRPC message) and the records of one BatchUpsert.
// Plain value.
#pragma once

#include <cstddef>

namespace idres::api {

struct Limits {
  // Largest request body; bigger ones are refused (resource_exhausted)
  // before they are read whole.
  std::size_t max_body_bytes = 1 << 20;
  // Most records in one BatchUpsert (resource_exhausted above).
  std::size_t max_batch = 1000;
};

}  // namespace idres::api
