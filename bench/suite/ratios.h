// The side-by-side ratios of one run of the suite: for every scenario
// (a)-(d) and client count, idres in-process and over HTTP against pgbench
// on the same SQL shape and against the naive path (locks off); for the
// import (e), idres against its naive path and against COPY.
// Functions of finished results; call them from one thread.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "bench/suite/results.h"

namespace idres::bench {

struct RatioRow {
  std::string section;    // "scenario" or "import"
  std::string scenario;   // "a" .. "e"
  std::string transport;  // import rows: the idres side's transport
  int clients = 0;
  // (name, throughput ratio) in print order, e.g. ("in-proc/naive", 0.83);
  // nullopt where a side did not run.
  std::vector<std::pair<std::string, std::optional<double>>> ratios;
};

// Every ratio row the runs allow, scenarios first.
std::vector<RatioRow> ComputeRatios(const std::vector<RunResult>& runs);

// Prints the ratio tables ("-" where a side did not run).
void PrintRatios(std::ostream& out, const std::vector<RatioRow>& rows);

}  // namespace idres::bench
