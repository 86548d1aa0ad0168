// ImportSummary: what an import did, counted by outcome, with the reasons
// records and identifiers were rejected. Printed at the end of a run, written
// with --report, and carried in the checkpoint so a resumed run reports the
// whole input, not only its own part.
//
// Plain value; not thread-safe (the import's committer owns it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/outcome_counts.h"
#include "engine/record.h"

namespace idres::batch {

// The outcomes count the records written.
struct ImportSummary : OutcomeCounts {
  std::uint64_t rejected = 0;  // records not written at all
  // Records written without some of their identifiers.
  std::uint64_t partially_rejected = 0;
  // Reason -> how many records (rejected whole) or identifiers (left out).
  std::map<std::string, std::uint64_t> rejections;
  // Records handled by earlier runs of a resumed import (already counted
  // above) and by this run; this run's seconds.
  std::uint64_t resumed_records = 0;
  std::uint64_t run_records = 0;
  double run_seconds = 0.0;

  std::uint64_t total() const { return static_cast<std::uint64_t>(sum()) + rejected; }
  double records_per_second() const {
    return run_seconds > 0 ? static_cast<double>(run_records) / run_seconds : 0.0;
  }

  // Counts one upsert result; returns the dead-letter reason when the record
  // or some of its identifiers were rejected (empty otherwise).
  std::string Add(const UpsertResult& result);
  // Counts one record that could not be read or mapped.
  void AddUnreadable(const std::string& reason);

  // Human-readable, several lines, for stdout.
  std::string ToText() const;
  // One JSON object (the --report file).
  std::string ToJson() const;
  // The counts back from ToJson(); nullopt when `json` is not one.
  static std::optional<ImportSummary> FromJson(std::string_view json);
};

// Why `result`'s record was rejected, whole or in part, as a dead letter
// says it: the error, then each identifier left out with its input; empty
// when nothing was.
std::string DeadLetterReason(const UpsertResult& result);

}  // namespace idres::batch
