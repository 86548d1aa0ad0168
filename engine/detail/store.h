// Store: the engine's reads and writes, one function per statement of
// engine/detail/statements.h, turning rows into C++ values. Each runs inside
// the caller's Tx; none decides anything (engine/detail/resolve.h does).
// Internal to engine/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "engine/detail/tx.h"
#include "engine/record.h"
#include "matcher/lock_plan.h"
#include "matcher/matcher.h"

namespace idres::detail {

// A person as read inside a transaction.
struct StoredPerson {
  std::int64_t id = 0;
  std::vector<Identifier> identifiers;  // sorted
  Traits traits;
  Timestamp created_at, updated_at;
  std::vector<std::int64_t> never;  // persons a steward said it is not (ids as stored)
  // The values of its records, each set once (records saying the same are
  // one), each sorted: what it is compared through.
  std::vector<std::vector<Identifier>> record_values;
};

// A record as a transaction knows it (docs/design.md, "Records, judgements and
// the change feed").
struct StoredRecord {
  std::int64_t row = 0;        // records.id; 0: new in this transaction
  std::int64_t person_id = 0;  // the person the database has it under (0: new)
  std::string source, record_id;
  std::vector<Identifier> values;  // sorted
  Traits traits;
  Timestamp created_at, updated_at;
  std::int64_t bond = 0;  // records of one bond (AlwaysMatch) stay one person; 0: none
};

// pg_advisory_xact_lock on every key, ascending, in one statement.
void LockKeys(Tx& tx, std::span<const std::int64_t> keys);

// Blocking keys, each with the persons holding it (ascending).
using KeyHolders = std::map<std::int64_t, std::vector<std::int64_t>>;

// What the candidate read found for a set of record values and blocking
// keys.
struct CandidateRead {
  // Persons holding a strong or exclusive value, or a blocking key, that is
  // not generic; ascending, unique.
  std::vector<std::int64_t> persons;
  // Of them, those holding one of the strong or exclusive values (ascending,
  // unique): the persons a record most likely joins.
  std::vector<std::int64_t> value_holders;
  // Per value: how many persons hold it (bounded at its type's cap + 1).
  ValueCounts counts;
  // Blocking keys held by more persons than the model's key_cap.
  std::set<std::int64_t> generic_keys;
  // The other blocking keys read, with their holders (ascending):
  // KeyCandidates chooses among them per record.
  KeyHolders key_holders;
};

// The persons a record with blocking keys `keys` is compared with through
// them (docs/matching.md, "How many candidates a record reads"): of their
// `holders`, at most `max`, those sharing the most of its
// keys first, then those whose rarest shared key has the fewest holders,
// then the oldest (lowest id). Ascending. The engine chooses them once per
// record of a chunk, reads them, and BatchResolver compares the record with
// these stored persons.
std::vector<std::int64_t> KeyCandidates(std::span<const std::int64_t> keys,
                                        const KeyHolders& holders, std::size_t max);

// Step 4 for `values` (sorted, unique; types the model does not know are
// skipped) and blocking keys `keys` (sorted, unique), in one statement.
CandidateRead ReadCandidates(Tx& tx, std::span<const Identifier> values,
                             std::span<const std::int64_t> keys, const Model& model);

// EXPLAIN of ReadCandidates' statement, one line per row: the cached plan
// of the prepared statement when `prepared`, else the plan of its text.
std::vector<std::string> ExplainCandidateRead(Tx& tx, std::span<const Identifier> values,
                                              std::span<const std::int64_t> keys,
                                              const Model& model, bool prepared);

// EXPLAIN of the batch receipts' read (engine/upsert.cc) of `items` of
// `job`, as ExplainCandidateRead.
std::vector<std::string> ExplainReceiptRead(Tx& tx, std::int64_t job,
                                            std::span<const std::int64_t> items, bool prepared);

// Row-locks the persons `ids` (ascending); returns the ids that still exist.
// No ids: no statement (as ReadPersons).
std::vector<std::int64_t> LockPersons(Tx& tx, std::span<const std::int64_t> ids);

// The same lock, sent with the next statement (Tx::Defer): which of `ids`
// still exist shows in what that statement reads afterwards, e.g. ReadPersons.
// No ids: no statement.
void LockPersonsWithNext(Tx& tx, std::span<const std::int64_t> ids);

// The persons `ids` that exist, read in one statement; none for no ids.
std::map<std::int64_t, StoredPerson> ReadPersons(Tx& tx, std::span<const std::int64_t> ids);

// Where the stored records named by (sources[i], record_ids[i]) are: per i
// found, its row, its person, every value that person holds and the values
// of each of its records.
struct NamedRecord {
  std::int64_t row = 0, person_id = 0;
  std::vector<Identifier> person_values;                // sorted, unique
  std::vector<std::vector<Identifier>> person_records;  // each sorted
};
std::map<std::size_t, NamedRecord> ReadNamedRecords(Tx& tx, const std::vector<std::string>& sources,
                                                    const std::vector<std::string>& record_ids);

// Every record of the persons `ids`, by person, oldest first (created_at,
// row). None for no ids.
std::map<std::int64_t, std::vector<StoredRecord>> ReadRecordsOf(Tx& tx,
                                                                std::span<const std::int64_t> ids);

// Records to write with their persons (kWriteRecords, kCreatePersons): each
// inserted, or replacing the stored record of its identity whole.
struct RecordWrites {
  std::vector<std::int64_t> ord, person;
  std::vector<std::string> source, record_id;
  std::vector<std::int64_t> value_ord;
  std::vector<std::string> value_type, value_text;
  std::vector<std::int64_t> trait_ord;
  std::vector<std::string> trait_keys, trait_kinds, trait_values;

  // `record` (identity, values, traits) under `person`.
  void Add(std::int64_t person, const StoredRecord& record);
  bool empty() const { return ord.empty(); }
};

// Identifiers to insert, with whether each one's type is unique.
struct NewIdentifiers {
  std::vector<std::string> types, values;
  std::vector<bool> unique;
};

// The writes of one kind of person in a transaction: those it created
// (provisional ids, engine/detail/batch_resolver.h: kCreatePersons) or the
// stored ones it changed (kUpdatePersons). Two statements, because a
// statement doing both costs each write a third more.
// Possible matches to store: (a, b, score), a != b.
struct PossibleWrites {
  std::vector<std::int64_t> a, b;
  std::vector<std::string> score;  // "%.17g": exact as float8
  void Add(std::int64_t x, std::int64_t y, double s);
};

struct PersonWrites {
  std::vector<std::int64_t> persons;  // created: creation order; updated: stored ids
  std::vector<bool> inserted;         // created only: gets a row (else merged away)
  std::vector<std::int64_t> trait_owner;
  std::vector<std::string> trait_keys, trait_kinds, trait_values;
  std::vector<std::int64_t> id_person;
  std::vector<std::string> id_type, id_value;
  std::vector<bool> id_unique;
  std::vector<std::int64_t> key_key, key_person;
  std::vector<std::int64_t> merge_absorbed, merge_survivor;  // created only
  std::vector<std::string> merge_reasons;                    // created only: one per merge_absorbed
  std::vector<std::string> merge_scores;                     // created only: EncodeScores'd
  RecordWrites records;  // created only: written by kCreatePersons
  // Created only: parts split off stored persons (split_from[i] is the
  // stored person part[i], provisional, split off), for the feed.
  std::vector<std::int64_t> split_from, split_part;
  // Never-match judgements made with created persons (a, b: either may be
  // created), written both ways.
  std::vector<std::int64_t> never_a, never_b;

  // The chunk's possible matches (either id may be created; kCreatePersons
  // writes them when the chunk creates a person, else DeferPossibleMatches).
  PossibleWrites possible;

  // The whole traits of `owner`, to be written.
  void AddTraits(std::int64_t owner, const Traits& traits);
  // Identifiers `ids` for `person`.
  void AddIdentifiers(std::int64_t person, const NewIdentifiers& ids);
  // Match keys `keys` for `person`.
  void AddMatchKeys(std::int64_t person, std::span<const std::int64_t> keys);
};

// The writes below are sent with the transaction's next statement or its
// COMMIT (Tx::Defer); their errors are thrown there. Each appends the change
// rows of the persons it writes (engine/detail/change_log.h): call them
// after the transaction's last lock.

// Writes the stored persons of `w` (kUpdatePersons), each changed ('updated'),
// with the next message; nothing when it names none.
void DeferUpdates(Tx& tx, const PersonWrites& w);

// Adds the match keys of `w` (kAddMatchKeys) with the next message, keys
// held already kept; nothing when it names none.
void DeferAddMatchKeys(Tx& tx, const PersonWrites& w);

// Writes the records of stored persons (kWriteRecords) with the next
// message; nothing when there are none.
void DeferRecordWrites(Tx& tx, const RecordWrites& w);

// What stored persons lost to a withdrawn record (kShrinkPersons): values
// and match keys, deleted with the next message.
struct PersonLosses {
  std::vector<std::int64_t> id_person;
  std::vector<std::string> id_type, id_value;
  std::vector<std::int64_t> key_key, key_person;
  bool empty() const { return id_person.empty() && key_key.empty(); }
};
void DeferShrink(Tx& tx, const PersonLosses& losses);

// Deletes the records `rows` and removes the persons `emptied` (no record
// left) with the next message (kDropRecords); nothing when both are empty.
void DeferDropRecords(Tx& tx, std::span<const std::int64_t> rows,
                      std::span<const std::int64_t> emptied);

// Writes the created persons of `w` (kCreatePersons: each 'created', and
// 'merged' after it when merged away) and commits, with whatever is
// pending, in one round trip; returns the real id of each provisional one.
std::map<std::int64_t, std::int64_t> CreateAndCommit(Tx& tx, const PersonWrites& w);

// Moves the identifiers of `absorbed` to `survivor`, redirects their ids (and
// older redirects to them) to `survivor`, and deletes them ('merged' into
// `survivor`, which the caller writes with DeferUpdates: 'updated').
// `scores`: each merge's EncodeScores'd breakdown, or none.
void MergeInto(Tx& tx, std::int64_t survivor, std::span<const std::int64_t> absorbed,
               const std::vector<std::string>& reasons,
               const std::vector<std::string>& scores = {});

// Stores the possible matches `w` (real ids; kWritePossibleMatches) with the
// next message; nothing when there are none.
void DeferPossibleMatches(Tx& tx, const PossibleWrites& w);

// The survivor an id was merged into, if it was.
std::optional<std::int64_t> ResolveMerged(Tx& tx, std::int64_t id);

// The persons holding (type, value), ascending, at most `limit`.
std::vector<std::int64_t> FindByIdentifier(Tx& tx, const Identifier& id, std::size_t limit);

StoreStats ReadStats(Tx& tx);

// Every stored identifier as (person, identifier), ordered by person.
std::vector<std::pair<std::int64_t, Identifier>> ReadAllIdentifiers(Tx& tx);

// Every record's values (record values sorted), by person: reconcile's scan.
std::map<std::int64_t, std::vector<std::vector<Identifier>>> ReadAllRecordValues(Tx& tx);

// Deletes person `id`'s stored values `stale` and all its match keys, with
// the next message.
void DropStaleValues(Tx& tx, std::int64_t id, const std::vector<Identifier>& stale);

// Rewrites, with the next message, the values of person `id`'s records:
// each of `stale` becomes `today[i]`, its form today (kRenormalizeRecords).
void DeferRenormalizeRecords(Tx& tx, std::int64_t id, const std::vector<Identifier>& stale,
                             const std::vector<Identifier>& today);

// A trivial query: throws when the database does not answer.
void Ping(Tx& tx);

}  // namespace idres::detail
