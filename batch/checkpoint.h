// Checkpoint: how far an import got, such that EVERY record before the
// position is committed to the store. Records after it may or may not be
// committed (a crash can land between a batch's COMMIT and the next
// checkpoint); a resumed run applies them again, which is harmless because an
// upsert is an idempotent merge: a record applied to a store that already
// holds it matches its own person and changes nothing (its traits are
// written again with the same values, in the same input order).
//
// The file is replaced atomically (write a temporary file, fsync it, rename
// it over the old one, fsync the directory), so after kill -9 or a power
// loss it holds either the previous or the next checkpoint, never a torn one.
//
// Plain value and free functions; thread-safe as long as one thread writes a
// given path at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "batch/import_summary.h"

namespace idres::batch {

struct Checkpoint {
  // Names the inputs and mapping; a resume with other inputs is refused.
  std::string fingerprint;
  // Every record before (file_index, offset) is committed.
  std::size_t file_index = 0;
  std::uint64_t offset = 0;
  // Length of the dead-letter file holding exactly the entries of the
  // records before the position.
  std::uint64_t dead_letter_bytes = 0;
  bool complete = false;  // the whole input is committed
  ImportSummary summary;  // counts of the records before the position
};

// Replaces the file at `path` with `checkpoint` atomically; an error message
// when it cannot.
std::optional<std::string> WriteCheckpoint(const std::string& path, const Checkpoint& checkpoint);

// `fingerprint` as a checkpoint file holds it: JSON carries only UTF-8, so
// other bytes (a Latin-1 file name) are stored as U+FFFD. Compare a read
// checkpoint's fingerprint with this, never with the raw text.
std::string AsStored(const std::string& fingerprint);

// The checkpoint at `path`, or why it cannot be used.
std::variant<Checkpoint, std::string> ReadCheckpoint(const std::string& path);

}  // namespace idres::batch
