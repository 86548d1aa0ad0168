#include "bench/suite/pgbench.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <vector>

#include "bench/suite/load.h"
#include "process/child_process.h"

namespace idres::bench {
namespace {

namespace fs = std::filesystem;

// Latencies (ms) of the committed transactions in pgbench's -l logs: lines of
// "client_id transaction_no time script_no time_epoch time_us", time in us.
std::vector<double> LoggedLatencies(const fs::path& dir) {
  std::vector<double> ms;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("pgb_log", 0) != 0) continue;
    std::ifstream in(entry.path());
    std::string client, tx, time;
    std::string rest;
    while (in >> client >> tx >> time && std::getline(in, rest)) {
      char* end = nullptr;
      const double us = std::strtod(time.c_str(), &end);
      if (end != time.c_str() && *end == '\0') ms.push_back(us / 1000.0);
    }
  }
  return ms;
}

// The first group of `pattern` where it first matches `text`.
std::optional<std::string> Capture(const std::string& text, const char* pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return std::nullopt;
  return m[1].str();
}

}  // namespace

RunResult RunPgbench(const PgbenchOptions& o) {
  const fs::path dir = o.work_dir;
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("pgb_log", 0) == 0) fs::remove(entry.path());
  }
  std::vector<std::string> argv = {o.pgbench, "-n", "-M", "prepared"};
  for (const PgbenchScript& script : o.scripts) {
    const fs::path file = dir / (script.name + ".sql");
    std::ofstream(file) << script.text;
    argv.insert(argv.end(), {"-f", file.string() + "@" + std::to_string(script.weight)});
  }
  argv.insert(argv.end(),
              {"-c", std::to_string(o.clients), "-j", std::to_string(o.clients > 1 ? 2 : 1)});
  if (o.transactions > 0) {
    argv.insert(argv.end(), {"-t", std::to_string(o.transactions)});
  } else {
    argv.insert(argv.end(), {"-T", std::to_string(static_cast<int>(o.seconds + 0.5)), "-l",
                             "--log-prefix", (dir / "pgb_log").string()});
  }
  for (const auto& [k, v] : o.variables) argv.insert(argv.end(), {"-D", k + "=" + v});
  argv.push_back(o.url);

  const fs::path out = dir / "pgbench.out";
  fs::remove(out);
  ChildProcess child(argv, out.string());
  const int status = child.Wait();
  const std::string text = child.Log();

  RunResult r;
  r.variant = "pgbench";
  r.transport = "sql";
  r.clients = o.clients;
  r.seconds = o.seconds;
  if (const auto ops = Capture(text, R"(actually processed: (\d+))")) r.ops = std::stoll(*ops);
  if (const auto failed = Capture(text, R"(number of failed transactions: (\d+))")) {
    r.errors = std::stoll(*failed);
  }
  if (const auto tps = Capture(text, R"(tps = ([0-9.]+) \(without)"))
    r.throughput = std::stod(*tps);
  if (status != 0) r.first_error = "pgbench exited with " + std::to_string(status) + ": ";
  if (const auto error = Capture(text, R"(error: ([^\n]*))")) r.first_error += *error;
  if (o.transactions == 0) {
    std::vector<double> ms = LoggedLatencies(dir);
    SetLatencies(r, ms);
  }
  return r;
}

}  // namespace idres::bench
