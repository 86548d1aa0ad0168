// Suite: runs everything SuiteOptions asks for, in an order that keeps each
// measurement alone on the machine, and collects the results. A store check
// that must pass and fails, or a run that cannot run, lands in
// SuiteResults::failures (the program then exits non-zero); a missed goal
// does not.
// Thread-safety: one Run() at a time.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/suite/context.h"
#include "bench/suite/options.h"
#include "bench/suite/results.h"

namespace idres::bench {

class Suite {
 public:
  Suite(const SuiteOptions& options, const SuiteContext& ctx);

  SuiteResults Run();

 private:
  void Scenarios(const std::string& base_template);
  // The client count whose rounds also run pgbench at the pool cap's client
  // count (0: none; --clients has the pool size, or no pgbench).
  int PgbenchAtPoolHost() const;
  void Scale(const std::string& base_template);
  void Import();
  void Normalization();
  bool Wants(char scenario) const;
  std::string MakeTemplate(std::int64_t persons);
  struct Measurement {
    std::string label;
    std::function<RunResult()> run;
    std::string section = "scenario";  // RunResult::section of its runs
  };
  // Runs every one of `all` options_.repeat times, interleaved (each once,
  // then each again, each round starting one further), so that a slow phase
  // of the machine hits all of them alike; keeps each one's median run by
  // throughput, with every run's throughput in its note and each round's in
  // RunResult::rounds (for the goals' round-by-round ratios). Every run's
  // store is checked; an exception is a failure.
  void MeasureAll(const std::vector<Measurement>& all);
  // Runs `what` once, its result in `section`; a failure when it throws.
  std::optional<RunResult> Try(const Measurement& what);
  void Measure(const Measurement& what);
  // Logs `r` and records a failure if its store check must pass and failed.
  void Check(const RunResult& r);

  const SuiteOptions& options_;
  const SuiteContext& ctx_;
  SuiteResults results_;
};

}  // namespace idres::bench
