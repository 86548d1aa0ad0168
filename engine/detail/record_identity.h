// A record's identity, (source, record_id) (docs/design.md, "Records, judgements
// and the change feed"): what may name a record, the id generated for a
// record that names none, and the advisory lock key every write of one
// record takes. Pure apart from the random generator; thread-safe.
// Internal to engine/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace idres::detail {

// The source of a record that names none.
inline constexpr const char* kDefaultSource = "default";
// The source of the synthetic record step 3 of the store gave every person
// that existed before records (schema/0004_records.sql).
inline constexpr const char* kMigrationSource = "idres-migration";

inline constexpr std::size_t kMaxSourceBytes = 256;
inline constexpr std::size_t kMaxRecordIdBytes = 256;

// Why `source` or `record_id` cannot name a record (too long, invalid UTF-8,
// a NUL or another control character), or nullopt when they can. Both may
// be empty: the default source, a generated id.
std::optional<std::string> ValidateRecordIdentity(const std::string& source,
                                                  const std::string& record_id);

// "g-" and 32 random hex digits: unique without asking the database.
std::string GenerateRecordId();

// The lock key of record (source, record_id): LockKey("record",
// source + U+001F + record_id).
std::int64_t RecordLockKey(const std::string& source, const std::string& record_id);

}  // namespace idres::detail
