#include "tests/engine/change_feed.h"

#include <map>

namespace idres::testing {

Said SaidBy(const Change& c) { return {c.person_id, c.kind, c.other_id.value_or(0)}; }

std::vector<Said> SaidBy(const std::vector<Change>& changes) {
  std::vector<Said> out;
  for (const Change& c : changes) out.push_back(SaidBy(c));
  return out;
}

std::vector<Change> AllChanges(Engine& engine, std::int64_t after) {
  Consumer consumer(engine, after);
  consumer.Drain();
  return consumer.seen();
}

std::vector<std::pair<std::int64_t, std::vector<ChangeKind>>> KindsByPerson(
    const std::vector<Change>& changes) {
  std::map<std::int64_t, std::vector<ChangeKind>> by;
  for (const Change& c : changes) by[c.person_id].push_back(c.kind);
  return {by.begin(), by.end()};
}

std::vector<Change> Consumer::Poll() {
  std::vector<Change> page = engine_.ListChanges(last_, Engine::kMaxListChanges);
  if (!page.empty()) last_ = page.back().position;
  seen_.insert(seen_.end(), page.begin(), page.end());
  return page;
}

void Consumer::Drain() {
  while (!Poll().empty()) {
  }
}

std::vector<Said> NumberedRows(const TestDatabase& db) {
  std::vector<Said> out;
  for (const auto& r : db.Rows("SELECT person_id, kind, COALESCE(other_id, 0) FROM changes"
                               " WHERE position IS NOT NULL ORDER BY position")) {
    out.push_back({std::stoll(r[0]), *ParseChangeKind(r[1]), std::stoll(r[2])});
  }
  return out;
}

}  // namespace idres::testing
