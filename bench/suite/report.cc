#include "bench/suite/report.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "bench/suite/ratios.h"

namespace idres::bench {
namespace {

std::string Opt(const std::optional<double>& v, int digits) {
  return v ? fmt::format("{:.{}f}", *v, digits) : "-";
}

std::string StoreText(const RunResult& r) {
  if (!r.check.ran) return "-";
  std::string s = r.check.ok ? "ok" : (r.check_must_pass ? "WRONG" : "wrong (data)");
  s += " " + std::to_string(r.check.persons) + "/" + std::to_string(r.check.expected_persons);
  if (r.check.duplicated_values > 0) s += " dup=" + std::to_string(r.check.duplicated_values);
  return s;
}

// Persons created beyond what the records imply: duplicates made, whether
// or not later upserts merged them away.
std::string ExtraCreated(const RunResult& r) {
  if (!r.created || !r.expected_created || *r.created == *r.expected_created) return "";
  return " (" + std::to_string(*r.created - *r.expected_created) +
         " more than the records imply: duplicates made)";
}

void Row(std::ostream& out, const RunResult& r) {
  out << fmt::format(
      "{:<3} {:<8} {:<10} {:>7} {:>4} {:>9.0f} {:>8.2f} {:>8.2f} {:>8.2f} {:>8} {:>6} {:>5} {:>5} "
      "{:>6}  {}\n",
      r.scenario, r.variant, r.transport, r.preload, r.clients, r.throughput, r.p50_ms, r.p95_ms,
      r.p99_ms, Opt(r.lock_wait_ms_per_op, 3), r.retries, Opt(r.commits_per_op, 2),
      Opt(r.rollbacks_per_op, 2), r.errors, StoreText(r));
  // Where the counts say something beyond ops: the naive path's extra
  // persons, the hot people and bridges, and the served process's own view.
  if ((r.created || r.merged) &&
      (r.variant != "idres" || r.transport == "http" || r.scenario == "c" || r.scenario == "d")) {
    out << "      " << (r.transport == "http" ? "served /metrics: " : "")
        << "upserts that created a person: " << r.created.value_or(0) << ExtraCreated(r)
        << ", that merged persons: " << r.merged.value_or(0) << "\n";
  }
  if (!r.tenths.empty()) {
    out << "      records/s by tenth:";
    for (double t : r.tenths) out << fmt::format(" {:.0f}", t);
    out << fmt::format("  (last / first {:.2f})\n", r.tenths.back() / r.tenths.front());
  }
  if (!r.note.empty()) out << "      note: " << r.note << "\n";
  if (!r.first_error.empty()) out << "      first error: " << r.first_error.substr(0, 200) << "\n";
}

void Section(std::ostream& out, const SuiteResults& results, const std::string& section,
             const std::string& title) {
  bool header = false;
  for (const RunResult& r : results.runs) {
    if (r.section != section) continue;
    if (!header) {
      out << "\n== " << title << "\n"
          << "sc  variant  transport  preload  cli     ops/s   p50 ms   p95 ms   p99 ms  "
             "lockw ms  retry  com/o  rb/o   errs  store\n";
      header = true;
    }
    Row(out, r);
  }
}

void Wire(std::ostream& out, const SuiteResults& results) {
  if (results.wire.empty()) return;
  out << "\n== Per upsert, counted on the wire (1 client, sequential)\n"
      << "shape          ops  round trips  statements  BEGINs\n";
  for (const WireCount& w : results.wire) {
    out << fmt::format("{:<12} {:>5}  {:>11.2f}  {:>10.2f}  {:>6.2f}\n", w.scenario, w.ops,
                       w.round_trips_per_op, w.statements_per_op, w.transactions_per_op);
  }
}

nlohmann::json RunJson(const RunResult& r) {
  nlohmann::json j = {{"section", r.section},
                      {"scenario", r.scenario},
                      {"variant", r.variant},
                      {"transport", r.transport},
                      {"clients", r.clients},
                      {"preload", r.preload},
                      {"ops", r.ops},
                      {"errors", r.errors},
                      {"seconds", r.seconds},
                      {"throughput", r.throughput},
                      {"p50_ms", r.p50_ms},
                      {"p95_ms", r.p95_ms},
                      {"p99_ms", r.p99_ms},
                      {"retries", r.retries},
                      {"note", r.note},
                      {"first_error", r.first_error},
                      {"check_must_pass", r.check_must_pass},
                      {"rounds", r.rounds},
                      {"tenths", r.tenths}};
  const auto opt = [&](const char* k, const auto& v) {
    j[k] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  opt("lock_wait_ms_per_op", r.lock_wait_ms_per_op);
  opt("lock_wait_ms_max", r.lock_wait_ms_max);
  opt("commits_per_op", r.commits_per_op);
  opt("rollbacks_per_op", r.rollbacks_per_op);
  opt("created", r.created);
  opt("merged", r.merged);
  opt("expected_created", r.expected_created);
  if (r.check.ran) {
    j["store"] = {{"ok", r.check.ok},
                  {"persons", r.check.persons},
                  {"expected_persons", r.check.expected_persons},
                  {"merged_away", r.check.merged_away},
                  {"duplicated_unique_values", r.check.duplicated_values},
                  {"detail", r.check.detail}};
  }
  return j;
}

}  // namespace

void PrintReport(std::ostream& out, const SuiteResults& results) {
  out << "\nlockw = lock wait per upsert (EngineObserver::OnLockWait; /metrics over HTTP); "
         "com/o, rb/o = commits, rollbacks per op (pg_stat_database)\n";
  Section(out, results, "scenario", "Scenarios (a) new, (b) updates, (c) hot, (d) mix");
  Wire(out, results);
  Section(out, results, "scale", "Scale: the same scenario on a small and a large store");
  Section(out, results, "import", "Import (e): records per second, latency per call");
  Section(out, results, "growth", "Growth: an import into a fresh store, by tenth of its records");
  PrintRatios(out, ComputeRatios(results.runs));
  Section(out, results, "normalize", "Normalization alone (f): identifiers per second");
  out << "\n== Goals (reported, not asserted)\n";
  for (const Goal& g : results.goals) {
    out << g.name << "\n    target " << g.target << ", measured " << g.measured << "  -> "
        << g.verdict << "\n";
  }
  for (const std::string& n : results.notes) out << "note: " << n << "\n";
  if (results.failures.empty()) {
    out << "\nEvery store check that must pass passed.\n";
  } else {
    out << "\nFAILED:\n";
    for (const std::string& f : results.failures) out << "  " << f << "\n";
  }
}

void WriteJson(const std::string& path, const SuiteResults& results, const std::string& meta_json) {
  nlohmann::json j;
  j["meta"] = nlohmann::json::parse(meta_json, nullptr, false);
  j["runs"] = nlohmann::json::array();
  for (const RunResult& r : results.runs) j["runs"].push_back(RunJson(r));
  j["wire"] = nlohmann::json::array();
  for (const WireCount& w : results.wire) {
    j["wire"].push_back({{"shape", w.scenario},
                         {"ops", w.ops},
                         {"round_trips_per_op", w.round_trips_per_op},
                         {"statements_per_op", w.statements_per_op},
                         {"begins_per_op", w.transactions_per_op}});
  }
  j["goals"] = nlohmann::json::array();
  for (const Goal& g : results.goals) {
    j["goals"].push_back(
        {{"goal", g.name}, {"target", g.target}, {"measured", g.measured}, {"verdict", g.verdict}});
  }
  j["ratios"] = nlohmann::json::array();
  for (const RatioRow& row : ComputeRatios(results.runs)) {
    nlohmann::json ratios = nlohmann::json::object();
    for (const auto& [name, v] : row.ratios) ratios[name] = v ? nlohmann::json(*v) : nullptr;
    j["ratios"].push_back({{"section", row.section},
                           {"scenario", row.scenario},
                           {"transport", row.transport},
                           {"clients", row.clients},
                           {"ratios", ratios}});
  }
  j["failures"] = results.failures;
  j["notes"] = results.notes;
  std::ofstream(path) << j.dump(2) << "\n";
}

std::string WriteChart(const std::string& svg_path, const SuiteResults& results) {
  // scenario -> series title -> (clients, throughput)
  std::map<std::string, std::map<std::string, std::vector<std::pair<int, double>>>> panels;
  for (const RunResult& r : results.runs) {
    if (r.section != "scenario") continue;
    panels[r.scenario][r.variant + " " + r.transport].push_back({r.clients, r.throughput});
  }
  if (panels.empty()) return "nothing to draw";
  const std::string gp = svg_path + ".gp";
  std::ofstream s(gp);
  s << "set terminal svg size 1100,800 dynamic font 'sans,11'\n"
    << "set output '" << svg_path << "'\n"
    << "set multiplot layout 2,2 title 'idres: throughput (operations/s) vs clients'\n"
    << "set logscale x 2\nset xtics (1, 8, 32, 64)\nset xrange [0.8:80]\nset yrange [0:*]\n"
    << "set grid\nset key top left font ',9'\nset xlabel 'clients'\nset ylabel 'ops/s'\n";
  const std::map<std::string, std::string> names = {
      {"a", "(a) all new"}, {"b", "(b) updates"}, {"c", "(c) hot: 10 people"}, {"d", "(d) mix"}};
  for (const auto& [scenario, series] : panels) {
    const auto name = names.find(scenario);
    s << "set title '" << (name == names.end() ? scenario : name->second) << "'\nplot ";
    bool first = true;
    for (const auto& [title, points] : series) {
      s << (first ? "" : ", ") << "'-' using 1:2 with linespoints title '" << title << "'";
      first = false;
    }
    s << "\n";
    for (const auto& [title, points] : series) {
      for (const auto& [c, tps] : points) s << c << " " << tps << "\n";
      s << "e\n";
    }
  }
  s << "unset multiplot\n";
  s.close();
  const std::string cmd = "gnuplot '" + gp + "' 2>'" + svg_path + ".err'";
  if (std::system(cmd.c_str()) != 0) return "gnuplot failed (is gnuplot-nox installed?)";
  return "";
}

}  // namespace idres::bench
