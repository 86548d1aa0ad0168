#include "engine/detail/resolve.h"

#include "engine/detail/batch_resolver.h"
#include "engine/detail/batch_writer.h"
#include "engine/detail/store.h"

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
  }
  Dedup(all.values);
  Dedup(all.keys);
  return all;
}

}  // namespace

void ResolveAndCommit(Tx& tx, const std::vector<PreparedRecord>& records,
                      const std::vector<std::size_t>& todo, std::vector<UpsertResult>& results,
                      const UpsertContext& ctx, const std::function<void()>& decided) {
  if (todo.empty()) {
    if (decided) decided();
    tx.Commit();
    return;
  }
  const ChunkLookups all = Lookups(records, todo);
  for (int round = 0; round < kCandidateRounds; ++round) {
    CandidateRead read = ReadCandidates(tx, all.values, all.keys, ctx.matcher.model());
    const std::vector<std::int64_t> ids = read.persons;
    // Lock, then re-read: deciding on the candidate read would write stale
    // data over a concurrent commit (the lost update). One round trip: the
    // re-read is a statement of its own, after the row locks, so it sees
    // every person as the lock left it, and misses one merged away. No
    // candidate (new persons only): neither sends a statement.
    if (!ctx.skip_locks) LockPersonsWithNext(tx, ids);
    auto persons = ReadPersons(tx, ids);
    if (persons.size() != ids.size()) continue;
    BatchResolver resolver(ctx.matcher, ctx.planner, std::move(persons), std::move(read),
                           ctx.max_person_traits);
    std::vector<UpsertResult*> written;
    for (std::size_t i : todo) {
      results[i] = resolver.Apply(records[i]);
      if (results[i].ok()) written.push_back(&results[i]);
    }
    if (decided) decided();
    WriteBatchAndCommit(tx, resolver, ctx.planner, written);
    return;
  }
  throw VanishedPersonError();
}

}  // namespace idres::detail
