// OutcomeCounts: how many upserts created a person, updated one, merged
// persons or changed nothing (Outcome, engine/record.h). What an import
// reports, what the benchmark reads off a served /metrics page and off the
// engine's observer. Plain value; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/record.h"

namespace idres {

inline constexpr Outcome kOutcomes[] = {Outcome::kCreated, Outcome::kUpdated, Outcome::kMerged,
                                        Outcome::kUnchanged};

// The outcome's name in reports and on /metrics: "created", "updated",
// "merged", "unchanged".
constexpr std::string_view OutcomeName(Outcome outcome) {
  constexpr std::string_view kNames[] = {"created", "updated", "merged", "unchanged"};
  return kNames[static_cast<std::size_t>(outcome)];  // in the order of kOutcomes
}

struct OutcomeCounts {
  std::int64_t created = 0;
  std::int64_t updated = 0;
  std::int64_t merged = 0;
  std::int64_t unchanged = 0;

  std::int64_t& operator[](Outcome outcome) {
    std::int64_t* const fields[] = {&created, &updated, &merged, &unchanged};  // as Outcome
    return *fields[static_cast<std::size_t>(outcome)];
  }
  std::int64_t operator[](Outcome outcome) const { return OutcomeCounts(*this)[outcome]; }
  // Every upsert counted.
  std::int64_t sum() const { return created + updated + merged + unchanged; }
  // Field by field: what happened between `before` and this.
  OutcomeCounts Since(const OutcomeCounts& before) const {
    return {created - before.created, updated - before.updated, merged - before.merged,
            unchanged - before.unchanged};
  }
};

}  // namespace idres
