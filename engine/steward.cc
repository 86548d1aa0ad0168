// A steward's calls on whole persons: ForgetPerson (erasure, GDPR Art. 17),
// NeverMatch, AlwaysMatch, and Removal. Each takes the upsert's locks in the
// upsert's order (docs/design.md, "Records, judgements and the change feed"):
// every key of the persons in one sorted statement, then their rows,
// ascending. The keys are learnt by a read before the transaction; a person
// that gained one meanwhile (or was merged away) makes the call plan again.
// Each action names its actor before it writes and appends its audit entry
// (engine/detail/audit_log.h), in its own transaction.
#include <algorithm>

#include "engine/detail/audit_log.h"
#include "engine/detail/engine_impl.h"
#include "engine/detail/explain_decision.h"
#include "engine/detail/merge_helpers.h"
#include "engine/detail/resolve.h"
#include "engine/detail/statements.h"
#include "engine/detail/store.h"
#include "engine/engine.h"

namespace idres {
namespace {

// The live persons `ids` name (following redirects; ascending, unique) and
// every key they can be found through; nullopt when one names none.
struct Targets {
  std::vector<std::int64_t> persons;
  std::vector<std::int64_t> keys;
  friend bool operator==(const Targets&, const Targets&) = default;
};

std::optional<Targets> ReadTargets(detail::Tx& tx, const LockPlanner& planner,
                                   std::span<const std::int64_t> ids) {
  Targets t;
  for (std::int64_t id : ids) t.persons.push_back(detail::ResolveMerged(tx, id).value_or(id));
  detail::Dedup(t.persons);
  const auto persons = detail::ReadPersons(tx, t.persons);
  if (persons.size() != t.persons.size()) return std::nullopt;
  for (const auto& [id, p] : persons) {
    const auto keys =
        detail::PersonLockKeys(planner, p.identifiers, detail::VariantsOf(planner, p));
    t.keys.insert(t.keys.end(), keys.begin(), keys.end());
  }
  detail::Dedup(t.keys);
  return t;
}

}  // namespace

// Runs `fn(tx, persons)` on the live persons `ids` name, under their keys
// and row locks; false (nothing run) when one of them names no live person.
bool Engine::OnPersons(std::span<const std::int64_t> ids,
                       const std::function<void(detail::Tx&, const std::vector<std::int64_t>&)>& fn,
                       const Deadline& deadline) {
  bool found = false;
  detail::Replanning(impl_->options.max_retries, [&] {
    found = false;
    std::optional<Targets> planned;
    impl_->RunTx([&](detail::Tx& tx) { planned = ReadTargets(tx, impl_->planner, ids); }, deadline);
    if (!planned) return;
    impl_->RunLockedTx(
        planned->keys,
        [&](detail::Tx& tx) {
          found = false;
          const std::optional<Targets> now = ReadTargets(tx, impl_->planner, ids);
          if (!now) return;  // erased or emptied meanwhile
          if (!impl_->seams.skip_locks &&
              (*now != *planned ||
               detail::LockPersons(tx, now->persons).size() != now->persons.size())) {
            throw detail::KeysGrewError();
          }
          fn(tx, now->persons);
          found = true;
        },
        deadline);
  });
  return found;
}

std::optional<ErasedPerson> Engine::ForgetPerson(std::int64_t id, const Deadline& deadline,
                                                 std::string_view actor) {
  ErasedPerson out;
  const std::int64_t ids[] = {id};
  // The request names the id asked for; the entry's persons, every id
  // erased. Nothing else: no value of the person.
  const detail::AuditNote note{actor, "ForgetPerson", detail::PersonRequest(id)};
  const bool done = OnPersons(
      ids,
      [&](detail::Tx& tx, const std::vector<std::int64_t>& persons) {
        out = ErasedPerson{persons.front(), {}};
        detail::SetActor(tx, note);
        for (const auto& row : tx.Exec(detail::kErasePerson, persons.front())) {
          out.erased_ids.push_back(row[0].as<std::int64_t>());
        }
        std::sort(out.erased_ids.begin(), out.erased_ids.end());
        detail::WriteAudit(tx, note, out.erased_ids);
      },
      deadline);
  if (!done) return std::nullopt;
  return out;
}

JudgeResult Engine::NeverMatch(std::int64_t a, std::int64_t b, const Deadline& deadline,
                               std::string_view actor) {
  JudgeResult out = JudgeResult::kNoPerson;
  const std::int64_t ids[] = {a, b};
  const detail::AuditNote note{actor, "NeverMatch", detail::PairRequest(a, b)};
  OnPersons(
      ids,
      [&](detail::Tx& tx, const std::vector<std::int64_t>& persons) {
        if (persons.size() < 2) {
          out = JudgeResult::kSamePerson;
          return;
        }
        detail::SetActor(tx, note);
        tx.Defer(detail::kJudgeNever, persons[0], persons[1]);
        detail::WriteAudit(tx, note, persons);
        out = JudgeResult::kDone;
      },
      deadline);
  return out;
}

std::optional<ReconcileResult> Engine::AlwaysMatch(std::int64_t a, std::int64_t b,
                                                   const Deadline& deadline,
                                                   std::string_view actor) {
  const std::int64_t ids[] = {a, b};
  std::vector<std::int64_t> live;
  const detail::AuditNote note{actor, "AlwaysMatch", detail::PairRequest(a, b)};
  const bool found = OnPersons(
      ids,
      [&](detail::Tx& tx, const std::vector<std::int64_t>& persons) {
        live = persons;
        if (persons.size() < 2) return;  // one person already: nothing to judge
        detail::SetActor(tx, note);
        tx.Defer(detail::kJudgeAlways, persons[0], persons[1]);
        detail::WriteAudit(tx, note, persons);
      },
      deadline);
  if (!found) return std::nullopt;
  if (live.size() < 2) return ReconcileResult{live.front(), {}, 0};  // one person already
  ReconcileGroup group;
  group.person_ids = live;
  group.reasons = {"a steward said they are one"};
  return Reconcile(group);
}

std::vector<PersonEvent> Engine::GetPersonHistory(std::int64_t id, const Deadline& deadline) {
  std::vector<PersonEvent> out;
  impl_->RunTx(
      [&](detail::Tx& tx) {
        out.clear();
        const std::int64_t person = detail::ResolveMerged(tx, id).value_or(id);
        for (const auto& row : tx.Exec(detail::kReadHistory, person)) {
          PersonEvent e;
          e.at = FromMicros(row[0].as<std::int64_t>());
          e.kind = row[1].as<std::string>();
          if (!row[2].is_null()) e.other_id = row[2].as<std::int64_t>();
          if (!row[3].is_null()) e.source = row[3].as<std::string>();
          if (!row[4].is_null()) e.record_id = row[4].as<std::string>();
          if (!row[5].is_null()) e.detail = row[5].as<std::string>();
          if (!row[6].is_null()) {
            detail::KeptScores kept = detail::DecodeScores(row[6].as<std::string>());
            e.scores = std::move(kept.scores);
            e.threshold = kept.threshold;
            e.review_threshold = kept.review_threshold;
          }
          if (!row[7].is_null()) e.actor = row[7].as<std::string>();
          out.push_back(std::move(e));
        }
      },
      deadline);
  return out;
}

std::vector<AuditEntry> Engine::ReadAudit(
    std::optional<std::chrono::system_clock::time_point> since, std::int64_t after_seq,
    std::size_t limit) {
  std::vector<AuditEntry> out;
  impl_->RunTx([&](detail::Tx& tx) { out = detail::ReadAudit(tx, since, after_seq, limit); });
  return out;
}

std::optional<PersonRemoval> Engine::Removal(std::int64_t id, const Deadline& deadline) {
  std::optional<PersonRemoval> out;
  impl_->RunTx(
      [&](detail::Tx& tx) {
        out.reset();
        const auto rows = tx.Exec(detail::kReadRemoval, id);
        if (!rows.empty()) {
          out = PersonRemoval{rows[0][0].as<std::string>(),
                              FromMicros(rows[0][1].as<std::int64_t>())};
        }
      },
      deadline);
  return out;
}

}  // namespace idres
