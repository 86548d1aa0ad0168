// idres_bench_decide: what deciding a record costs the matcher (one core),
// as the number of candidate persons and of records each holds grows. Not
// a test: it prints numbers (BENCHMARKS.md, "The cost of deciding through
// records").
//
//   build/bench/idres_bench_decide [seconds-per-measurement, default 1]
//
// Each candidate person holds R records, each a spelling of the person's
// name, a birth date, a city, an email and a phone; the record decided
// holds one of each, close to one candidate's first record. The matcher
// compares the record with every record of every candidate (docs/matching.md,
// "The matching model"), so the comparisons per decision are C × R. The
// "one union record" row decides the same record against the same persons
// each given as a single record of all its values: the cost of the rule
// the matcher had before it compared records.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "matcher/matcher.h"
#include "matcher/model.h"

namespace {

using idres::Candidate;
using idres::Identifier;
using Clock = std::chrono::steady_clock;

std::vector<Identifier> RecordOf(int person, int variant) {
  static const char* const kGiven[] = {"anna", "ann", "anne", "annie", "hanna", "ana"};
  static const char* const kCities[] = {"leeds", "york", "hull", "derby"};
  const std::string n = std::to_string(person);
  std::vector<Identifier> r = {
      {"birth_date", "19" + std::to_string(50 + person % 40) + "-0" +
                         std::to_string(1 + variant % 9) + "-1" + std::to_string(person % 10)},
      {"city", kCities[(person + variant) % 4]},
      {"email", "a.meier" + n + "." + std::to_string(variant) + "@example.org"},
      {"name", std::string(kGiven[variant % 6]) + " meier" + n},
      {"phone", "+4420794" + std::to_string(10000 + person * 97 + variant)}};
  std::sort(r.begin(), r.end());
  return r;
}

Candidate PersonOf(int id, int records) {
  Candidate c{id, {}, {}};
  for (int v = 0; v < records; ++v) {
    c.records.push_back(RecordOf(id, v));
    c.identifiers.insert(c.identifiers.end(), c.records.back().begin(), c.records.back().end());
  }
  std::sort(c.identifiers.begin(), c.identifiers.end());
  c.identifiers.erase(std::unique(c.identifiers.begin(), c.identifiers.end()), c.identifiers.end());
  return c;
}

// The same persons, each as one record of every value it holds.
std::vector<Candidate> AsUnions(std::vector<Candidate> persons) {
  for (Candidate& c : persons) c.records = {c.identifiers};
  return persons;
}

// Decisions per second of `record` against `persons`, for `seconds`.
double DecisionsPerSecond(const idres::Matcher& matcher, const std::vector<Identifier>& record,
                          const std::vector<Candidate>& persons, double seconds) {
  const idres::ValueCounts counts;
  std::size_t n = 0, matched = 0;
  const auto start = Clock::now();
  const auto until = start + std::chrono::duration<double>(seconds);
  while (Clock::now() < until) {
    for (int i = 0; i < 100; ++i, ++n) {
      matched += matcher.Decide(record, persons, counts).matches.size();
    }
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  if (matched == 0) std::fprintf(stderr, "warning: the record matched no one\n");
  return static_cast<double>(n) / elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const idres::Matcher matcher(idres::Model::Defaults());
  std::printf("%-22s %10s %10s %12s %14s %12s\n", "persons x records", "compared", "decisions/s",
              "us/decision", "us/comparison", "union: us");
  for (const int c : {1, 4, 16}) {
    for (const int r : {1, 4, 16, 64}) {
      std::vector<Candidate> persons;
      for (int id = 1; id <= c; ++id) persons.push_back(PersonOf(id, r));
      std::vector<Identifier> record = RecordOf(1, 0);
      record[3].value = "anna meyer1";  // a typo of the first record's name
      const double per_s = DecisionsPerSecond(matcher, record, persons, seconds);
      const double union_per_s = DecisionsPerSecond(matcher, record, AsUnions(persons), seconds);
      const double us = 1e6 / per_s;
      std::printf("%3d x %-16d %10d %10.0f %12.1f %14.2f %12.1f\n", c, r, c * r, per_s, us,
                  us / (c * r), 1e6 / union_per_s);
    }
  }
  return 0;
}
