// idres_bench_train: how long `idres train` takes, how many pairs it looks
// at and how much memory it holds, on generated people (bench/train_data.h)
// of 100,000 and 1,000,000 records (BENCHMARKS.md, "Training"), from a
// store and from a CSV file. The store is filled directly (a person per
// record, its values as the engine stores them: training reads only the
// records), which takes seconds where an import would take many minutes.
// Needs psql and GNU time (/usr/bin/time) for the peak memory.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/train_data.h"
#include "engine/database_url.h"
#include "engine/engine.h"
#include "process/child_process.h"

namespace idres::bench {
namespace {

struct Options {
  std::vector<std::uint64_t> records{100000, 1000000};
  std::string admin_url = "postgresql://postgres@127.0.0.1:5432/postgres";
  std::string dir = "train-bench";
  std::string idres = "app/idres";
  std::uint64_t seed = 1;
};

struct Timed {
  double seconds = 0;      // wall clock
  double cpu_seconds = 0;  // user + system: what a machine shared with others still tells
  double peak_mb = 0;
  std::string log;
};

// The record's values as (type, value) in the engine's order.
std::vector<std::pair<std::string, std::string>> Values(const TrainRecord& r) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!r.birth_date.empty()) out.emplace_back("birth_date", r.birth_date);
  if (!r.city.empty()) out.emplace_back("city", r.city);
  if (!r.email.empty()) out.emplace_back("email", r.email);
  if (!r.name.empty()) out.emplace_back("name", r.name);
  return out;
}

void WriteFiles(const std::vector<TrainRecord>& records, const std::string& csv,
                const std::string& copy) {
  std::ofstream c(csv), t(copy);
  c << "name,birth_date,city,email\n";
  for (std::size_t i = 0; i < records.size(); ++i) {
    const TrainRecord& r = records[i];
    c << r.name << ',' << r.birth_date << ',' << r.city << ',' << r.email << '\n';
    std::string types = "{", vals = "{";
    for (const auto& [type, value] : Values(r)) {
      types += (types.size() > 1 ? ",\"" : "\"") + type + "\"";
      vals += (vals.size() > 1 ? ",\"" : "\"") + value + "\"";
    }
    t << "bench\tr" << i << '\t' << r.person << '\t' << types << "}\t" << vals << "}\n";
  }
}

void Psql(const std::string& url, const std::string& sql, const std::string& log) {
  if (RunToEnd({"psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql}, log) != 0) {
    throw std::runtime_error("psql failed: " + sql + " (see " + log + ")");
  }
}

// A fresh store at `url` holding the records.
void FillStore(const Options& o, const std::string& url, std::uint64_t persons,
               const std::string& copy) {
  const std::string db = url.substr(url.rfind('/') + 1), log = o.dir + "/psql.log";
  Psql(o.admin_url, "DROP DATABASE IF EXISTS " + db, log);
  Psql(o.admin_url, "CREATE DATABASE " + db, log);
  MigrateStore(url, Model::Defaults());
  Psql(url,
       "INSERT INTO persons (id) OVERRIDING SYSTEM VALUE SELECT generate_series(1, " +
           std::to_string(persons) + ")",
       log);
  Psql(url, "\\copy records (source, record_id, person_id, types, vals) FROM '" + copy + "'", log);
  Psql(url, "ANALYZE records", log);
}

Timed Run(const Options& o, std::vector<std::string> args, const std::string& log) {
  args.insert(args.begin(), {"/usr/bin/time", "-f", "bench-time %e %U %S %M", o.idres, "train"});
  if (RunToEnd(args, log) != 0) throw std::runtime_error("idres train failed, see " + log);
  std::ifstream in(log);
  Timed t;
  t.log.assign(std::istreambuf_iterator<char>(in), {});
  const std::size_t at = t.log.rfind("bench-time ");
  double user = 0, system = 0, kb = 0;
  std::sscanf(t.log.c_str() + at, "bench-time %lf %lf %lf %lf", &t.seconds, &user, &system, &kb);
  t.cpu_seconds = user + system;
  t.peak_mb = kb / 1024;
  return t;
}

// The EM runs' pairs, from the printed table.
unsigned long long EmPairs(const std::string& log) {
  std::istringstream in(log.substr(log.find("EM run (blocking rule)")));
  std::string line;
  std::getline(in, line);
  unsigned long long total = 0;
  while (std::getline(in, line) && !line.empty() && line.rfind("rules with", 0) != 0) {
    std::istringstream fields(line);
    std::string rule;
    unsigned long long pairs = 0;
    if (fields >> rule >> pairs) total += pairs;
  }
  return total;
}

void Report(std::uint64_t records, const char* source, const Timed& t) {
  const std::size_t scored = t.log.find("candidate pairs scored");
  const std::size_t open = t.log.rfind('(', scored);
  std::printf("| %llu | %s | %llu | %s | %.1f | %.1f | %.0f |\n",
              static_cast<unsigned long long>(records), source, EmPairs(t.log),
              t.log.substr(open + 1, scored - open - 2).c_str(), t.seconds, t.cpu_seconds, t.peak_mb);
  std::fflush(stdout);
}

void Bench(const Options& o, std::uint64_t n) {
  const auto records = GenerateTrainRecords(n, o.seed);
  const std::string csv = o.dir + "/people-" + std::to_string(n) + ".csv",
                    copy = o.dir + "/records-" + std::to_string(n) + ".tsv";
  WriteFiles(records, csv, copy);
  const std::string url = WithDatabase(o.admin_url, "idres_bench_train_" + std::to_string(n));
  FillStore(o, url, records.back().person, std::filesystem::absolute(copy).string());
  const std::string tag = o.dir + "/" + std::to_string(n);
  Report(records.size(), "store",
         Run(o, {"--database-url", url, "--out", tag + "-store.toml"}, tag + "-store.log"));
  Report(records.size(), "file",
         Run(o,
             {csv, "--map", "name=name", "--map", "birth_date=birth_date", "--map", "city=city",
              "--map", "email=email", "--out", tag + "-file.toml"},
             tag + "-file.log"));
}

}  // namespace
}  // namespace idres::bench

int main(int argc, char** argv) {
  idres::bench::Options o;
  CLI::App app{"idres train on generated stores and files"};
  app.add_option("--records", o.records, "Record counts to run (each a store and a file)");
  app.add_option("--database-url", o.admin_url, "Admin URL of the cluster")
      ->envname("IDRES_DATABASE_URL");
  app.add_option("--dir", o.dir, "Where the generated files, logs and models go");
  app.add_option("--idres", o.idres, "The idres binary");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);  // the store's migration notes are not the table
  std::filesystem::create_directories(o.dir);
  std::printf(
      "| records | from | EM pairs | guidance pairs | seconds | CPU seconds | peak MB |\n"
      "| --- | --- | --- | --- | --- | --- | --- |\n");
  try {
    for (std::uint64_t n : o.records) idres::bench::Bench(o, n);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
  return 0;
}
