// The change feed tells a downstream system everything: 10,000 random
// upserts, replaces, deletes and splits from 16 connections while a
// consumer follows the feed; a consumer that applies the feed from
// position 0 then holds exactly the store's live persons and its merges.
#include <catch2/catch.hpp>

#include <atomic>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/records_check.h"
#include "tests/support/race.h"

namespace idres::testing {
namespace {

constexpr int kThreads = 16;
constexpr int kOperations = 10000;

// What a downstream system keeps from the feed alone.
struct Downstream {
  std::set<std::int64_t> live;
  std::map<std::int64_t, std::int64_t> merged_into;  // absorbed -> survivor, as said
  std::int64_t position = 0;
  std::string problem;               // the first change that made no sense
  std::map<std::string, int> kinds;  // how many of each

  void Apply(const Change& c) {
    ++kinds[std::string(ChangeKindName(c.kind))];
    if (c.position != position + 1 && problem.empty()) {
      problem = "position " + std::to_string(c.position) + " after " + std::to_string(position);
    }
    position = c.position;
    switch (c.kind) {
      case ChangeKind::kCreated:
        live.insert(c.person_id);
        break;
      case ChangeKind::kUpdated:
      case ChangeKind::kSplit:
        if (!live.contains(c.person_id) && problem.empty()) {
          problem = "a change of person " + std::to_string(c.person_id) + " it never saw created";
        }
        break;
      case ChangeKind::kMerged:
        live.erase(c.person_id);
        merged_into[c.person_id] = *c.other_id;
        break;
      case ChangeKind::kErased:
        live.erase(c.person_id);
        break;
    }
  }

  // Reads the feed from where it stopped to its end.
  void Drain(Engine& engine) {
    for (;;) {
      const auto page = engine.ListChanges(position, Engine::kMaxListChanges);
      if (page.empty()) return;
      for (const Change& c : page) Apply(c);
    }
  }

  // Where an absorbed id ends, following what the feed said; 0 when that
  // person is gone without a survivor.
  std::int64_t Final(std::int64_t id) const {
    for (int hops = 0; hops < 100000; ++hops) {
      if (live.contains(id)) return id;
      const auto it = merged_into.find(id);
      if (it == merged_into.end()) return 0;
      id = it->second;
    }
    return 0;
  }
};

// One random operation of thread `t`: mostly upserts of named records over
// small value pools (so records replace, bridge and merge), some deletes,
// some splits of a person with several records.
void Operate(Engine& engine, const TestDatabase& db, std::mt19937& random) {
  std::uniform_int_distribution<int> pick(0, 99), record(0, 1999), value(0, 1199);
  const int what = pick(random);
  const std::string id = "r" + std::to_string(record(random));
  if (what < 75) {
    Record r;
    r.source = "s";
    r.record_id = id;
    r.identifiers.push_back({"email", "e" + std::to_string(value(random)) + "@x.org"});
    if (pick(random) < 50) {
      r.identifiers.push_back({"cookie", "c" + std::to_string(value(random))});
    }
    const UpsertResult u = engine.Upsert(r);
    if (!u.ok()) FAIL("upsert refused: " << *u.error);
  } else if (what < 92) {
    engine.DeleteRecord("s", id);
  } else {
    // A person with at least two records, as the store has it now: its
    // first record against the rest. Records move meanwhile; a split
    // that no longer fits is refused and changes nothing.
    const auto rows = db.Rows(
        "SELECT person_id, record_id FROM records WHERE person_id = (SELECT person_id FROM "
        "records GROUP BY person_id HAVING count(*) > 1 ORDER BY random() LIMIT 1)"
        " ORDER BY record_id");
    if (rows.size() < 2) return;
    std::vector<std::vector<RecordRef>> groups(2);
    for (std::size_t i = 0; i < rows.size(); ++i)
      groups[i == 0 ? 0 : 1].push_back({"s", rows[i][1]});
    try {
      engine.SplitPerson(std::stoll(rows[0][0]), groups);
    } catch (const std::invalid_argument&) {
    }
  }
}

TEST_CASE("stress: a consumer of the change feed ends with the store's persons and merges",
          "[pg][records][stress]") {
  TestDatabase db;
  auto engine = MakeEngine(db, kThreads + 1);
  std::atomic<int> done{0};
  std::atomic<bool> writing{true};
  Downstream follower;  // follows while the writers write
  std::thread follow([&] {
    while (writing) {
      follower.Drain(*engine);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  RunConcurrently(kThreads, [&](int t) {
    std::mt19937 random(static_cast<unsigned>(t) * 7919u + 1u);
    while (done.fetch_add(1) < kOperations) Operate(*engine, db, random);
  });
  writing = false;
  follow.join();
  follower.Drain(*engine);

  Downstream fresh;  // a consumer starting from position 0 afterwards
  fresh.Drain(*engine);
  for (const Downstream* d : {&follower, &fresh}) {
    INFO(d->problem);
    CHECK(d->problem.empty());
    std::set<std::int64_t> live;
    for (const auto& row : db.Rows("SELECT id FROM persons")) live.insert(std::stoll(row[0]));
    CHECK(d->live == live);
    // Every redirect the store keeps ends where the feed says it ends.
    std::size_t redirects = 0;
    for (const auto& row : db.Rows("SELECT absorbed_id, survivor_id FROM merges")) {
      ++redirects;
      INFO("absorbed " << row[0]);
      CHECK(d->Final(std::stoll(row[0])) == std::stoll(row[1]));
    }
    // And every id the feed says was absorbed into a live person is such a
    // redirect (others ended in a person that is gone).
    std::size_t reaching = 0;
    for (const auto& [absorbed, survivor] : d->merged_into) reaching += d->Final(absorbed) != 0;
    CHECK(reaching == redirects);
  }
  CHECK(follower.position == fresh.position);
  CHECK(StoreInconsistency(db).empty());
  // The run exercised what it claims to: splits (by deletes and by a
  // steward) and persons gone without a survivor.
  CHECK(fresh.kinds["split"] > 0);
  CHECK(fresh.kinds["erased"] > 0);
  CHECK(fresh.kinds["merged"] > 0);
  WARN(fresh.position << " changes (" << fresh.kinds["created"] << " created, "
                      << fresh.kinds["merged"] << " merged, " << fresh.kinds["split"] << " split, "
                      << fresh.kinds["erased"] << " erased), " << fresh.live.size() << " persons");
}

}  // namespace
}  // namespace idres::testing
