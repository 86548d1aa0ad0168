#include "bench/suite/ratios.h"

#include <cstdio>
#include <set>
#include <string>
#include <utility>

#include "bench/suite/goals.h"

namespace idres::bench {
namespace {

std::string R(const RunResult* a, const RunResult* b) {
  const auto ratio = Ratio(a, b);
  if (!ratio) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", *ratio);
  return buf;
}

void Scenarios(std::ostream& out, const std::vector<RunResult>& runs) {
  out << "\n== Ratios (throughput)\n"
      << "sc  cli  in-proc/pgbench  http/pgbench  in-proc/naive  http/naive  http/in-proc\n";
  std::set<std::pair<std::string, int>> keys;
  for (const RunResult& r : runs) {
    if (r.section == "scenario" && r.variant == "idres") keys.insert({r.scenario, r.clients});
  }
  for (const auto& [s, c] : keys) {
    const auto* in = FindRun(runs, "scenario", s, "idres", "in-process", c);
    const auto* http = FindRun(runs, "scenario", s, "idres", "http", c);
    const auto* pgb = FindRun(runs, "scenario", s, "pgbench", "sql", c);
    const auto* naive = FindRun(runs, "scenario", s, "naive", "in-process", c);
    char line[256];
    std::snprintf(line, sizeof line, "%-3s %3d  %15s  %12s  %13s  %10s  %12s\n", s.c_str(), c,
                  R(in, pgb).c_str(), R(http, pgb).c_str(), R(in, naive).c_str(),
                  R(http, naive).c_str(), R(http, in).c_str());
    out << line;
  }
}

void Import(std::ostream& out, const std::vector<RunResult>& runs) {
  const RunResult* copy = FindRun(runs, "import", "e", "copy", "sql", 1);
  bool header = false;
  for (const RunResult& r : runs) {
    if (r.section != "import" || r.variant != "idres") continue;
    if (!header) {
      out << "\n== Import ratios (records per second)\n"
          << "transport   cli  idres/naive  idres/COPY\n";
      header = true;
    }
    const auto* naive = FindRun(runs, "import", "e", "naive", r.transport, r.clients);
    char line[128];
    std::snprintf(line, sizeof line, "%-10s %4d  %11s  %10s\n", r.transport.c_str(), r.clients,
                  R(&r, naive).c_str(), R(&r, copy).c_str());
    out << line;
  }
}

}  // namespace

void PrintRatios(std::ostream& out, const SuiteResults& results) {
  Scenarios(out, results.runs);
  Import(out, results.runs);
}

}  // namespace idres::bench
