#include "engine/detail/resolve.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

#include "engine/detail/batch_resolver.h"
#include "engine/detail/batch_writer.h"
#include "engine/detail/merge_helpers.h"
#include "engine/detail/store.h"
#include "engine/errors.h"

namespace idres::detail {
namespace {

// Every value and blocking key of the records `todo`, sorted and unique.
struct ChunkLookups {
  std::vector<Identifier> values;
  std::vector<std::int64_t> keys;
};
ChunkLookups Lookups(const std::vector<PreparedRecord>& records,
                     const std::vector<std::size_t>& todo) {
  ChunkLookups all;
  for (std::size_t i : todo) {
    const PreparedRecord& r = records[i];
    all.values.insert(all.values.end(), r.identifiers.begin(), r.identifiers.end());
    all.keys.insert(all.keys.end(), r.plan.match_keys.begin(), r.plan.match_keys.end());
    // A withdrawal replays its person's records: their values are counted.
    all.values.insert(all.values.end(), r.prior_values.begin(), r.prior_values.end());
  }
  Dedup(all.values);
  Dedup(all.keys);
  return all;
}

// Where the stored records the chunk names are, read under their record
// keys; nothing (no statement) when it names none.
NamedRecords ReadNamed(Tx& tx, const std::vector<PreparedRecord>& records,
                       const std::vector<std::size_t>& todo) {
  std::vector<std::string> sources, ids;
  for (std::size_t i : todo) {
    for (const auto& [source, record_id] : records[i].Identities()) {
      sources.push_back(source);
      ids.push_back(record_id);
    }
  }
  NamedRecords named;
  for (const auto& [i, n] : ReadNamedRecords(tx, sources, ids)) {
    named[{sources[i], ids[i]}] = n.person_id;
  }
  return named;
}

// Throws KeysGrewError unless `held` covers every key of the persons
// records are withdrawn from.
void RequireKeysHeld(const NamedRecords& named, const std::map<std::int64_t, StoredPerson>& persons,
                     const LockPlanner& planner, std::span<const std::int64_t> held) {
  for (const auto& [identity, person] : named) {
    const StoredPerson& p = persons.at(person);
    for (std::int64_t k : PersonLockKeys(planner, p.identifiers, VariantsOf(planner, p))) {
      if (!std::binary_search(held.begin(), held.end(), k)) throw KeysGrewError();
    }
  }
}

// The persons the stored records a chunk names are under (ascending).
std::vector<std::int64_t> WithdrawnFrom(const NamedRecords& named) {
  std::vector<std::int64_t> out;
  for (const auto& [identity, person] : named) out.push_back(person);
  Dedup(out);
  return out;
}

// The stored persons the records `todo` are compared with: the holders of
// their strong values, and each record's KeyCandidates, chosen once here
// (`per_record`, by the records' index) for the read and the resolver.
std::vector<std::int64_t> Compared(const std::vector<PreparedRecord>& records,
                                   const std::vector<std::size_t>& todo, const CandidateRead& read,
                                   const Model& model,
                                   std::vector<std::vector<std::int64_t>>& per_record) {
  per_record.assign(records.size(), {});
  std::vector<std::int64_t> out = read.value_holders;
  for (std::size_t i : todo) {
    per_record[i] =
        KeyCandidates(records[i].plan.match_keys, read.key_holders, model.max_candidates);
    out.insert(out.end(), per_record[i].begin(), per_record[i].end());
  }
  Dedup(out);
  return out;
}

// The persons a chunk surely writes, row-locked before they are read: those
// its records are withdrawn from (written whatever is decided) and those
// holding one of its strong values (the ones it most likely joins).
std::vector<std::int64_t> SurelyWritten(const std::vector<std::int64_t>& withdrawn_from,
                                        const CandidateRead& read) {
  std::vector<std::int64_t> out = withdrawn_from;
  out.insert(out.end(), read.value_holders.begin(), read.value_holders.end());
  Dedup(out);
  return out;
}

// Whether the stored persons `written` (those `locked` before the read
// aside) are, once row-locked, as `as_read` holds them. One round trip: the
// lock is sent with the re-read; none when all were locked before.
bool WrittenAsRead(Tx& tx, const std::vector<std::int64_t>& written,
                   const std::vector<std::int64_t>& locked,
                   const std::map<std::int64_t, StoredPerson>& as_read) {
  std::vector<std::int64_t> to_lock;
  std::set_difference(written.begin(), written.end(), locked.begin(), locked.end(),
                      std::back_inserter(to_lock));
  if (to_lock.empty()) return true;
  LockPersonsWithNext(tx, to_lock);
  const std::map<std::int64_t, StoredPerson> now = ReadPersons(tx, to_lock);
  for (std::int64_t id : to_lock) {
    const auto a = as_read.find(id);
    const auto b = now.find(id);
    if (a == as_read.end() || b == now.end()) return false;
    const StoredPerson &x = a->second, &y = b->second;
    if (x.updated_at != y.updated_at || x.identifiers != y.identifiers || x.traits != y.traits ||
        x.never != y.never || x.record_values != y.record_values) {
      return false;
    }
  }
  return true;
}

}  // namespace

void Replanning(int max_retries, const std::function<void()>& attempt,
                const std::function<void()>& replan) {
  for (int plan = 0;; ++plan) {
    try {
      attempt();
      return;
    } catch (const KeysGrewError& e) {
      if (plan >= max_retries) throw ConflictError(e.what());
      if (replan) replan();
    }
  }
}

void ResolveAndCommit(Tx& tx, const std::vector<PreparedRecord>& records,
                      const std::vector<std::size_t>& todo, std::vector<UpsertResult>& results,
                      const UpsertContext& ctx, std::span<const std::int64_t> held,
                      const std::function<void()>& decided) {
  if (todo.empty()) {
    if (decided) decided();
    tx.Commit();
    return;
  }
  const ChunkLookups all = Lookups(records, todo);
  const NamedRecords named = ReadNamed(tx, records, todo);
  const std::vector<std::int64_t> withdrawn_from = WithdrawnFrom(named);
  for (int round = 0; round < kCandidateRounds; ++round) {
    CandidateRead read = ReadCandidates(tx, all.values, all.keys, ctx.matcher.model());
    std::vector<std::vector<std::int64_t>> key_candidates;
    std::vector<std::int64_t> ids =
        Compared(records, todo, read, ctx.matcher.model(), key_candidates);
    ids.insert(ids.end(), withdrawn_from.begin(), withdrawn_from.end());
    Dedup(ids);
    // Candidates found through a blocking key only are read without row
    // locks (docs/design.md, step 5): what a record is compared with shares
    // its keys, and those are locked.
    const std::vector<std::int64_t> locked = SurelyWritten(withdrawn_from, read);
    if (!ctx.skip_locks) LockPersonsWithNext(tx, locked);
    auto persons = ReadPersons(tx, ids);
    if (persons.size() != ids.size()) {
      // A record's person merged away meanwhile: its record moved.
      for (std::int64_t p : withdrawn_from) {
        if (!persons.contains(p)) throw KeysGrewError();
      }
      continue;
    }
    // A withdrawal replays every record of its person, and of each person
    // the chunk may merge into it.
    std::map<std::int64_t, std::vector<StoredRecord>> stored_records;
    if (!named.empty()) {
      if (!ctx.skip_locks) RequireKeysHeld(named, persons, ctx.planner, held);
      stored_records = ReadRecordsOf(tx, ids);
    }
    const std::map<std::int64_t, StoredPerson> as_read = persons;
    BatchResolver resolver(ctx.matcher, ctx.planner, std::move(persons), std::move(read),
                           ctx.max_person_traits, std::move(stored_records), named);
    std::vector<UpsertResult*> written;
    for (std::size_t i : todo) {
      results[i] = resolver.Apply(records[i], key_candidates[i]);
      if (results[i].ok()) written.push_back(&results[i]);
    }
    if (ctx.dry_run) return;
    // Lock what the chunk writes, then re-read it: deciding on an unlocked
    // read would write stale data over a concurrent commit (the lost
    // update). A person changed or merged away meanwhile: decide again.
    if (!ctx.skip_locks && !WrittenAsRead(tx, resolver.StoredWritten(), locked, as_read)) {
      continue;
    }
    if (decided) decided();
    WriteBatchAndCommit(tx, resolver, ctx.planner, written);
    return;
  }
  throw VanishedPersonError();
}

}  // namespace idres::detail
