// Random stress: whatever order records arrive in, the persons in the store
// are exactly the connected components of the records linked by shared
// identifiers.
#include <catch2/catch.hpp>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/race_check.h"

namespace idres::testing {
namespace {

constexpr int kPeople = 200;
constexpr int kRecords = 2000;
constexpr int kThreads = 16;

std::vector<Record> GenerateRecords() {
  std::mt19937 rng(20261130);
  std::vector<Record> records;
  for (int r = 0; r < kRecords; ++r) {
    const int j = std::uniform_int_distribution<int>(0, kPeople - 1)(rng);
    char phone[32];
    std::snprintf(phone, sizeof phone, "+49170%07d", j);
    const std::vector<RawIdentifier> all = {{"email", "p" + std::to_string(j) + "@stress.org"},
                                            {"phone", phone},
                                            {"cookie", "ck" + std::to_string(j)},
                                            {"device_id", "dev" + std::to_string(j)},
                                            {"customer_id", "cu" + std::to_string(j)}};
    Record rec;
    while (rec.identifiers.empty()) {
      for (const auto& id : all) {
        if (std::bernoulli_distribution(0.3)(rng)) rec.identifiers.push_back(id);
      }
    }
    records.push_back(std::move(rec));
  }
  return records;
}

// Union-find over normalized identifiers: one set per expected person.
class Components {
 public:
  explicit Components(const std::vector<Record>& records) {
    const Normalizer normalizer(Model::Defaults().Normalizing());
    for (const Record& r : records) {
      std::vector<int> members;
      for (const auto& raw : r.identifiers) {
        const auto id = std::get<Identifier>(normalizer.Normalize(raw.type, raw.value));
        members.push_back(Index(id.type + ":" + id.value));
      }
      for (int m : members) Union(members.front(), m);
    }
  }
  std::string RootOf(const std::string& id) { return names_[Find(index_.at(id))]; }
  const std::map<std::string, int>& identifiers() const { return index_; }
  std::size_t count() {
    std::set<int> roots;
    for (const auto& [name, i] : index_) roots.insert(Find(i));
    return roots.size();
  }

 private:
  int Index(const std::string& id) {
    auto [it, added] = index_.emplace(id, static_cast<int>(parent_.size()));
    if (added) {
      parent_.push_back(it->second);
      names_.push_back(id);
    }
    return it->second;
  }
  int Find(int i) { return parent_[i] == i ? i : parent_[i] = Find(parent_[i]); }
  void Union(int a, int b) { parent_[Find(a)] = Find(b); }

  std::map<std::string, int> index_;
  std::vector<int> parent_;
  std::vector<std::string> names_;
};

std::string CompareWithStore(const TestDatabase& db, Components& expected) {
  std::map<std::string, std::int64_t> holder;  // "type:value" -> person
  for (const auto& row : db.Rows("SELECT type || ':' || value, person_id FROM identifiers")) {
    if (!holder.emplace(row[0], std::stoll(row[1])).second) return "held twice: " + row[0];
  }
  if (holder.size() != expected.identifiers().size()) return "identifier count differs";
  std::map<std::string, std::int64_t> person_of_root;
  std::map<std::int64_t, std::string> root_of_person;
  for (const auto& [id, i] : expected.identifiers()) {
    auto it = holder.find(id);
    if (it == holder.end()) return "missing: " + id;
    const std::string root = expected.RootOf(id);
    auto [p, new_root] = person_of_root.emplace(root, it->second);
    if (p->second != it->second) return "one component split over persons: " + id;
    auto [r, new_person] = root_of_person.emplace(it->second, root);
    if (r->second != root) return "one person holds two components: " + id;
  }
  const auto persons = PersonCount(db);
  if (persons != static_cast<std::int64_t>(expected.count())) {
    return "persons " + std::to_string(persons) + ", components " +
           std::to_string(expected.count());
  }
  return "";
}

TEST_CASE("stress: persons are the connected components of the records", "[pg][race]") {
  const std::vector<Record> records = GenerateRecords();
  auto expected = std::make_shared<Components>(records);
  Race race;
  race.threads = kThreads;
  race.locked_rounds = 1;
  race.unlocked_rounds = 10;
  race.work = [&records](Engine& engine, int i, bool locks) {
    for (int r = i; r < kRecords; r += kThreads) RaceUpsert(engine, records[r], locks);
  };
  race.violation = [expected](const TestDatabase& db, Engine&) {
    return CompareWithStore(db, *expected);
  };
  CheckRace(race);
}

}  // namespace
}  // namespace idres::testing
