#include "engine/detail/resolve.h"

#include <algorithm>

#include "engine/detail/batch_resolver.h"
#include "engine/detail/batch_writer.h"
#include "engine/detail/store.h"

namespace idres::detail {
namespace {

// Sorts `v` and drops repeats.
template <typename T>
void Dedup(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// What the candidate read of all `todo` looks up.
LockPlan Lookups(const std::vector<PreparedRecord>& records, const std::vector<std::size_t>& todo) {
  LockPlan all;
  for (std::size_t i : todo) {
    const LockPlan& p = records[i].plan;
    all.lookups.insert(all.lookups.end(), p.lookups.begin(), p.lookups.end());
    all.match_keys.insert(all.match_keys.end(), p.match_keys.begin(), p.match_keys.end());
  }
  Dedup(all.lookups);
  Dedup(all.match_keys);
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
  const LockPlan all = Lookups(records, todo);
  for (int round = 0; round < kCandidateRounds; ++round) {
    std::vector<std::int64_t> ids;
    for (const Candidate& c : ReadCandidates(tx, all)) ids.push_back(c.person_id);
    Dedup(ids);
    // Lock, then re-read: deciding on the candidate read would write stale
    // data over a concurrent commit (the lost update). One round trip: the
    // re-read is a statement of its own, after the row locks, so it sees
    // every person as the lock left it, and misses one merged away. No
    // candidate (new persons only): neither sends a statement.
    if (!ctx.skip_locks) LockPersonsWithNext(tx, ids);
    auto persons = ReadPersons(tx, ids);
    if (persons.size() != ids.size()) continue;
    BatchResolver resolver(ctx.matcher, std::move(persons), ctx.max_person_traits);
    std::vector<UpsertResult*> written;
    for (std::size_t i : todo) {
      results[i] = resolver.Apply(records[i]);
      if (results[i].ok()) written.push_back(&results[i]);
    }
    if (decided) decided();
    WriteBatchAndCommit(tx, resolver, ctx.planner, ctx.matcher.config(), written);
    return;
  }
  throw VanishedPersonError();
}

}  // namespace idres::detail
