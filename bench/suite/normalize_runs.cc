#include "bench/suite/normalize_runs.h"

#include <algorithm>
#include <array>
#include <string>
#include <thread>
#include <variant>

#include "bench/suite/load.h"
#include "matcher/model.h"
#include "normalize/normalizer.h"

namespace idres::bench {
namespace {

constexpr int kIdentifiersPerOp = 5;

}  // namespace

RunResult RunNormalization(int threads, double seconds) {
  const Normalizer normalizer(Model::Defaults().Normalizing());
  LoadOptions load;
  load.clients = threads;
  load.duration = std::chrono::duration<double>(seconds);
  LoadResult result = RunClosedLoop(load, [&](int, std::int64_t seq) {
    const std::string n = std::to_string(seq);
    const std::array<std::pair<const char*, std::string>, kIdentifiersPerOp> raw = {{
        {"email", "  Anna.Smith+" + n + "@Example.ORG "},
        {"phone", "(650) 253-" + std::to_string(1000 + seq % 9000)},
        {"name", "José  MÜLLER " + n},
        {"birth_date", "1990-01-" + std::to_string(10 + seq % 19)},
        {"postal_code", "sw1a " + std::to_string(seq % 10) + "aa"},
    }};
    for (const auto& [type, value] : raw) {
      if (std::holds_alternative<Rejection>(normalizer.Normalize(type, value))) {
        return OpOutcome{false, std::string(type) + " '" + value + "' rejected"};
      }
    }
    return OpOutcome{};
  });
  RunResult r;
  r.scenario = "f";
  r.variant = "idres";
  r.transport = "in-process";
  r.clients = threads;
  // Latencies are per record of five identifiers.
  SetFromLoad(r, result, result.ok * kIdentifiersPerOp, result.errors);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const double used = std::min<double>(threads, cores);
  r.note = "identifiers/s; per core " + std::to_string(static_cast<long long>(r.throughput / used));
  return r;
}

}  // namespace idres::bench
