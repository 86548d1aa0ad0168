// The values that go into and come out of the engine: records to upsert,
// persons as stored, and the result of an upsert. Plain values, no database
// types; safe to copy between threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "engine/explanation.h"
#include "engine/timestamp.h"
#include "normalize/identifier.h"

namespace idres {

// A trait is a flat value: string, number or boolean.
using TraitValue = std::variant<std::string, double, bool>;
using Traits = std::map<std::string, TraitValue>;

// An identifier as a caller sent it, before normalization.
struct RawIdentifier {
  std::string type;
  std::string value;
};

struct Record {
  std::vector<RawIdentifier> identifiers;
  Traits traits;               // added key by key over the person's; a key given wins
  std::string default_region;  // for phones; empty: the configured default
  // The record's identity (docs/design.md, "Records, judgements and the change
  // feed"): the system it comes from ("crm"; empty: "default") and its id
  // there. A stored (source, record_id) is replaced; an empty record_id is
  // generated and returned.
  std::string source;
  std::string record_id;
  // The result carries the breakdown of the decision (UpsertResult::explanation).
  bool explain = false;
};

enum class Outcome { kCreated, kUpdated, kMerged, kUnchanged };

// The result of one upsert. When `error` is set the record was rejected whole
// (nothing was written) and `rejected` says why per identifier.
struct UpsertResult {
  std::int64_t person_id = 0;
  Outcome outcome = Outcome::kUnchanged;
  double score = 0.0;                           // the survivor's score; 0 when created
  std::vector<std::int64_t> merged_person_ids;  // ids merged into person_id
  std::vector<Rejection> rejected;              // identifiers left out
  // Values held by more persons than their type's generic cap: they brought
  // no candidates and weighed nothing (docs/matching.md, "Generic values").
  std::vector<Identifier> generic;
  std::string source, record_id;  // the record's identity (record_id generated if none was given)
  // Persons that split off the record's previous person when it was
  // replaced or deleted: its other records no longer held together.
  std::vector<std::int64_t> split_person_ids;
  bool person_removed = false;       // a deletion took the person's last record
  std::optional<std::string> error;  // record rejected whole
  // A delete or a split that found the records it names otherwise than
  // asked (with `error` saying which): one is not stored, they are not the
  // person's, or (a split) two groups would hold a value only one person
  // may hold.
  enum class NotApplied { kNoSuchRecord, kNotThePersons, kSharedExclusive };
  std::optional<NotApplied> not_applied;
  std::optional<Explanation> explanation;  // Record::explain: why

  bool ok() const { return !error.has_value(); }
};

// What Engine::DeleteRecord did.
struct DeletedRecord {
  std::int64_t person_id = 0;   // the person the record belonged to
  bool person_removed = false;  // it had no other record: it is gone
  // Persons split off it: its other records no longer held together.
  std::vector<std::int64_t> split_person_ids;
};

// What Engine::ForgetPerson erased.
struct ErasedPerson {
  std::int64_t person_id = 0;            // the live person
  std::vector<std::int64_t> erased_ids;  // it and every id that redirected to it, ascending
};

// A stored record, by its identity.
struct RecordRef {
  std::string source;  // empty: "default"
  std::string record_id;
};

// What Engine::SplitPerson did: the person keeps the first group's records,
// each other group became a new person (in the order of the groups). Or
// why it split nothing: a record a group names is not stored, or the
// records named are not all the person's (another's, several persons', or
// no person has that id), or two groups hold a value of an exclusive type
// (customer_id), which one person alone may hold; `reason` says which.
struct SplitResult {
  enum class Status { kDone, kNoSuchRecord, kNotThePersons, kSharedExclusive };
  Status status = Status::kDone;
  std::string reason;
  std::int64_t person_id = 0;
  std::vector<std::int64_t> part_ids;
};

// One event of a person's history (Engine::GetPersonHistory).
struct PersonEvent {
  Timestamp at;
  // "created", "split" (other_id split off it), "merged" (it was absorbed
  // into other_id), "erased", "absorbed" (other_id merged into it; detail:
  // why, with the score breakdown), "record_added", "record_replaced",
  // "record_deleted" (source, record_id), "judged_never", "judged_always"
  // (other_id).
  std::string kind;
  std::int64_t other_id = 0;  // 0: none
  std::string source, record_id;
  std::string detail;
  // "absorbed" by an upsert: each matched person's breakdown (no values),
  // and the thresholds of the model that decided.
  std::vector<CandidateScore> scores;
  double threshold = 0, review_threshold = 0;
  // Whose steward or admin action wrote the event (Engine::SplitPerson's
  // `actor`, ...); empty for the rest (upserts, imports, reconcile).
  std::string actor;
};

// What Engine::NeverMatch did.
enum class JudgeResult { kDone, kSamePerson, kNoPerson };

// Why an id names no person any more (Engine::Removal).
struct PersonRemoval {
  std::string why;  // "erased" (ForgetPerson) or "emptied" (its last record was deleted)
  Timestamp removed_at;
};

// One record of a person, as GetPerson lists them.
struct PersonRecord {
  std::string source, record_id;
  Timestamp created_at, updated_at;
};

struct Person {
  std::int64_t id = 0;
  std::vector<Identifier> identifiers;  // sorted by (type, value)
  Traits traits;
  Timestamp created_at;
  Timestamp updated_at;
  std::optional<std::int64_t> redirected_from;  // the merged-away id asked for
  // GetPerson only: its records, oldest first, and for each trait the
  // record that wrote its value last (the latest written record saying
  // that value for the key).
  std::vector<PersonRecord> records;
  std::map<std::string, RecordRef> trait_sources;
};

// Exactly-once marks for BatchUpsert: `items[i]` names records[i] within
// `job` (e.g. its byte offset in an import file). Each record's item is
// stored in the same transaction as the record; a record whose item is
// already stored is not applied again (outcome unchanged, person_id 0).
struct BatchReceipt {
  std::int64_t job = 0;
  std::vector<std::int64_t> items;  // one per record, all different

  // Throws std::invalid_argument unless there is one item per record and no
  // item twice (two records under one mark: the second would be taken for
  // the first): the precondition of every BatchUpsert that takes a receipt.
  void RequireOnePerRecord(std::size_t records) const {
    if (items.size() != records) {
      throw std::invalid_argument("BatchUpsert: one receipt item per record is needed");
    }
    if (RepeatedItem()) throw std::invalid_argument("BatchUpsert: a receipt item is repeated");
  }

  // An item that appears more than once; nullopt when all differ.
  std::optional<std::int64_t> RepeatedItem() const {
    std::vector<std::int64_t> sorted = items;
    std::sort(sorted.begin(), sorted.end());
    const auto it = std::adjacent_find(sorted.begin(), sorted.end());
    if (it == sorted.end()) return std::nullopt;
    return *it;
  }
};

// Where a batch of one stream partition's messages (a Kafka partition)
// stands, for BatchUpsert: each chunk's transaction stores its records and
// the partition's position after them together, so a consumer that starts
// at the stored position applies every message once, whenever it was
// killed. The position is the offset of the next message to apply.
struct StreamPosition {
  std::string group;  // the consumer group
  std::string topic;
  std::int32_t partition = 0;
  // The position the caller found stored (nullopt: none yet). A chunk goes
  // on only while the store still holds what the chunk before it wrote
  // (the first: this); else PositionMovedError, and the chunk writes nothing.
  std::optional<std::int64_t> from;
  // One per record, ascending: the position after its message.
  std::vector<std::int64_t> after;
  // The position after the batch's last message (>= every `after`): the
  // batch's last transaction stores it, also when no record is left to
  // apply (messages that were no records, records refused whole).
  std::int64_t end = 0;
  // Called with the indexes of the records refused, and the results so far
  // (results[i].error says why), before a transaction storing a position
  // past them commits: those refused whole before any transaction, and
  // those refused in a transaction (a person's trait cap) inside it, before
  // its COMMIT. May be called again for the same records when a transaction
  // is retried. An exception rolls the transaction back and leaves the call.
  std::function<void(const std::vector<std::size_t>& refused,
                     const std::vector<UpsertResult>& results)>
      on_refused;

  // Throws std::invalid_argument unless `after` has one position per record,
  // ascending, none past `end`, and none before `from`.
  void RequireOnePerRecord(std::size_t records) const {
    if (after.size() != records) {
      throw std::invalid_argument("BatchUpsert: one stream position per record is needed");
    }
    if (!std::is_sorted(after.begin(), after.end()) || (!after.empty() && after.back() > end) ||
        (from && !after.empty() && after.front() <= *from) || (from && end < *from)) {
      throw std::invalid_argument("BatchUpsert: stream positions must ascend from `from` to `end`");
    }
  }
};

struct StoreStats {
  std::int64_t persons = 0;       // live persons
  std::int64_t merged_away = 0;   // ids that now redirect to a survivor
  std::int64_t identifiers = 0;   // stored identifiers
  std::int64_t records = 0;       // stored records
  std::int64_t merges_today = 0;  // persons merged into another since midnight UTC
  std::int64_t splits_today = 0;  // persons split off another since midnight UTC
  std::int64_t open_pairs = 0;    // possible matches waiting for a steward
};

// Persons that should be one (Engine::FindReconcileGroups): they share a
// strong or unique identifier, or weak values reaching the threshold, once
// their stored values are normalized with today's rules; or a single person
// whose stored values are not in today's normalized form.
struct ReconcileGroup {
  std::vector<std::int64_t> person_ids;  // ascending
  std::vector<std::string> reasons;      // for people, e.g. "share phone:+491701234567"
  std::string region;                    // default region the phones were re-normalized with
};

struct ReconcileResult {
  std::int64_t survivor = 0;                    // 0: every person of the group was gone
  std::vector<std::int64_t> merged_person_ids;  // merged into survivor (redirects kept)
  std::size_t identifiers_rewritten = 0;        // stored values replaced by normalized ones
};

// The most a record may carry (EngineOptions::max_identifiers,
// max_traits); more rejects it whole. The one decision on a record's size:
// the engine applies it to every record, and a service asks it before
// queueing one (Engine::OverLimit), to answer with its own code.
struct RecordLimits {
  std::size_t max_identifiers = 100;
  std::size_t max_traits = 100;

  // Why `record` is over the limits; nullopt when it is not.
  std::optional<std::string> Refusal(const Record& record) const {
    if (record.identifiers.size() > max_identifiers) {
      return "too many identifiers: " + std::to_string(record.identifiers.size()) + " (at most " +
             std::to_string(max_identifiers) + ")";
    }
    if (record.traits.size() > max_traits) {
      return "too many traits: " + std::to_string(record.traits.size()) + " (at most " +
             std::to_string(max_traits) + ")";
    }
    return std::nullopt;
  }
};

}  // namespace idres
