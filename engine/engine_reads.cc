// The engine's read-only methods: GetPerson, Lookup, Stats, Healthy.
#include <spdlog/spdlog.h>

#include "engine/detail/engine_impl.h"
#include "engine/detail/store.h"
#include "engine/engine.h"

namespace idres {

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
    detail::StoredPerson& p = it->second;
    Person out;
    out.id = p.id;
    out.identifiers = std::move(p.identifiers);
    out.traits = std::move(p.traits);
    out.created_at = std::move(p.created_at);
    out.updated_at = std::move(p.updated_at);
    if (survivor) out.redirected_from = id;
    return out;
  }
  return std::nullopt;
}

std::optional<Person> Engine::GetPerson(std::int64_t id, const Deadline& deadline) {
  std::optional<Person> out;
  impl_->RunTx([&](detail::Tx& tx) { out = impl_->ReadPerson(tx, id); }, deadline);
  return out;
}

std::variant<std::optional<Person>, Rejection> Engine::Lookup(const RawIdentifier& identifier,
                                                              std::string_view region,
                                                              const Deadline& deadline) {
  NormalizeResult n = impl_->normalizer.Normalize(identifier.type, identifier.value, region);
  if (auto* rejection = std::get_if<Rejection>(&n)) return std::move(*rejection);
  const Identifier& id = std::get<Identifier>(n);
  std::optional<Person> out;
  impl_->RunTx(
      [&](detail::Tx& tx) {
        out.reset();
        if (auto pid = detail::FindByIdentifier(tx, id)) out = impl_->ReadPerson(tx, *pid);
        // Its holder may be merged away between the two statements; the
        // caller named no id, so there is no id of theirs to redirect from.
        if (out) out->redirected_from.reset();
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
