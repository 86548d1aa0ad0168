// The change feed under concurrency (docs/batch.md, "The change feed"): a
// transaction that commits after a later one was listed is still listed,
// once; and many writers at once, followed by consumers, leave every change
// listed exactly once, densely, each person's in a sound order. Both are
// shown failing with the sequencer switched off (EngineSeams::skip_sequencer:
// the rows listed by seq, as a sequence would number them).
#include <catch2/catch.hpp>
#include <pqxx/pqxx>

#include <atomic>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/testing.h"
#include "tests/engine/change_feed.h"
#include "tests/engine/engine_fixture.h"
#include "tests/support/race.h"

namespace idres::testing {
namespace {

std::unique_ptr<Engine> FeedReader(const TestDatabase& db, int pool_size, bool sequencer) {
  EngineSeams seams;
  seams.skip_sequencer = !sequencer;
  return EngineTesting::Make(OptionsFor(db, pool_size), std::move(seams));
}

// What a consumer sees when a transaction that inserted its change row (held
// open on a connection of its own, as a writer slowed between its write and
// its commit) commits after a later change was listed. `late` gets the
// person of that change.
std::vector<Change> LateCommitSeen(bool sequencer, std::int64_t& late) {
  TestDatabase db;
  auto engine = FeedReader(db, 2, sequencer);
  Consumer consumer(*engine);
  REQUIRE(engine->Upsert(Rec({{"email", "first@x.org"}})).ok());
  REQUIRE(consumer.Poll().size() == 1);

  pqxx::connection raw(db.url());
  pqxx::work slow(raw);
  late = slow.exec1("INSERT INTO persons DEFAULT VALUES RETURNING id")[0].as<std::int64_t>();
  slow.exec0("INSERT INTO changes (person_id, kind) VALUES (" + std::to_string(late) +
             ", 'created')");
  REQUIRE(engine->Upsert(Rec({{"email", "later@x.org"}})).ok());
  REQUIRE(consumer.Poll().size() == 1);  // the later change; the slow one is not committed
  slow.commit();
  consumer.Drain();
  return consumer.seen();
}

TEST_CASE("a change that commits late is listed once, after the ones listed before it",
          "[pg][changes][race]") {
  std::int64_t late = 0;
  const std::vector<Change> seen = LateCommitSeen(true, late);
  REQUIRE(seen.size() == 3);
  for (int i = 0; i < 3; ++i) CHECK(seen[i].position == i + 1);
  CHECK(SaidBy(seen[2]) == Said{late, ChangeKind::kCreated, 0});

  // Listed by seq, the late change sits below the position the consumer
  // already passed: it is never seen.
  const std::vector<Change> by_seq = LateCommitSeen(false, late);
  CHECK(by_seq.size() == 2);
  for (const Change& c : by_seq) CHECK(c.person_id != late);
}

constexpr int kWriters = 8;
constexpr int kConsumers = 2;
constexpr int kUpsertsEach = 40;

// A record over few values, so that upserts create, update and merge: an
// email, a cookie or both (which bridges their persons), with a trait that
// changes the person every time.
Record RandomRecord(std::mt19937& rng, int writer, int n) {
  std::uniform_int_distribution<int> value(0, 24), shape(0, 2);
  Record r;
  const int s = shape(rng);
  if (s != 1) r.identifiers.push_back({"email", "e" + std::to_string(value(rng)) + "@x.org"});
  if (s != 0) r.identifiers.push_back({"cookie", "c" + std::to_string(value(rng))});
  r.traits["last"] = static_cast<double>(writer * 1000 + n);
  return r;
}

// Writers on separate connections, all released at once, while consumers
// follow the feed; then the consumers drain it. What each consumer saw.
std::vector<std::vector<Change>> FollowWhileWriting(const TestDatabase& db, bool sequencer) {
  auto writers = MakeEngine(db, kWriters);
  REQUIRE(writers->options().pool_size >= kWriters);
  auto readers = FeedReader(db, kConsumers, sequencer);
  std::atomic<int> writing{kWriters};
  std::vector<std::vector<Change>> seen(kConsumers);
  RunConcurrently(kWriters + kConsumers, [&](int i) {
    if (i < kWriters) {
      std::mt19937 rng(static_cast<unsigned>(i));
      for (int n = 0; n < kUpsertsEach; ++n) {
        const UpsertResult r = writers->Upsert(RandomRecord(rng, i, n));
        if (!r.ok()) FAIL("upsert refused: " << *r.error);
      }
      --writing;
      return;
    }
    Consumer consumer(*readers);
    while (writing.load() > 0) consumer.Poll();
    consumer.Drain();
    seen[i - kWriters] = consumer.seen();
  });
  return seen;
}

// Why `seen` is not the whole feed in a sound order ("" when it is).
std::string Unsound(const TestDatabase& db, const std::vector<Change>& seen) {
  const std::int64_t rows = db.Count("SELECT count(*) FROM changes");
  if (static_cast<std::int64_t>(seen.size()) != rows) {
    return "saw " + std::to_string(seen.size()) + " of " + std::to_string(rows) + " changes";
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (seen[i].position != static_cast<std::int64_t>(i + 1)) {
      return "position " + std::to_string(seen[i].position) + " at " + std::to_string(i + 1);
    }
  }
  if (SaidBy(seen) != NumberedRows(db)) return "what was seen is not what the table holds";
  for (const auto& [person, kinds] : KindsByPerson(seen)) {
    if (kinds.front() != ChangeKind::kCreated) {
      return "person " + std::to_string(person) + " changed before it was created";
    }
    for (std::size_t k = 0; k + 1 < kinds.size(); ++k) {
      if (kinds[k] == ChangeKind::kMerged) {
        return "person " + std::to_string(person) + " changed after it was merged away";
      }
    }
  }
  return "";
}

TEST_CASE("writers at once and consumers following: every change once, dense, in person order",
          "[pg][changes][race]") {
  TestDatabase db;
  const auto seen = FollowWhileWriting(db, true);
  const std::int64_t merges = db.Count("SELECT count(*) FROM merges");
  INFO("changes: " << seen[0].size() << ", merges: " << merges);
  CHECK(Unsound(db, seen[0]) == "");
  CHECK(SaidBy(seen[1]) == SaidBy(seen[0]));
  CHECK(db.Count("SELECT count(*) FROM changes WHERE position IS NULL") == 0);
  // Every id handed out was created once; every merge is one 'merged'.
  std::map<ChangeKind, std::int64_t> by_kind;
  for (const Change& c : seen[0]) ++by_kind[c.kind];
  CHECK(by_kind[ChangeKind::kCreated] == PersonCount(db) + merges);
  CHECK(by_kind[ChangeKind::kMerged] == merges);
  CHECK(merges > 0);
  CHECK(by_kind[ChangeKind::kUpdated] > 0);

  // Listed by seq, some round misses a change that committed late.
  std::string broken;
  int round = 0;
  for (; round < 10 && broken.empty(); ++round) {
    TestDatabase unsequenced;
    broken = Unsound(unsequenced, FollowWhileWriting(unsequenced, false)[0]);
  }
  INFO("without the sequencer: no change missed in " << round << " rounds");
  REQUIRE_FALSE(broken.empty());
  WARN("without the sequencer, round " << round << ": " << broken);
}

}  // namespace
}  // namespace idres::testing
