// Records (docs/design.md, "Records, judgements and the change feed"): every
// upsert keeps its record under (source, record_id); the same identity
// replaces it; DeleteRecord takes its contribution back, splitting a person
// whose other records no longer hold together.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "matcher/lock_plan.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/records_check.h"

namespace idres::testing {
namespace {

Record Named(const std::string& record_id,
             std::initializer_list<std::pair<const char*, std::string>> ids, Traits traits = {}) {
  Record r = Rec(ids, std::move(traits));
  r.source = "crm";
  r.record_id = record_id;
  return r;
}

std::int64_t RecordCount(const TestDatabase& db) {
  return db.Count("SELECT count(*) FROM records");
}

// The blocking keys the store holds for `person`, sorted.
std::vector<std::int64_t> StoredKeys(const TestDatabase& db, std::int64_t person) {
  std::vector<std::int64_t> keys;
  for (const auto& row : db.Rows("SELECT key FROM match_keys WHERE person_id = " +
                                 std::to_string(person) + " ORDER BY key")) {
    keys.push_back(std::stoll(row[0]));
  }
  return keys;
}

// The keys `person`'s records make, each record's values alone, sorted.
std::vector<std::int64_t> RecordKeys(const TestDatabase& db, std::int64_t person) {
  std::map<std::string, std::vector<Identifier>> records;
  for (const auto& row :
       db.Rows("SELECT r.id, u.t, u.v FROM records r, unnest(r.types, r.vals) AS u(t, v)"
               " WHERE r.person_id = " +
               std::to_string(person))) {
    records[row[0]].push_back({row[1], row[2]});
  }
  const LockPlanner planner(Model::Defaults());
  std::vector<std::int64_t> keys;
  for (const auto& [id, values] : records) {
    bool truncated = false;
    for (std::int64_t k : planner.MatchKeys(values, 1000, &truncated)) keys.push_back(k);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

TEST_CASE("records: an upsert without a record id keeps its record under a generated one",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Rec({{"email", "anna@x.org"}}, {{"plan", "pro"}}));
  REQUIRE(a.ok());
  CHECK(a.source == "default");
  CHECK(a.record_id.size() == 34);
  CHECK(a.record_id.rfind("g-", 0) == 0);
  // The same values again: a second record of the same person.
  const UpsertResult b = engine->Upsert(Rec({{"email", "anna@x.org"}}));
  CHECK(b.person_id == a.person_id);
  CHECK(b.outcome == Outcome::kUnchanged);
  CHECK(b.record_id != a.record_id);
  CHECK(RecordCount(db) == 2);
  CHECK(db.Rows("SELECT types[1], vals[1], traits->>'plan' FROM records WHERE record_id = '" +
                a.record_id + "'") ==
        std::vector<std::vector<std::string>>{{"email", "anna@x.org", "pro"}});
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: a person's keys are its records' keys, written when a record adds some",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(
      Named("k-1", {{"email", "anna@x.org"}, {"name", "Anna Berg"}, {"birth_date", "1980-02-03"}}));
  REQUIRE(a.ok());
  const std::vector<std::int64_t> first = StoredKeys(db, a.person_id);
  CHECK(first == RecordKeys(db, a.person_id));
  // A record of the email alone: a new combination, but no key the person
  // lacks (the email's local part is keyed already).
  const UpsertResult b = engine->Upsert(Named("k-2", {{"email", "anna@x.org"}}, {{"visits", 1.0}}));
  REQUIRE(b.person_id == a.person_id);
  CHECK(StoredKeys(db, a.person_id) == first);
  // Known name and email with a postal code: keys of a combination no
  // record said before are written.
  const UpsertResult c = engine->Upsert(
      Named("k-3", {{"email", "anna@x.org"}, {"name", "Anna Berg"}, {"postal_code", "10115"}}));
  REQUIRE(c.person_id == a.person_id);
  const std::vector<std::int64_t> grown = StoredKeys(db, a.person_id);
  CHECK(grown.size() > first.size());
  CHECK(grown == RecordKeys(db, a.person_id));
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: a merge keeps every key of the merged records, also those its record lacks",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  // Two persons whose name and postal code make keys the bridging record,
  // of their strong values alone, does not: the chunk reads both through
  // those values and knows them only by the keys it shares with them.
  const UpsertResult anna = engine->Upsert(
      Named("a", {{"email", "anna@x.org"}, {"name", "Anna Berg"}, {"postal_code", "10115"}}));
  const UpsertResult other = engine->Upsert(
      Named("b", {{"phone", "+4917012345678"}, {"name", "Anna Berg"}, {"postal_code", "20095"}}));
  REQUIRE(anna.person_id != other.person_id);
  const std::vector<std::int64_t> before = RecordKeys(db, anna.person_id);
  const UpsertResult bridge =
      engine->Upsert(Named("ab", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}}));
  REQUIRE(bridge.outcome == Outcome::kMerged);
  REQUIRE(bridge.person_id == anna.person_id);
  const std::vector<std::int64_t> merged = RecordKeys(db, anna.person_id);
  CHECK(merged.size() > before.size());
  CHECK(StoredKeys(db, anna.person_id) == merged);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: the same source and record id replaces the record", "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult first = engine->Upsert(
      Named("c-1", {{"email", "old@x.org"}, {"phone", "+4917012345678"}}, {{"plan", "basic"}}));
  REQUIRE(first.ok());
  CHECK(first.record_id == "c-1");
  CHECK(first.source == "crm");
  // Another record holds the phone too: it stays when c-1 lets go of it.
  const UpsertResult other = engine->Upsert(Named("c-2", {{"phone", "+4917012345678"}}));
  REQUIRE(other.person_id == first.person_id);

  const UpsertResult replaced =
      engine->Upsert(Named("c-1", {{"email", "new@x.org"}, {"phone", "+4917012345678"}}));
  REQUIRE(replaced.ok());
  CHECK(replaced.person_id == first.person_id);
  CHECK(IdentifiersOf(db, first.person_id) ==
        std::vector<std::string>{"email:new@x.org", "phone:+4917012345678"});
  CHECK(RecordCount(db) == 2);
  // The trait was c-1's alone, and c-1 no longer says it.
  CHECK(db.Count("SELECT count(*) FROM persons WHERE traits ? 'plan'") == 0);

  // The only record of a person replaced by values of nobody else: the
  // person keeps its id and now holds only the new values.
  const UpsertResult solo = engine->Upsert(Named("s-1", {{"email", "solo@x.org"}}));
  const UpsertResult moved = engine->Upsert(Named("s-1", {{"email", "solo2@x.org"}}));
  CHECK(moved.person_id == solo.person_id);
  CHECK(IdentifiersOf(db, solo.person_id) == std::vector<std::string>{"email:solo2@x.org"});
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: a batch naming one record twice applies both, in order", "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const std::vector<Record> batch = {Named("c-1", {{"email", "a@x.org"}}),
                                     Named("c-1", {{"email", "b@x.org"}})};
  const auto results = engine->BatchUpsert(batch);
  REQUIRE(results.size() == 2);
  CHECK(results[1].person_id == results[0].person_id);
  CHECK(IdentifiersOf(db, results[0].person_id) == std::vector<std::string>{"email:b@x.org"});
  CHECK(RecordCount(db) == 1);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: a delete takes back what only that record said", "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a =
      engine->Upsert(Named("c-1", {{"email", "anna@x.org"}}, {{"plan", "basic"}, {"tier", "1"}}));
  engine->Upsert(
      Named("c-2", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}}, {{"plan", "pro"}}));
  REQUIRE(IdentifiersOf(db, a.person_id).size() == 2);
  const auto both = engine->GetPerson(a.person_id);
  REQUIRE(both->records.size() == 2);
  CHECK(both->trait_sources.at("plan").record_id == "c-2");  // the last write of plan
  CHECK(both->trait_sources.at("tier").record_id == "c-1");

  const auto deleted = engine->DeleteRecord("crm", "c-2");
  REQUIRE(deleted);
  CHECK(deleted->person_id == a.person_id);
  CHECK_FALSE(deleted->person_removed);
  CHECK(deleted->split_person_ids.empty());
  CHECK(IdentifiersOf(db, a.person_id) == std::vector<std::string>{"email:anna@x.org"});
  // Each trait falls back to what the remaining record said.
  const auto person = engine->GetPerson(a.person_id);
  REQUIRE(person);
  CHECK(person->traits == Traits{{"plan", "basic"}, {"tier", "1"}});
  REQUIRE(person->records.size() == 1);
  CHECK(person->records[0].record_id == "c-1");
  CHECK(person->trait_sources.at("plan").record_id == "c-1");
  CHECK(StoreInconsistency(db).empty());

  CHECK_FALSE(engine->DeleteRecord("crm", "c-2"));  // gone already
  CHECK_FALSE(engine->DeleteRecord("crm", "never"));
  CHECK_THROWS_AS(engine->DeleteRecord("crm", "bad\nid"), std::invalid_argument);
}

TEST_CASE("records: deleting the record that bridged two persons splits them again",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult anna = engine->Upsert(Named("a", {{"email", "anna@x.org"}}));
  const UpsertResult bob = engine->Upsert(Named("b", {{"phone", "+4917012345678"}}));
  REQUIRE(anna.person_id != bob.person_id);
  const UpsertResult bridge =
      engine->Upsert(Named("ab", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}}));
  REQUIRE(bridge.outcome == Outcome::kMerged);
  REQUIRE(PersonCount(db) == 1);

  const auto deleted = engine->DeleteRecord("crm", "ab");
  REQUIRE(deleted);
  CHECK(deleted->person_id == anna.person_id);  // the part with the oldest record keeps the id
  REQUIRE(deleted->split_person_ids.size() == 1);
  const std::int64_t split = deleted->split_person_ids.front();
  CHECK(split != anna.person_id);
  CHECK(PersonCount(db) == 2);
  CHECK(IdentifiersOf(db, anna.person_id) == std::vector<std::string>{"email:anna@x.org"});
  CHECK(IdentifiersOf(db, split) == std::vector<std::string>{"phone:+4917012345678"});
  CHECK(PersonHolding(db, "phone", "+4917012345678") == split);
  CHECK(db.Count("SELECT count(*) FROM records WHERE record_id = 'b' AND person_id = " +
                 std::to_string(split)) == 1);
  // The split part is found by its values like any person.
  const UpsertResult again = engine->Upsert(Rec({{"phone", "+49 170 1234 5678"}}, {}, "DE"));
  CHECK(again.person_id == split);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: a batch that replaces the bridge and then a record it split off applies both",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult anna = engine->Upsert(Named("a", {{"email", "anna@x.org"}}));
  const UpsertResult bob = engine->Upsert(Named("b", {{"phone", "+4917012345678"}}));
  REQUIRE(
      engine->Upsert(Named("ab", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}})).outcome ==
      Outcome::kMerged);
  REQUIRE(PersonCount(db) == 1);
  // One chunk: the bridge lets go of the phone, which splits b off; then b
  // itself is replaced, in the part it now belongs to.
  const std::vector<Record> batch = {
      Named("ab", {{"email", "anna@x.org"}}),
      Named("b", {{"phone", "+4917012345678"}, {"email", "bob@x.org"}})};
  const auto results = engine->BatchUpsert(batch);
  REQUIRE(results.size() == 2);
  CHECK(results[0].ok());
  CHECK(results[1].ok());
  CHECK(RecordCount(db) == 3);
  CHECK(PersonCount(db) == 2);
  const std::int64_t b_person = PersonHolding(db, "phone", "+4917012345678");
  CHECK(b_person != anna.person_id);
  CHECK(IdentifiersOf(db, b_person) ==
        std::vector<std::string>{"email:bob@x.org", "phone:+4917012345678"});
  CHECK(IdentifiersOf(db, anna.person_id) == std::vector<std::string>{"email:anna@x.org"});
  CHECK(db.Count("SELECT count(*) FROM records WHERE record_id = 'b'") == 1);
  CHECK(StoreInconsistency(db).empty());
  (void)bob;
}

TEST_CASE("records: deleting a person's last record removes the person", "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Named("c-1", {{"email", "anna@x.org"}}));
  const UpsertResult b = engine->Upsert(Named("c-2", {{"email", "bob@x.org"}}));
  engine->Upsert(Named("c-3", {{"email", "bob@x.org"}, {"cookie", "ck-1"}}));
  const auto deleted = engine->DeleteRecord("crm", "c-1");
  REQUIRE(deleted);
  CHECK(deleted->person_id == a.person_id);
  CHECK(deleted->person_removed);
  CHECK_FALSE(engine->GetPerson(a.person_id));
  CHECK(db.Count("SELECT count(*) FROM removed_persons WHERE why = 'emptied' AND person_id = " +
                 std::to_string(a.person_id)) == 1);
  CHECK(PersonHolding(db, "email", "anna@x.org") == 0);
  // The same values later make a new person.
  const UpsertResult again = engine->Upsert(Rec({{"email", "anna@x.org"}}));
  CHECK(again.outcome == Outcome::kCreated);
  CHECK(again.person_id != a.person_id);
  CHECK(PersonHolding(db, "email", "bob@x.org") == b.person_id);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: an identity that cannot name a record is refused with its reason",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  Record r = Named("x", {{"email", "anna@x.org"}});
  r.record_id = std::string("bad\xff", 4);
  UpsertResult bad = engine->Upsert(r);
  REQUIRE_FALSE(bad.ok());
  CHECK(*bad.error == "record_id is not valid UTF-8");
  r.record_id = "ok";
  r.source = std::string(300, 's');
  bad = engine->Upsert(r);
  REQUIRE_FALSE(bad.ok());
  CHECK(*bad.error == "source is longer than 256 bytes");
  CHECK(RecordCount(db) == 0);
}

TEST_CASE("forget: a person is erased with everything of it, and its ids say so", "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult anna =
      engine->Upsert(Named("a", {{"email", "anna@x.org"}}, {{"plan", "pro"}}));
  const UpsertResult other = engine->Upsert(Named("b", {{"phone", "+4917012345678"}}));
  engine->Upsert(Named("ab", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}}));
  const UpsertResult bob = engine->Upsert(Named("c", {{"email", "bob@x.org"}}));
  REQUIRE(PersonCount(db) == 2);

  // Asked by an id merged away: the person it redirects to is erased.
  const auto erased = engine->ForgetPerson(other.person_id);
  REQUIRE(erased);
  CHECK(erased->person_id == anna.person_id);
  CHECK(erased->erased_ids == std::vector<std::int64_t>{anna.person_id, other.person_id});
  CHECK(PersonCount(db) == 1);
  const std::string ids = std::to_string(anna.person_id) + ", " + std::to_string(other.person_id);
  // person_events too: also those of the id merged into it (they name its
  // records).
  for (const char* table : {"identifiers", "records", "match_keys", "person_events"}) {
    INFO(table);
    CHECK(db.Count(std::string("SELECT count(*) FROM ") + table + " WHERE person_id IN (" + ids +
                   ")") == 0);
  }
  CHECK(db.Count("SELECT count(*) FROM merges") == 0);
  for (const std::int64_t id : {anna.person_id, other.person_id}) {
    CHECK_FALSE(engine->GetPerson(id));
    const auto why = engine->Removal(id);
    REQUIRE(why);
    CHECK(why->why == "erased");
  }
  CHECK_FALSE(engine->Removal(bob.person_id));
  CHECK(db.Count("SELECT count(*) FROM changes WHERE kind = 'erased' AND person_id = " +
                 std::to_string(anna.person_id)) == 1);
  // Nothing personal stays: not a value, not a reason naming one.
  CHECK(db.Count("SELECT count(*) FROM identifiers WHERE value LIKE '%anna%'") == 0);

  CHECK_FALSE(engine->ForgetPerson(anna.person_id));  // already gone
  CHECK_FALSE(engine->ForgetPerson(999999));
  // The same values again make a new person.
  const UpsertResult again = engine->Upsert(Rec({{"email", "anna@x.org"}}));
  CHECK(again.outcome == Outcome::kCreated);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("forget: a part split off a person leaves no record of it in that person's history",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Named("a", {{"email", "anna@x.org"}}));
  // A record id that names someone, as some sources' ids do.
  engine->Upsert(Named("bo.berg@home.example", {{"phone", "+4917012345678"}}));
  REQUIRE(
      engine->Upsert(Named("ab", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}})).outcome ==
      Outcome::kMerged);
  const auto split = engine->SplitPerson(
      a.person_id, {{{"crm", "a"}}, {{"crm", "bo.berg@home.example"}, {"crm", "ab"}}});
  REQUIRE(split.part_ids.size() == 1);
  REQUIRE(engine->ForgetPerson(split.part_ids.front()));
  // The person it was split from named its records: in its events, and in
  // the reason of the merge the bridge made.
  CHECK(db.Count("SELECT count(*) FROM person_events WHERE record_id IN "
                 "('bo.berg@home.example', 'ab')") == 0);
  CHECK(db.Count("SELECT count(*) FROM merges WHERE reason LIKE '%''ab''%'") == 0);
  // What was a's own stays.
  CHECK(db.Count("SELECT count(*) FROM person_events WHERE record_id = 'a'") > 0);
  CHECK(PersonHolding(db, "email", "anna@x.org") == a.person_id);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: a split and a removal are in the change feed", "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult anna = engine->Upsert(Named("a", {{"email", "anna@x.org"}}));
  engine->Upsert(Named("b", {{"phone", "+4917012345678"}}));
  engine->Upsert(Named("ab", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}}));
  const auto deleted = engine->DeleteRecord("crm", "ab");
  REQUIRE(deleted);
  REQUIRE(deleted->split_person_ids.size() == 1);
  const std::string part = std::to_string(deleted->split_person_ids.front());
  const std::string a = std::to_string(anna.person_id);
  CHECK(db.Count("SELECT count(*) FROM changes WHERE kind = 'split' AND person_id = " + a +
                 " AND other_id = " + part) == 1);
  CHECK(db.Count("SELECT count(*) FROM changes WHERE kind = 'created' AND person_id = " + part) ==
        1);
  CHECK(db.Count("SELECT count(*) FROM changes WHERE kind = 'updated' AND person_id = " + a) >= 1);
  engine->DeleteRecord("crm", "a");
  CHECK(db.Count("SELECT count(*) FROM changes WHERE kind = 'erased' AND person_id = " + a) == 1);
}

TEST_CASE("never-match: persons a steward keeps apart are not merged, also after merges",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Rec({{"email", "anna@x.org"}}));
  const UpsertResult b = engine->Upsert(Rec({{"phone", "+4917012345678"}}));
  CHECK(engine->NeverMatch(a.person_id, b.person_id) == JudgeResult::kDone);
  CHECK(engine->NeverMatch(a.person_id, a.person_id) == JudgeResult::kSamePerson);
  CHECK(engine->NeverMatch(a.person_id, 999999) == JudgeResult::kNoPerson);

  // A record holding both joins one of them and merges neither.
  const UpsertResult bridge =
      engine->Upsert(Rec({{"email", "anna@x.org"}, {"phone", "+4917012345678"}}));
  REQUIRE(bridge.ok());
  CHECK(bridge.merged_person_ids.empty());
  CHECK(PersonCount(db) == 2);
  CHECK((bridge.person_id == a.person_id || bridge.person_id == b.person_id));

  // a absorbs c; the judgement follows a's survivor.
  const UpsertResult c = engine->Upsert(Rec({{"cookie", "ck-1"}}));
  const UpsertResult ac = engine->Upsert(Rec({{"email", "anna@x.org"}, {"cookie", "ck-1"}}));
  REQUIRE(ac.outcome == Outcome::kMerged);
  CHECK(ac.merged_person_ids == std::vector<std::int64_t>{c.person_id});
  const UpsertResult cb = engine->Upsert(Rec({{"cookie", "ck-1"}, {"phone", "+4917012345678"}}));
  CHECK(cb.merged_person_ids.empty());
  CHECK(PersonCount(db) == 2);
  // So does a batch, and reconcile finds nothing to merge.
  const std::vector<Record> both = {Rec({{"email", "anna@x.org"}, {"phone", "+4917012345678"}})};
  CHECK(engine->BatchUpsert(both).front().merged_person_ids.empty());
  for (const ReconcileGroup& g : engine->FindReconcileGroups()) {
    CHECK(engine->Reconcile(g).merged_person_ids.empty());
  }
  CHECK(PersonCount(db) == 2);

  // A steward's always-match merges them after all.
  const auto merged = engine->AlwaysMatch(a.person_id, b.person_id);
  REQUIRE(merged);
  CHECK(merged->survivor == a.person_id);
  CHECK(PersonCount(db) == 1);
  CHECK(db.Count("SELECT count(*) FROM judgements") == 0);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("records: a record sent again as it is stored changes nothing", "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const Record r =
      Named("c-1", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}}, {{"plan", "pro"}});
  const UpsertResult first = engine->Upsert(r);
  REQUIRE(first.outcome == Outcome::kCreated);
  engine->Upsert(Named("c-2", {{"email", "anna@x.org"}}, {{"seats", 3.0}}));
  const std::int64_t changes = db.Count("SELECT count(*) FROM changes");
  const std::int64_t events = db.Count("SELECT count(*) FROM person_events");
  // A retry after an answer that was lost: the same record again.
  const UpsertResult again = engine->Upsert(r);
  CHECK(again.person_id == first.person_id);
  CHECK(again.outcome == Outcome::kUnchanged);
  CHECK(db.Count("SELECT count(*) FROM changes") == changes);
  CHECK(db.Count("SELECT count(*) FROM person_events") == events);
  // With one value more it is a replace again.
  const UpsertResult grown = engine->Upsert(
      Named("c-1", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}, {"cookie", "k"}},
            {{"plan", "pro"}}));
  CHECK(grown.outcome == Outcome::kUpdated);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("always-match: the steward's judgement outlives its merge", "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  // Two records that share nothing; a third bridges them through a cookie.
  const UpsertResult a = engine->Upsert(Named("a", {{"email", "anna@x.org"}}));
  const UpsertResult b = engine->Upsert(Named("b", {{"phone", "+4917012345678"}}));
  REQUIRE(engine->AlwaysMatch(a.person_id, b.person_id));
  REQUIRE(PersonCount(db) == 1);
  const UpsertResult c = engine->Upsert(Named("c", {{"email", "anna@x.org"}, {"cookie", "ck-1"}}));
  REQUIRE(c.person_id == a.person_id);

  // Deleting the third replays a and b, which the model would part: the
  // bond keeps them one person.
  const auto gone = engine->DeleteRecord("crm", "c");
  REQUIRE(gone);
  CHECK(gone->split_person_ids.empty());
  CHECK(PersonCount(db) == 1);
  CHECK(IdentifiersOf(db, a.person_id) ==
        std::vector<std::string>{"email:anna@x.org", "phone:+4917012345678"});
  // So does a replace of a record beside them.
  const UpsertResult d = engine->Upsert(Named("d", {{"phone", "+4917012345678"}}));
  REQUIRE(d.person_id == a.person_id);
  REQUIRE(engine->Upsert(Named("d", {{"phone", "+4917012345678"}, {"cookie", "ck-2"}})).ok());
  CHECK(PersonCount(db) == 1);

  // A steward's split parts them; they stay apart.
  const auto split = engine->SplitPerson(a.person_id, {{{"crm", "a"}}, {{"crm", "b"}}});
  REQUIRE(split.status == SplitResult::Status::kDone);
  REQUIRE(split.part_ids.size() == 1);
  CHECK(PersonCount(db) == 2);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("split: groups that would share a customer id are refused, with the value named",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Named("a", {{"customer_id", "C-1"}, {"email", "a@x.org"}}));
  REQUIRE(
      engine->Upsert(Named("b", {{"customer_id", "C-1"}, {"phone", "+4917012345678"}})).person_id ==
      a.person_id);
  // One person alone may hold a customer id: two parts cannot both.
  const auto split = engine->SplitPerson(a.person_id, {{{"crm", "a"}}, {{"crm", "b"}}});
  CHECK(split.status == SplitResult::Status::kSharedExclusive);
  CHECK(split.reason.find("customer_id") != std::string::npos);
  CHECK(PersonCount(db) == 1);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("always-match: merges the two persons, and leaves out one kept apart from them",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Named("a", {{"email", "anna@x.org"}}));
  REQUIRE(engine->Upsert(Named("b", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}}))
              .person_id == a.person_id);
  // The steward parts b from a: they share the email, and stay apart.
  const auto split = engine->SplitPerson(a.person_id, {{{"crm", "a"}}, {{"crm", "b"}}});
  REQUIRE(split.part_ids.size() == 1);
  const UpsertResult x = engine->Upsert(Named("x", {{"cookie", "ck-1"}}));
  REQUIRE(PersonCount(db) == 3);
  // a and x are one; b matches a under the model but is kept apart from it.
  const auto merged = engine->AlwaysMatch(a.person_id, x.person_id);
  REQUIRE(merged);
  CHECK(merged->merged_person_ids.size() == 1);
  CHECK(PersonCount(db) == 2);
  CHECK(PersonHolding(db, "cookie", "ck-1") == a.person_id);
  CHECK(PersonHolding(db, "phone", "+4917012345678") == split.part_ids.front());
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("split: a steward's unmerge makes each group a person, kept apart afterwards",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  // One person from three records: two that share an email, a third that
  // shares only a cookie with the second.
  const UpsertResult a = engine->Upsert(Named("a", {{"email", "anna@x.org"}}, {{"plan", "pro"}}));
  engine->Upsert(Named("b", {{"email", "anna@x.org"}, {"cookie", "ck-1"}}));
  engine->Upsert(
      Named("c", {{"cookie", "ck-1"}, {"phone", "+4917012345678"}}, {{"plan", "basic"}}));
  REQUIRE(PersonCount(db) == 1);

  const auto split =
      engine->SplitPerson(a.person_id, {{{"crm", "a"}, {"crm", "b"}}, {{"crm", "c"}}});
  REQUIRE(split.status == SplitResult::Status::kDone);
  CHECK(split.person_id == a.person_id);
  REQUIRE(split.part_ids.size() == 1);
  const std::int64_t c = split.part_ids.front();
  CHECK(PersonCount(db) == 2);
  CHECK(IdentifiersOf(db, a.person_id) ==
        std::vector<std::string>{"cookie:ck-1", "email:anna@x.org"});
  CHECK(IdentifiersOf(db, c) == std::vector<std::string>{"cookie:ck-1", "phone:+4917012345678"});
  CHECK(engine->GetPerson(c)->traits == Traits{{"plan", "basic"}});
  CHECK(engine->GetPerson(a.person_id)->traits == Traits{{"plan", "pro"}});
  CHECK(db.Count("SELECT count(*) FROM judgements WHERE kind = 'never'") == 2);
  CHECK(db.Count("SELECT count(*) FROM changes WHERE kind = 'split' AND other_id = " +
                 std::to_string(c)) == 1);
  CHECK(StoreInconsistency(db).empty());

  // The cookie both parts hold does not merge them again, nor does a
  // record holding both sides' values: it joins one.
  const UpsertResult again =
      engine->Upsert(Rec({{"email", "anna@x.org"}, {"phone", "+4917012345678"}}));
  CHECK(again.merged_person_ids.empty());
  CHECK(PersonCount(db) == 2);

  CHECK_THROWS_WITH(engine->SplitPerson(a.person_id, {{{"crm", "a"}}}),
                    "a split needs at least two groups of records");
  const SplitResult mixed = engine->SplitPerson(a.person_id, {{{"crm", "a"}}, {{"crm", "c"}}});
  CHECK(mixed.status == SplitResult::Status::kNotThePersons);
  CHECK(mixed.reason == "the records belong to more than one person");
  const SplitResult missing = engine->SplitPerson(a.person_id, {{{"crm", "a"}}, {{"crm", "zz"}}});
  CHECK(missing.status == SplitResult::Status::kNoSuchRecord);
  CHECK(missing.reason == "no record 'zz' of source 'crm' is stored");
  const SplitResult elsewhere = engine->SplitPerson(c, {{{"crm", "a"}}, {{"crm", "b"}}});
  CHECK(elsewhere.status == SplitResult::Status::kNotThePersons);
  CHECK(PersonCount(db) == 2);  // nothing split
  CHECK_THROWS_WITH(engine->SplitPerson(a.person_id, {{{"crm", "a"}}, {{"crm", "a"}}}),
                    "record 'a' of source 'crm' is in two groups");
}

// The kinds of `history`, in order.
std::vector<std::string> Kinds(const std::vector<PersonEvent>& history) {
  std::vector<std::string> out;
  for (const PersonEvent& e : history) out.push_back(e.kind);
  return out;
}

TEST_CASE("history: every event of a person, in order, and only data-free ones after erasure",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Named("a", {{"email", "anna@x.org"}}));
  const UpsertResult b = engine->Upsert(Named("b", {{"phone", "+4917012345678"}}));
  engine->Upsert(Named("ab", {{"email", "anna@x.org"}, {"phone", "+4917012345678"}}));
  engine->Upsert(Named("a", {{"email", "anna@x.org"}, {"cookie", "ck-1"}}));  // replaced
  engine->DeleteRecord("crm", "ab");                                          // b splits off again
  const auto history = engine->GetPersonHistory(a.person_id);
  CHECK(Kinds(history) == std::vector<std::string>{"created", "record_added", "absorbed",
                                                   "record_added", "record_replaced",
                                                   "record_deleted", "split"});
  REQUIRE(history.size() == 7);
  CHECK(history[1].record_id == "a");
  CHECK(history[1].source == "crm");
  // The merge says which record did it and how each person scored, without values.
  CHECK(history[2].other_id == b.person_id);
  CHECK(history[2].detail.rfind("bridged by an upsert of record 'ab' of source 'crm': person ",
                                0) == 0);
  CHECK(history[2].detail.find("email exact") != std::string::npos);
  CHECK(history[2].detail.find("anna") == std::string::npos);
  CHECK(history[5].record_id == "ab");
  for (std::size_t i = 1; i < history.size(); ++i) CHECK(history[i - 1].at <= history[i].at);

  const auto parts = engine->DeleteRecord("crm", "zz");
  CHECK_FALSE(parts);
  const std::int64_t split = history[6].other_id;
  CHECK(engine->NeverMatch(a.person_id, split) == JudgeResult::kDone);
  CHECK(Kinds(engine->GetPersonHistory(split)).back() == "judged_never");

  engine->ForgetPerson(a.person_id);
  CHECK(Kinds(engine->GetPersonHistory(a.person_id)) ==
        std::vector<std::string>{"created", "split", "erased"});
  CHECK(engine->GetPersonHistory(999999).empty());
}

}  // namespace
}  // namespace idres::testing
