// ForgetPerson (erasure, GDPR Art. 17) and Removal. The erasure takes the
// upsert's locks in the upsert's order (README.md, "Records, judgements and
// the change feed"): every key of the person in one sorted statement, then
// its row; the keys are learnt by a read before the transaction, and a
// person that gained one meanwhile makes the erasure plan again.
#include "engine/detail/engine_impl.h"
#include "engine/detail/merge_helpers.h"
#include "engine/detail/resolve.h"
#include "engine/detail/statements.h"
#include "engine/detail/store.h"
#include "engine/engine.h"

namespace idres {
namespace {

// The live person `id` names and every key it can be found through.
struct Target {
  std::int64_t person = 0;
  std::vector<std::int64_t> keys;
};

std::optional<Target> ReadTarget(detail::Tx& tx, const LockPlanner& planner, std::int64_t id) {
  const std::int64_t person = detail::ResolveMerged(tx, id).value_or(id);
  const std::int64_t ids[] = {person};
  const auto persons = detail::ReadPersons(tx, ids);
  if (persons.empty()) return std::nullopt;
  return Target{person, detail::PersonLockKeys(planner, persons.begin()->second.identifiers)};
}

}  // namespace

std::optional<ErasedPerson> Engine::ForgetPerson(std::int64_t id, const Deadline& deadline) {
  for (int plan = 0;; ++plan) {
    std::optional<Target> planned;
    impl_->RunTx([&](detail::Tx& tx) { planned = ReadTarget(tx, impl_->planner, id); }, deadline);
    if (!planned) return std::nullopt;
    std::optional<ErasedPerson> erased;
    try {
      impl_->RunLockedTx(
          planned->keys,
          [&](detail::Tx& tx) {
            erased.reset();
            const std::optional<Target> now = ReadTarget(tx, impl_->planner, id);
            if (!now) return;  // erased or emptied meanwhile
            const std::int64_t ids[] = {now->person};
            if (!impl_->seams.skip_locks) {
              if (now->person != planned->person || now->keys != planned->keys ||
                  detail::LockPersons(tx, ids).empty()) {
                throw detail::KeysGrewError();
              }
            }
            ErasedPerson out;
            out.person_id = now->person;
            for (const auto& row : tx.Exec(detail::kErasePerson, now->person)) {
              out.erased_ids.push_back(row[0].as<std::int64_t>());
            }
            std::sort(out.erased_ids.begin(), out.erased_ids.end());
            erased = std::move(out);
          },
          deadline);
      return erased;
    } catch (const detail::KeysGrewError& e) {
      if (plan >= impl_->options.max_retries) throw ConflictError(e.what());
    }
  }
}

std::optional<PersonRemoval> Engine::Removal(std::int64_t id, const Deadline& deadline) {
  std::optional<PersonRemoval> out;
  impl_->RunTx(
      [&](detail::Tx& tx) {
        out.reset();
        const auto rows = tx.Exec(detail::kReadRemoval, id);
        if (!rows.empty())
          out = PersonRemoval{rows[0][0].as<std::string>(), rows[0][1].as<std::string>()};
      },
      deadline);
  return out;
}

}  // namespace idres
