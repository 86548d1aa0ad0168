// BatchResolver: steps 4 to 7 of the upsert for a whole chunk of records at
// once, in memory. It starts from the persons the chunk's candidate read
// found, locked and re-read (every key of the chunk is held, so nobody else
// can add or take one of the values the chunk looks up), and applies the
// records in order with the same decisions as ApplyRecord: match, create,
// update or merge into the oldest. Each record sees the ones before it, so
// records of one chunk that match each other end as one person. Nothing is
// written here: engine/detail/batch_writer.h turns the result into a few
// multi-row statements.
//
// Persons created by the chunk get provisional ids (kFirstProvisionalId and
// up, in creation order, so they sort after every stored person exactly as
// real ids handed out later would); the writer replaces them.
//
// Thread-safety: one per transaction attempt, one thread. Internal to
// engine/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/detail/merge_helpers.h"
#include "engine/detail/prepared_record.h"
#include "engine/detail/store.h"
#include "engine/detail/variants.h"
#include "matcher/matcher.h"

namespace idres::detail {

inline constexpr std::int64_t kFirstProvisionalId = std::int64_t{1} << 62;

// After every stored time (the year 36,000 and more): what a person touched
// in this transaction has as updated_at (clock_timestamp() at the write,
// later than what it read).
inline constexpr Timestamp kTouchedNow{std::chrono::microseconds(std::int64_t{1} << 60)};

struct BatchPerson {
  StoredPerson now;     // identifiers (sorted) and traits as the chunk left them
  bool stored = false;  // read from the database
  std::vector<Identifier> stored_identifiers;  // what the database holds (sorted)
  bool live = true;
  std::int64_t merged_into = 0;  // when !live and not removed
  bool removed = false;          // its last record was deleted
  std::int64_t split_from = 0;   // created: the person it split off, if it did
  // When merged away: why, with the score breakdown of the record that did
  // it (no values: types, levels, weights).
  std::string merge_reason;
  std::string merge_scores;  // the same breakdown, EncodeScores'd
  // Its records: every one when the chunk read them (it withdraws a
  // record), else the ones this chunk gave it. A record with row 0, or one
  // the database has under another person, is written.
  std::vector<StoredRecord> records;
  // The distinct value sets of all its records (docs/matching.md, "Evidence comes
  // from records"): what records are compared with, and its keys' source.
  Variants variants;
  std::vector<std::int64_t> stored_keys;  // the keys the database holds for it (stored only)
  // Stored, one variant, and not changed by the chunk: its variant's keys
  // are only those of the chunk's keys the candidate read found it holding,
  // all a record of the chunk can meet it through (`stored_keys` empty).
  // BatchResolver::Complete makes them whole before the chunk changes it.
  bool keys_partial = false;
  bool traits_changed = false;
  bool identifiers_changed = false;
  bool keys_changed = false;
  std::vector<std::int64_t> keys;  // blocking keys of `variants`, sorted

  bool provisional() const { return now.id >= kFirstProvisionalId; }
};

// The stored records the chunk's records name, by identity, as read under
// their record keys: the person each belongs to.
using NamedRecords = std::map<std::pair<std::string, std::string>, std::int64_t>;

// The persons (indexes into the chunk's persons) holding a value or a key:
// sorted, unique.
using Holders = std::vector<std::size_t>;

class BatchResolver {
 public:
  // `stored`: the persons the chunk's candidate read (`read`) found, re-read
  // under their row locks; `records`: every record of each of them, when
  // the chunk withdraws any (else empty); `named`: where the records the
  // chunk names are stored. `max_person_traits`: TraitsOverCap's cap.
  BatchResolver(const Matcher& matcher, const LockPlanner& planner,
                std::map<std::int64_t, StoredPerson> stored, CandidateRead read,
                std::size_t max_person_traits,
                std::map<std::int64_t, std::vector<StoredRecord>> records = {},
                NamedRecords named = {});

  // Applies one record; the result's ids may be provisional. A record that
  // names a stored one first withdraws it from its person (a replace); a
  // deletion (Operation::kDelete) only withdraws. A record that would grow a
  // person's traits past the cap comes back with an error and changes
  // nothing. `key_candidates`: the stored persons the record is compared
  // with through its blocking keys alone, as the engine chose and read them
  // (KeyCandidates).
  UpsertResult Apply(const PreparedRecord& record, std::span<const std::int64_t> key_candidates);

  // Never-match judgements the chunk made (a split's parts), each pair once;
  // ids may be provisional.
  const std::vector<std::pair<std::int64_t, std::int64_t>>& judgements() const {
    return judgements_;
  }

  // Pairs a record scored in the review band for (docs/matching.md, "Possible
  // matches"): (the person the record ended in, the candidate, the score);
  // ids may be provisional or merged away later in the chunk.
  struct Possible {
    std::int64_t a, b;
    double score;
  };
  const std::vector<Possible>& possible() const { return possible_; }

  // Rows of the stored records deleted.
  const std::vector<std::int64_t>& deleted_rows() const { return deleted_rows_; }

  // Every person, stored ones first (ascending id), then the created ones in
  // creation order.
  const std::vector<BatchPerson>& persons() const { return persons_; }

  // The stored persons the chunk's writes change (ascending): those merged
  // away, emptied or changed, the survivors they merged into, and those a
  // record moved out of. What the writer writes for a stored person is
  // always one of these; the rest were only compared.
  std::vector<std::int64_t> StoredWritten() const;

  // The live person `id` ended in (following merges); `id` when live or
  // removed.
  std::int64_t FinalId(std::int64_t id) const;
  // Whether person `id` lost its last record to a deletion.
  bool Removed(std::int64_t id) const {
    const auto it = by_id_.find(id);
    return it != by_id_.end() && persons_[it->second].removed;
  }

 private:
  BatchPerson& At(std::int64_t id);
  // Person `at` with all its blocking keys (`keys_partial` undone): before
  // the chunk changes it.
  void Complete(std::size_t at);
  // A new person of `ids` (`keys`: their blocking keys, when known).
  std::int64_t Create(const std::vector<Identifier>& ids, const Traits& traits,
                      const std::vector<std::int64_t>* keys = nullptr);
  // What the matcher sees of candidate person `at` for `record`: the
  // variants the record meets through a key or strong value that is not
  // generic. No records: the record does not meet it.
  Candidate CandidateFor(std::size_t at, const PreparedRecord& record) const;
  // Adds person `at` to the index of its values and blocking keys,
  // computing its keys; with `add` false removes it (by the keys last
  // computed).
  void Index(std::size_t at, bool add = true);
  // The persons the record could be: holding one of its strong values, or
  // one of its blocking keys that is not generic (stored persons the chunk
  // did not change: only its `key_candidates`).
  std::set<std::size_t> Candidates(const PreparedRecord& record,
                                   std::span<const std::int64_t> key_candidates) const;
  // The counts after the matched persons (survivor first) took in `fresh`.
  void Count(const std::vector<const StoredPerson*>& matched, const std::vector<Identifier>& fresh);
  // Takes record `record` out of its person (docs/design.md, "Records,
  // judgements and the change feed"): the person is rebuilt from its other
  // records, split when they no longer hold together, and removed when none
  // is left (only by a deletion: a replaced record's emptied person is
  // returned, for the record to go back into). False when no such record is
  // stored.
  bool Withdraw(const PreparedRecord& record, UpsertResult& r, std::optional<std::size_t>& emptied);
  // The person (index) holding the stored record `id` now: the one it was
  // read under, followed through merges, or the part a split earlier in the
  // chunk moved it to. None when the chunk does not name it or withdrew it.
  std::optional<std::size_t> Holding(const std::pair<std::string, std::string>& id) const;
  // Person `at` made of `records` alone: its values their union, its traits
  // their fold.
  void Rebuild(std::size_t at, std::vector<StoredRecord> records);
  // Apply's decision for a record once any withdrawal is done; `emptied`:
  // the person a replaced record left without records.
  UpsertResult Decide(const PreparedRecord& record, std::span<const std::int64_t> key_candidates,
                      std::optional<std::size_t> emptied);
  // Decide's three ways to take a record into a matched person: with no
  // value or trait new to it; the other matched persons merged into the
  // survivor (`matches`, survivor first); and the survivor taking in the
  // record's values and traits by `plan`.
  void AddUnchanged(const PreparedRecord& record, const std::vector<Identifier>& ids,
                    std::int64_t person_id);
  void Absorb(const PreparedRecord& record, const std::vector<std::int64_t>& matches);
  void Update(const PreparedRecord& record, const std::vector<Identifier>& ids, MergePlan plan,
              std::int64_t survivor_id, bool merging);
  // SplitPerson: the person's records into the record's groups.
  UpsertResult Split(const PreparedRecord& record);
  // Person `at` loses its values to a rebuild: they stop counting.
  void Uncount(std::size_t at);
  // What Withdraw changed, for Undo.
  struct UndoWithdraw {
    std::size_t at;  // the person withdrawn from, as it was
    BatchPerson person;
    std::size_t persons;  // how many persons there were
    ValueCounts counts;
    std::int64_t next_provisional;
    std::size_t deleted_rows;
  };
  void Undo();
  // Whether replacing `record` came to what was stored (the same values and
  // traits, the person as it was): an upsert sent again changes nothing.
  bool SameAgain(const PreparedRecord& record, const UpsertResult& r) const;
  // Why `record` merged `matches`: each one's score breakdown, as text for
  // people and EncodeScores'd.
  std::pair<std::string, std::string> MergeReasonFor(
      const PreparedRecord& record, const std::vector<std::int64_t>& matches) const;
  // After a record was applied: its possible matches, and with
  // record.explain its explanation (from last_decision_).
  void Review(const PreparedRecord& record, UpsertResult& r);
  // Whether a steward said persons `a` and `b` (live) are not one.
  bool Never(std::int64_t a, std::int64_t b) const;
  // A new record's state, written after every stored one.
  StoredRecord NewRecord(const PreparedRecord& record, std::vector<Identifier> values);

  const Matcher& matcher_;
  const LockPlanner& planner_;
  const std::size_t max_person_traits_;
  std::vector<BatchPerson> persons_;
  std::map<std::int64_t, std::size_t> by_id_;
  // Whether blocking key `key` may bring candidates: not generic in the
  // store, and held by no more persons than the key cap in the chunk.
  bool KeyUsable(std::int64_t key) const;
  // Every (type, value) and blocking key to the persons holding it, as the
  // chunk's decisions leave them (a few each: sorted vectors, not sets; a
  // chunk indexes thousands of keys).
  std::map<Identifier, Holders> holders_;
  std::unordered_map<std::int64_t, Holders> key_holders_;
  // How many persons hold each value of the chunk's records (read, then
  // kept up to date by the chunk's own creates and merges).
  ValueCounts counts_;
  const std::set<std::int64_t> generic_keys_;
  std::int64_t next_provisional_ = kFirstProvisionalId;
  const NamedRecords named_;
  std::optional<UndoWithdraw> undo_;
  std::vector<std::int64_t> deleted_rows_;
  std::vector<std::pair<std::int64_t, std::int64_t>> judgements_;
  std::vector<Possible> possible_;
  MatchDecision last_decision_;      // Decide's, for Review
  std::size_t records_written_ = 0;  // orders the chunk's own records
};

}  // namespace idres::detail
