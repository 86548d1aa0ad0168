// Scenario (f): normalization alone, no database: `threads` threads
// normalizing messy identifiers (an email with a tag and capitals, a
// national-format phone, an accented name, a date, a spaced postal code) with
// one shared Normalizer for `seconds`. Throughput is identifiers per second;
// per core divides by min(threads, cores).
// Thread-safety: a blocking run.
#pragma once

#include "bench/suite/results.h"

namespace idres::bench {

RunResult RunNormalization(int threads, double seconds);

}  // namespace idres::bench
