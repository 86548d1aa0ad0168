// The engine's read-only methods: GetPerson, Lookup, Stats, Healthy.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "engine/detail/engine_impl.h"
#include "engine/detail/store.h"
#include "engine/engine.h"

namespace idres {
namespace {

Person ToPerson(detail::StoredPerson&& p) {
  Person out;
  out.id = p.id;
  out.identifiers = std::move(p.identifiers);
  out.traits = std::move(p.traits);
  out.created_at = std::move(p.created_at);
  out.updated_at = std::move(p.updated_at);
  return out;
}

}  // namespace

std::optional<Person> Engine::Impl::ReadPerson(detail::Tx& tx, std::int64_t id) {
  // A live id can be merged away between the two statements; a few rounds
  // reach the survivor (redirects are repointed, so one hop suffices).
  for (int round = 0; round < 3; ++round) {
    const std::optional<std::int64_t> survivor = detail::ResolveMerged(tx, id);
    const std::int64_t target = survivor.value_or(id);
    const std::int64_t ids[] = {target};
    auto persons = detail::ReadPersons(tx, ids);
    auto it = persons.find(target);
    if (it == persons.end()) continue;
    Person out = ToPerson(std::move(it->second));
    if (survivor) out.redirected_from = id;
    return out;
  }
  return std::nullopt;
}

std::optional<Person> Engine::GetPerson(std::int64_t id, const Deadline& deadline) {
  std::optional<Person> out;
  impl_->RunTx(
      [&](detail::Tx& tx) {
        out = impl_->ReadPerson(tx, id);
        if (!out) return;
        const std::int64_t ids[] = {out->id};
        auto records = detail::ReadRecordsOf(tx, ids);
        std::vector<detail::StoredRecord>& mine = records[out->id];
        for (const detail::StoredRecord& r : mine) {
          out->records.push_back({r.source, r.record_id, r.created_at, r.updated_at});
        }
        // Latest written first: the first record saying a trait's value wrote it.
        std::sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) {
          return std::tie(a.updated_at, a.row) > std::tie(b.updated_at, b.row);
        });
        for (const auto& [key, value] : out->traits) {
          for (const detail::StoredRecord& r : mine) {
            const auto it = r.traits.find(key);
            if (it == r.traits.end() || it->second != value) continue;
            out->trait_sources[key] = RecordRef{r.source, r.record_id};
            break;
          }
        }
      },
      deadline);
  return out;
}

std::variant<std::vector<Person>, Rejection> Engine::Lookup(const RawIdentifier& identifier,
                                                            std::string_view region,
                                                            const Deadline& deadline) {
  NormalizeResult n = impl_->normalizer.Normalize(identifier.type, identifier.value, region);
  if (auto* rejection = std::get_if<Rejection>(&n)) return std::move(*rejection);
  const Identifier& id = std::get<Identifier>(n);
  std::vector<Person> out;
  impl_->RunTx(
      [&](detail::Tx& tx) {
        out.clear();
        const std::vector<std::int64_t> ids = detail::FindByIdentifier(tx, id, kMaxLookupPersons);
        auto persons = detail::ReadPersons(tx, ids);
        std::set<std::int64_t> seen;
        for (std::int64_t pid : ids) {
          auto it = persons.find(pid);
          // A holder merged away between the statements is followed to its
          // survivor (perhaps another holder); the caller named no id, so
          // there is no id of theirs to redirect from.
          std::optional<Person> p =
              it != persons.end() ? ToPerson(std::move(it->second)) : impl_->ReadPerson(tx, pid);
          if (!p || !seen.insert(p->id).second) continue;
          p->redirected_from.reset();
          out.push_back(std::move(*p));
        }
      },
      deadline);
  return out;
}

StoreStats Engine::Stats() {
  StoreStats out;
  impl_->RunTx([&](detail::Tx& tx) { out = detail::ReadStats(tx); });
  return out;
}

bool Engine::Healthy() {
  try {
    impl_->RunTx([](detail::Tx& tx) { detail::Ping(tx); });
    return true;
  } catch (const EngineError& e) {
    spdlog::warn("health check failed: {}", e.what());
    return false;
  }
}

}  // namespace idres
