// Change: one entry of the change feed (docs/batch.md, "The change feed"): what
// happened to which person, and at which position of the feed. Plain
// values, no database types; safe to copy between threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/timestamp.h"

namespace idres {

enum class ChangeKind {
  kCreated,  // a new person
  kUpdated,  // its identifiers or traits changed, or it absorbed persons
  kMerged,   // absorbed into other_id, the survivor
  kSplit,    // other_id was split off it
  kErased,   // forgotten: nothing of it is kept
};

// The kind's name as stored and printed: "created", "updated", "merged",
// "split", "erased".
std::string_view ChangeKindName(ChangeKind kind);

// The kind `name` names; nullopt for any other text.
std::optional<ChangeKind> ParseChangeKind(std::string_view name);

struct Change {
  std::int64_t position = 0;  // 1, 2, ...: dense, in commit order
  std::int64_t person_id = 0;
  ChangeKind kind = ChangeKind::kCreated;
  std::optional<std::int64_t> other_id;  // merged: the survivor; split: the part split off
  Timestamp changed_at;
};

}  // namespace idres
