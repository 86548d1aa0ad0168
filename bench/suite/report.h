// The suite's output: a table on stdout, a JSON file, and a chart of
// throughput against clients (an SVG drawn by gnuplot).
// Functions of finished results; call them from one thread.
#pragma once

#include <ostream>
#include <string>

#include "bench/suite/results.h"

namespace idres::bench {

// Every run, the wire counts, the ratios, the goals and any failure, as
// fixed-width text.
void PrintReport(std::ostream& out, const SuiteResults& results);

// The same as JSON (`meta` is merged in at the top level as "meta").
void WriteJson(const std::string& path, const SuiteResults& results, const std::string& meta_json);

// Writes `svg_path` (throughput vs clients, one panel per scenario) with
// gnuplot; the script is kept beside it (.gp). Returns an error text, or ""
// on success.
std::string WriteChart(const std::string& svg_path, const SuiteResults& results);

}  // namespace idres::bench
