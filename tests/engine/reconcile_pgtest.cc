// Reconcile: persons stored before normalization (or before a rule changed)
// are found and merged under the upsert's locks, and the merges are changes
// of the feed; a second run finds nothing.
#include <catch2/catch.hpp>

#include "engine/engine.h"
#include "tests/engine/change_feed.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/records_check.h"

namespace idres::testing {
namespace {

// Three persons inserted raw, one phone in three spellings, each with one
// record saying it (as a store migrated from before records has).
void InsertRawPhones(const TestDatabase& db) {
  db.Exec(
      "INSERT INTO persons (traits) VALUES ('{\"a\": 1}'), ('{\"b\": 2}'), ('{}');"
      "INSERT INTO identifiers (person_id, type, value, is_unique) SELECT id, 'phone',"
      " (ARRAY['+49 170 1234567', '0170 1234567', '0049-170-1234567'])[row_number() OVER"
      " (ORDER BY id)], true FROM persons;"
      "INSERT INTO records (source, record_id, person_id, types, vals, traits)"
      " SELECT 'legacy', 'p' || p.id, p.id, ARRAY[i.type], ARRAY[i.value], p.traits"
      " FROM persons p JOIN identifiers i ON i.person_id = p.id;");
}

TEST_CASE("reconcile merges one phone in three raw spellings, a second run finds nothing",
          "[pg][reconcile]") {
  TestDatabase db;
  InsertRawPhones(db);
  auto engine = MakeEngine(db, 1);
  const auto oldest = db.Count("SELECT min(id) FROM persons");
  const auto groups = engine->FindReconcileGroups("DE");
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].person_ids.size() == 3);
  CHECK_FALSE(groups[0].reasons.empty());
  const ReconcileResult r = engine->Reconcile(groups[0]);
  CHECK(r.survivor == oldest);
  CHECK(r.merged_person_ids.size() == 2);
  CHECK(r.identifiers_rewritten == 3);
  CHECK(PersonCount(db) == 1);
  CHECK(IdentifiersOf(db, oldest) == std::vector<std::string>{"phone:+491701234567"});
  CHECK(engine->GetPerson(oldest)->traits.size() == 2);
  // The records moved with the merges and say their values in today's form.
  CHECK(db.Count("SELECT count(*) FROM records WHERE person_id = " + std::to_string(oldest)) == 3);
  CHECK(StoreInconsistency(db).empty());
  // Idempotent: nothing left to find, and applying the old group changes nothing.
  CHECK(engine->FindReconcileGroups("DE").empty());
  CHECK(engine->Reconcile(groups[0]).merged_person_ids.empty());
  // The merges are changes: merged into the survivor, which is updated; the
  // second run appended none.
  CHECK(SaidBy(AllChanges(*engine)) ==
        std::vector<Said>{{r.merged_person_ids[0], ChangeKind::kMerged, oldest},
                          {r.merged_person_ids[1], ChangeKind::kMerged, oldest},
                          {oldest, ChangeKind::kUpdated, 0}});
  // The online path now finds the person by any spelling.
  CHECK(engine->Upsert(Rec({{"phone", "0170 1234567"}}, {}, "DE")).person_id == oldest);
  CHECK(PersonCount(db) == 1);
}

TEST_CASE("reconcile also pulls in a person created meanwhile with the normalized value",
          "[pg][reconcile]") {
  TestDatabase db;
  InsertRawPhones(db);
  auto engine = MakeEngine(db, 1);
  const auto groups = engine->FindReconcileGroups("DE");
  const auto online = engine->Upsert(Rec({{"phone", "+491701234567"}, {"cookie", "c"}}));
  REQUIRE(groups.size() == 1);
  const ReconcileResult r = engine->Reconcile(groups[0]);
  CHECK(r.merged_person_ids.size() == 3);
  CHECK(PersonCount(db) == 1);
  CHECK(engine->GetPerson(online.person_id)->id == r.survivor);
  CHECK(DuplicateIdentifiers(db) == 0);
}

TEST_CASE("reconcile finds persons whose weak values reach the threshold together",
          "[pg][reconcile]") {
  TestDatabase db;
  db.Exec(
      "INSERT INTO persons DEFAULT VALUES; INSERT INTO persons DEFAULT VALUES;"
      "INSERT INTO identifiers (person_id, type, value, is_unique) SELECT id, t, v, false"
      " FROM persons, (VALUES ('name', 'anna meier'), ('birth_date', '1980-01-01'),"
      " ('postal_code', '10115')) AS x(t, v);");
  auto engine = MakeEngine(db, 1);
  const auto groups = engine->FindReconcileGroups();
  REQUIRE(groups.size() == 1);
  engine->Reconcile(groups[0]);
  CHECK(PersonCount(db) == 1);
  CHECK(engine->FindReconcileGroups().empty());
}

TEST_CASE("reconcile merges no chain whose ends hold evidence against each other",
          "[pg][reconcile]") {
  TestDatabase db;
  // Three persons stored apart: the middle one shares a phone with each
  // end, and the ends hold different passports.
  db.Exec(
      "INSERT INTO persons DEFAULT VALUES; INSERT INTO persons DEFAULT VALUES;"
      " INSERT INTO persons DEFAULT VALUES;"
      " INSERT INTO identifiers (person_id, type, value, is_unique) SELECT p, t, v, false FROM"
      " (VALUES (1, 'phone', '+491701111111'), (1, 'passport', 'C01X00T47'),"
      " (2, 'phone', '+491701111111'), (2, 'phone', '+491702222222'),"
      " (3, 'phone', '+491702222222'), (3, 'passport', 'L898902C3')) AS x(p, t, v);");
  auto engine = MakeEngine(db, 1);
  const auto groups = engine->FindReconcileGroups();
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].person_ids.size() == 2);  // the middle joins one end only
  engine->Reconcile(groups[0]);
  CHECK(PersonCount(db) == 2);
  CHECK(engine->FindReconcileGroups().empty());
  // The merge keeps why it was made.
  CHECK(db.Rows("SELECT reason FROM merges")[0][0].rfind("reconcile: ", 0) == 0);
}

TEST_CASE("a person a group pulls in brings its own values and their holders along",
          "[pg][reconcile]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const auto id = [&](Record r) { return engine->Upsert(r).person_id; };
  const auto ann = id(Rec({{"email", "e1@x.com"}, {"name", "Ann Lee"}}));
  const auto cookie = id(Rec({{"cookie", "c1"}}));
  const auto phone = id(Rec({{"phone", "+491701234567"}}));
  REQUIRE(PersonCount(db) == 3);
  // Stored before normalization, in `cookie`'s record and values: Ann's
  // email, and `phone`'s number.
  const std::string c = std::to_string(cookie);
  db.Exec("INSERT INTO identifiers (person_id, type, value, is_unique) VALUES (" + c +
          ", 'email', 'E1@X.COM', true), (" + c + ", 'phone', '0170 1234567', true);"
          "UPDATE records SET types = types || ARRAY['email', 'phone'],"
          " vals = vals || ARRAY['E1@X.COM', '0170 1234567'] WHERE person_id = " + c);

  // Ann's group pulls in `cookie` by the email its record says today;
  // `cookie`'s phone, re-normalized, is `phone`'s, so `phone` comes along.
  // Before, every run failed on that value's unique index.
  for (const ReconcileGroup& group : engine->FindReconcileGroups("DE")) engine->Reconcile(group);
  CHECK(PersonCount(db) == 1);
  CHECK(DuplicateIdentifiers(db) == 0);
  CHECK(engine->GetPerson(phone)->id == ann);
  CHECK(IdentifiersOf(db, ann) == std::vector<std::string>{"cookie:c1", "email:e1@x.com",
                                                           "name:ann lee", "phone:+491701234567"});
  CHECK(engine->FindReconcileGroups("DE").empty());
}

}  // namespace
}  // namespace idres::testing
