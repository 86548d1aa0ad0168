#include "bench/suite/ratios.h"

#include <fmt/format.h>

#include <set>

#include "bench/suite/goals.h"

namespace idres::bench {
namespace {

std::vector<RatioRow> ScenarioRows(const std::vector<RunResult>& runs) {
  std::set<std::pair<std::string, int>> keys;
  for (const RunResult& r : runs) {
    if (r.section == "scenario" && r.variant == "idres") keys.insert({r.scenario, r.clients});
  }
  std::vector<RatioRow> rows;
  for (const auto& [s, c] : keys) {
    const auto* in = FindRun(runs, "scenario", s, "idres", "in-process", c);
    const auto* http = FindRun(runs, "scenario", s, "idres", "http", c);
    const auto* grpc = FindRun(runs, "scenario", s, "idres", "grpc", c);
    const auto* grpc_1conn = FindRun(runs, "scenario", s, "idres", "grpc-1conn", c);
    const auto* pgb = FindRun(runs, "scenario", s, "pgbench", "sql", c);
    const auto* naive = FindRun(runs, "scenario", s, "naive", "in-process", c);
    rows.push_back({"scenario",
                    s,
                    "",
                    c,
                    {{"in-proc/pgbench", Ratio(in, pgb)},
                     {"http/pgbench", Ratio(http, pgb)},
                     {"in-proc/naive", Ratio(in, naive)},
                     {"http/naive", Ratio(http, naive)},
                     {"http/in-proc", Ratio(http, in)},
                     {"grpc/http", Ratio(grpc, http)},
                     {"grpc-1conn/http", Ratio(grpc_1conn, http)}}});
  }
  return rows;
}

std::vector<RatioRow> ImportRows(const std::vector<RunResult>& runs) {
  const RunResult* copy = FindRun(runs, "import", "e", "copy", "sql", 1);
  std::vector<RatioRow> rows;
  for (const RunResult& r : runs) {
    if (r.section != "import" || r.variant != "idres") continue;
    const auto* naive = FindRun(runs, "import", "e", "naive", r.transport, r.clients);
    const auto* batch = FindRun(runs, "import", "e", "idres", "http", r.clients);
    rows.push_back({"import",
                    "e",
                    r.transport,
                    r.clients,
                    {{"idres/naive", Ratio(&r, naive)},
                     {"idres/COPY", Ratio(&r, copy)},
                     {"idres/BatchUpsert", Ratio(&r, batch)}}});
  }
  return rows;
}

std::string Cell(const std::optional<double>& v, int width) {
  return v ? fmt::format("{:>{}.2f}", *v, width) : fmt::format("{:>{}}", "-", width);
}

// One table: a header of the ratio names, then a line per row of `section`.
void Table(std::ostream& out, const std::vector<RatioRow>& rows, const std::string& section,
           const std::string& title) {
  bool header = false;
  for (const RatioRow& row : rows) {
    if (row.section != section) continue;
    if (!header) {
      out << "\n== " << title << "\n" << (section == "import" ? "transport   cli" : "sc  cli");
      for (const auto& [name, v] : row.ratios) out << "  " << name;
      out << "\n";
      header = true;
    }
    out << (section == "import" ? fmt::format("{:<10} {:>4}", row.transport, row.clients)
                                : fmt::format("{:<3} {:>3}", row.scenario, row.clients));
    for (const auto& [name, v] : row.ratios) {
      out << "  " << Cell(v, static_cast<int>(name.size()));
    }
    out << "\n";
  }
}

}  // namespace

std::vector<RatioRow> ComputeRatios(const std::vector<RunResult>& runs) {
  std::vector<RatioRow> rows = ScenarioRows(runs);
  for (RatioRow& row : ImportRows(runs)) rows.push_back(std::move(row));
  return rows;
}

void PrintRatios(std::ostream& out, const std::vector<RatioRow>& rows) {
  Table(out, rows, "scenario", "Ratios (throughput)");
  Table(out, rows, "import", "Import ratios (records per second)");
}

}  // namespace idres::bench
