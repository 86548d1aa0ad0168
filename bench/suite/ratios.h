// The side-by-side ratios of one run of the suite, as text: for every
// scenario (a)-(d) and client count, idres in-process and over HTTP against
// pgbench on the same SQL shape and against the naive path (locks off);
// for the import (e), idres against its naive path and against COPY.
// A function of finished results; call it from one thread.
#pragma once

#include <ostream>

#include "bench/suite/results.h"

namespace idres::bench {

// Prints the ratio tables ("-" where a side did not run).
void PrintRatios(std::ostream& out, const SuiteResults& results);

}  // namespace idres::bench
