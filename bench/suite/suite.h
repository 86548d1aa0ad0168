// Suite: runs everything SuiteOptions asks for, in an order that keeps each
// measurement alone on the machine, and collects the results. A store check
// that must pass and fails, or a run that cannot run, lands in
// SuiteResults::failures (the program then exits non-zero); a missed goal
// does not.
// Thread-safety: one Run() at a time.
#pragma once

#include <functional>
#include <string>

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
  void Scale(const std::string& base_template);
  void Import();
  void Normalization();
  bool Wants(char scenario) const;
  std::string MakeTemplate(std::int64_t persons);
  // Runs `what`, records its result, and turns an exception into a failure.
  void Measure(const std::string& label, const std::function<RunResult()>& what);
  void Keep(RunResult r);

  const SuiteOptions& options_;
  const SuiteContext& ctx_;
  SuiteResults results_;
};

}  // namespace idres::bench
