// Explanations and possible matches (docs/matching.md, "Explanations and possible
// matches"): Explain decides as the upsert does and writes nothing; an
// upsert with explain carries the breakdown of what it did; a record that
// scores in the review band leaves a possible match until a steward judges.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "matcher/lock_plan.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/records_check.h"

namespace idres::testing {
namespace {

std::int64_t Rows(const TestDatabase& db, const std::string& table) {
  return db.Count("SELECT count(*) FROM " + table);
}

const Comparison* Find(const CandidateScore& c, const std::string& type) {
  for (const Comparison& x : c.score.comparisons) {
    if (x.type == type) return &x;
  }
  return nullptr;
}

TEST_CASE("explain: the worked example, decided as the upsert decides, nothing written",
          "[pg][explain]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult john = engine->Upsert(
      Rec({{"name", "John Smith"}, {"birth_date", "1978-04-01"}, {"postal_code", "10115"}}));
  engine->Upsert(Rec({{"postal_code", "10115"}, {"email", "a@x.org"}}));
  engine->Upsert(Rec({{"postal_code", "10115"}, {"email", "b@x.org"}}));
  REQUIRE(PersonCount(db) == 3);
  const std::int64_t changes = Rows(db, "changes"), records = Rows(db, "records");

  const Record jon = Rec(
      {{"name", "Jon Smyth"}, {"birth_date", "04/01/1978"}, {"postal_code", "10115"}}, {}, "US");
  const Explanation e = engine->Explain(jon);
  REQUIRE_FALSE(e.error);
  CHECK(e.decision == "update");
  CHECK(e.person_id == john.person_id);
  const Model model = Model::Defaults();
  CHECK(e.threshold == model.threshold);
  CHECK(e.review_threshold == model.review_threshold);
  CHECK(e.normalized == std::vector<Identifier>{{"birth_date", "1978-04-01"},
                                                {"name", "jon smyth"},
                                                {"postal_code", "10115"}});
  CHECK(e.keys.size() == LockPlanner(model).BlockingKeys(e.normalized).size());
  bool phonetic_year = false;
  for (const ExplainedKey& k : e.keys) {
    phonetic_year |= k.rule == "name_phonetic_year" && k.parts == "SM0 1978";
    CHECK_FALSE(k.generic);
  }
  CHECK(phonetic_year);
  // The one candidate: the holders of 10115 share no key with the record.
  REQUIRE(e.candidates.size() == 1);
  const CandidateScore& best = e.candidates.front();
  CHECK(best.person_id == john.person_id);
  CHECK(best.matched);
  CHECK(best.chosen);
  CHECK(std::abs(best.score.total - 31.9) < 0.05);  // docs/matching.md's worked example
  double sum = 0;
  for (const Comparison& x : best.score.comparisons) sum += x.counted ? x.weight : 0;
  CHECK(std::abs(best.score.total - sum) < 1e-9);
  const Comparison* name = Find(best, "name");
  REQUIRE(name);
  CHECK(name->level == "jaro_winkler_88");
  CHECK(name->record_value == "jon smyth");
  CHECK(name->person_value == "john smith");
  const Comparison* postal = Find(best, "postal_code");
  REQUIRE(postal);
  CHECK(postal->level == "exact");
  CHECK(std::abs(postal->tf_adjustment - std::log2(3.0)) < 1e-9);
  const Level& exact = model.Find("postal_code")->levels.front();
  CHECK(std::abs(postal->weight - (exact.weight() - std::log2(3.0))) < 1e-9);
  CHECK(e.note.empty());
  // A what-if: not a row more.
  CHECK(Rows(db, "changes") == changes);
  CHECK(Rows(db, "records") == records);
  CHECK(PersonCount(db) == 3);

  // The upsert, asked to explain, takes that decision and says the same.
  Record asked = jon;
  asked.explain = true;
  const UpsertResult r = engine->Upsert(asked);
  REQUIRE(r.ok());
  CHECK(r.person_id == john.person_id);
  REQUIRE(r.explanation);
  CHECK(r.explanation->decision == "update");
  REQUIRE(r.explanation->candidates.size() == 1);
  for (std::size_t i = 0; i < 1; ++i) {
    CHECK(r.explanation->candidates[i].person_id == e.candidates[i].person_id);
    CHECK(r.explanation->candidates[i].score.total == e.candidates[i].score.total);
  }
  // Without explain, no explanation.
  CHECK_FALSE(engine->Upsert(jon).explanation);
}

TEST_CASE("explain: a record refused whole says why", "[pg][explain]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const Explanation e = engine->Explain(Rec({{"phone", "0000000000"}}));
  REQUIRE(e.error);
  CHECK(*e.error == "no valid identifier");
  REQUIRE(e.rejected.size() == 1);
  CHECK(e.rejected.front().type == "phone");
  CHECK(PersonCount(db) == 0);
}

TEST_CASE("explain: a create, a merge, and what a never-match changed", "[pg][explain]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const Explanation fresh = engine->Explain(Rec({{"email", "anna@x.org"}}));
  CHECK(fresh.decision == "create");
  CHECK(fresh.person_id == 0);
  CHECK(fresh.candidates.empty());

  const UpsertResult a = engine->Upsert(Rec({{"email", "anna@x.org"}}));
  const UpsertResult b = engine->Upsert(Rec({{"phone", "+4917012345678"}}));
  const Record both = Rec({{"email", "anna@x.org"}, {"phone", "+4917012345678"}});
  const Explanation merge = engine->Explain(both);
  CHECK(merge.decision == "merge");
  CHECK(merge.person_id == a.person_id);
  CHECK(merge.merged_person_ids == std::vector<std::int64_t>{b.person_id});
  REQUIRE(merge.candidates.size() == 2);
  CHECK((merge.candidates[0].chosen && merge.candidates[1].chosen));

  REQUIRE(engine->NeverMatch(a.person_id, b.person_id) == JudgeResult::kDone);
  const Explanation kept = engine->Explain(both);
  CHECK(kept.decision == "update");
  REQUIRE(kept.candidates.size() == 2);
  const CandidateScore& joined =
      kept.candidates[0].chosen ? kept.candidates[0] : kept.candidates[1];
  const CandidateScore& other = kept.candidates[0].chosen ? kept.candidates[1] : kept.candidates[0];
  CHECK(kept.person_id == joined.person_id);
  CHECK(other.matched);
  CHECK_FALSE(other.chosen);
  CHECK_FALSE(other.possible);  // the steward said no: nothing to review
  CHECK(other.never_with == std::vector<std::int64_t>{joined.person_id});
  CHECK(kept.note == "person " + std::to_string(other.person_id) +
                         " matched too, but a steward's never-match keeps them apart: the "
                         "record joined person " +
                         std::to_string(joined.person_id) + ", the better");
  CHECK(engine->Upsert(both).person_id == kept.person_id);
}

TEST_CASE("explain: a merge keeps its breakdown in the survivor's history", "[pg][explain]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult a = engine->Upsert(Rec({{"email", "anna@x.org"}}));
  const UpsertResult b = engine->Upsert(Rec({{"phone", "+4917012345678"}}));
  REQUIRE(engine->Upsert(Rec({{"email", "anna@x.org"}, {"phone", "+4917012345678"}})).outcome ==
          Outcome::kMerged);
  const std::vector<PersonEvent> history = engine->GetPersonHistory(a.person_id);
  const PersonEvent* absorbed = nullptr;
  for (const PersonEvent& e : history) {
    if (e.kind == "absorbed") absorbed = &e;
  }
  REQUIRE(absorbed);
  CHECK(absorbed->other_id == b.person_id);
  REQUIRE(absorbed->scores.size() == 2);
  CHECK(absorbed->threshold == Model::Defaults().threshold);
  CHECK(absorbed->review_threshold == Model::Defaults().review_threshold);
  CHECK(absorbed->scores[0].person_id == a.person_id);
  CHECK(absorbed->scores[1].person_id == b.person_id);
  REQUIRE(absorbed->scores[0].score.comparisons.size() == 1);
  const Comparison& email = absorbed->scores[0].score.comparisons.front();
  CHECK(email.type == "email");
  CHECK(email.level == "exact");
  CHECK(email.counted);
  CHECK(std::abs(absorbed->scores[0].score.total - email.weight) < 1e-9);
  CHECK(email.record_value.empty());  // no values are kept
  // A merge by reconcile has none.
  CHECK(StoreInconsistency(db).empty());
}

// Namesakes: one full name, two towns — the name for, the towns against:
// in the review band, below the threshold (a name alone never matches).
Record Namesake(const std::string& name, const char* town) {
  return Rec({{"name", name}, {"city", town}});
}

TEST_CASE("possible matches: a record in the review band is kept apart and listed",
          "[pg][explain]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult anna = engine->Upsert(Namesake("Anna Berg", "Uppsala"));
  Record clara = Namesake("Anna Berg", "Lund");
  clara.explain = true;
  const UpsertResult c = engine->Upsert(clara);
  REQUIRE(c.outcome == Outcome::kCreated);
  REQUIRE(c.explanation);
  CHECK(c.explanation->decision == "create");
  CHECK(c.explanation->person_id == c.person_id);
  REQUIRE(c.explanation->candidates.size() == 1);
  const CandidateScore& near = c.explanation->candidates.front();
  CHECK(near.person_id == anna.person_id);
  CHECK(near.possible);
  CHECK_FALSE(near.matched);
  CHECK(near.score.total >= Model::Defaults().review_threshold);
  CHECK(near.score.total < Model::Defaults().threshold);

  PossibleMatchPage page = engine->ListPossibleMatches("", 10);
  REQUIRE(page.matches.size() == 1);
  CHECK(page.matches[0].person_a == anna.person_id);
  CHECK(page.matches[0].person_b == c.person_id);
  CHECK(page.matches[0].score == near.score.total);
  CHECK(page.next_cursor.empty());
  CHECK(engine->ListPossibleMatches("", 10, c.person_id).matches.size() == 1);
  CHECK(engine->ListPossibleMatches("", 10, 999999).matches.empty());

  // The pair, explained from the store: as Clara's record saw Anna.
  const auto pair = engine->ExplainPair(c.person_id, anna.person_id);
  REQUIRE(pair);
  CHECK(pair->person_a == c.person_id);
  CHECK(pair->score.person_id == anna.person_id);
  CHECK(pair->score.possible);
  CHECK(pair->score.score.total == near.score.total);
  CHECK(pair->judgement.empty());
  CHECK_FALSE(engine->ExplainPair(c.person_id, 999999));

  // Two more families of twins: three pairs of one score. Pages of one,
  // each pair once.
  const UpsertResult olle = engine->Upsert(Namesake("Olle Lind", "Malmo"));
  const UpsertResult per = engine->Upsert(Namesake("Olle Lind", "Ystad"));
  const UpsertResult ines = engine->Upsert(Namesake("Ines Holm", "Visby"));
  const UpsertResult jan = engine->Upsert(Namesake("Ines Holm", "Kiruna"));
  std::vector<std::pair<std::int64_t, std::int64_t>> seen;
  std::string cursor;
  do {
    page = engine->ListPossibleMatches(cursor, 1);
    for (const PossibleMatch& m : page.matches) seen.emplace_back(m.person_a, m.person_b);
    cursor = page.next_cursor;
  } while (!cursor.empty());
  CHECK(seen ==
        std::vector<std::pair<std::int64_t, std::int64_t>>{{anna.person_id, c.person_id},
                                                           {olle.person_id, per.person_id},
                                                           {ines.person_id, jan.person_id}});
  CHECK(engine->Stats().open_pairs == 3);
  CHECK_THROWS_AS(engine->ListPossibleMatches("banana", 1), std::invalid_argument);
  CHECK_THROWS_AS(engine->ListPossibleMatches("1/2", 1), std::invalid_argument);

  // A steward closes them: a never-match, an always-match (one person
  // now), an erasure (its rows go).
  // Each closing statement deletes the rows it closed.
  const auto rows_between = [&](std::int64_t a, std::int64_t b) {
    return db.Count(
        "SELECT count(*) FROM possible_matches WHERE person_a = " + std::to_string(std::min(a, b)) +
        " AND person_b = " + std::to_string(std::max(a, b)));
  };
  REQUIRE(rows_between(anna.person_id, c.person_id) == 1);
  REQUIRE(engine->NeverMatch(anna.person_id, c.person_id) == JudgeResult::kDone);
  CHECK(engine->ExplainPair(c.person_id, anna.person_id)->judgement == "never");
  CHECK(rows_between(anna.person_id, c.person_id) == 0);
  REQUIRE(rows_between(olle.person_id, per.person_id) == 1);
  REQUIRE(engine->AlwaysMatch(olle.person_id, per.person_id));
  CHECK(rows_between(olle.person_id, per.person_id) == 0);
  page = engine->ListPossibleMatches("", 10);
  REQUIRE(page.matches.size() == 1);
  CHECK(page.matches[0].person_a == ines.person_id);
  CHECK(engine->Stats().open_pairs == 1);
  REQUIRE(engine->ForgetPerson(jan.person_id));
  CHECK(engine->ListPossibleMatches("", 10).matches.empty());
  CHECK(engine->Stats().open_pairs == 0);
  CHECK(db.Count("SELECT count(*) FROM possible_matches WHERE " + std::to_string(jan.person_id) +
                 " IN (person_a, person_b)") == 0);
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("possible matches: read through a merge, each pair once with its best score",
          "[pg][explain]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const UpsertResult anna = engine->Upsert(Namesake("Anna Berg", "Uppsala"));
  const UpsertResult clara = engine->Upsert(Namesake("Anna Berg", "Lund"));
  const UpsertResult olle = engine->Upsert(Namesake("Olle Lind", "Malmo"));
  const UpsertResult per = engine->Upsert(Namesake("Olle Lind", "Ystad"));
  REQUIRE(db.Count("SELECT count(*) FROM possible_matches") == 2);
  REQUIRE(db.Count("SELECT count(*) FROM possible_matches WHERE score >= 10.5") == 0);
  // Anna and Clara were each found near Olle; Clara's pair scored best.
  const auto pair = [](std::int64_t a, std::int64_t b, const char* score) {
    return "(" + std::to_string(std::min(a, b)) + ", " + std::to_string(std::max(a, b)) + ", " +
           score + ")";
  };
  db.Exec("INSERT INTO possible_matches (person_a, person_b, score) VALUES " +
          pair(anna.person_id, olle.person_id, "7") + ", " +
          pair(clara.person_id, olle.person_id, "10.5"));

  const auto merged = engine->AlwaysMatch(anna.person_id, clara.person_id);
  REQUIRE(merged);
  const std::int64_t one = merged->survivor;
  REQUIRE((one == anna.person_id || one == clara.person_id));
  const std::int64_t gone = one == anna.person_id ? clara.person_id : anna.person_id;
  // The merge deleted the pair it closed, and kept the two it did not.
  CHECK(db.Count("SELECT count(*) FROM possible_matches") == 3);

  // Anna-and-Clara are one person: their own pair is closed, and their two
  // pairs with Olle are one, with the better score.
  using Pairs = std::vector<std::pair<std::int64_t, std::int64_t>>;
  const auto pairs = [](const PossibleMatchPage& page) {
    Pairs out;
    for (const PossibleMatch& m : page.matches) out.emplace_back(m.person_a, m.person_b);
    return out;
  };
  const std::pair with_olle{std::min(one, olle.person_id), std::max(one, olle.person_id)};
  const std::pair twins{olle.person_id, per.person_id};
  const PossibleMatchPage all = engine->ListPossibleMatches("", 10);
  CHECK(pairs(all) == Pairs{with_olle, twins});
  CHECK(engine->Stats().open_pairs == 2);  // each pair once, read through the merge
  REQUIRE_FALSE(all.matches.empty());
  CHECK(all.matches[0].score == 10.5);
  CHECK(pairs(engine->ListPossibleMatches("", 10, one)) == Pairs{with_olle});
  CHECK(pairs(engine->ListPossibleMatches("", 10, olle.person_id)) == pairs(all));
  CHECK(pairs(engine->ListPossibleMatches("", 10, per.person_id)) == Pairs{twins});
  CHECK(engine->ListPossibleMatches("", 10, gone).matches.empty());

  // Paged one at a time, each pair comes once, in the same order.
  for (const std::int64_t person : {std::int64_t{0}, olle.person_id}) {
    Pairs seen;
    std::string cursor;
    do {
      const PossibleMatchPage page = engine->ListPossibleMatches(cursor, 1, person);
      for (const auto& p : pairs(page)) seen.push_back(p);
      cursor = page.next_cursor;
    } while (!cursor.empty() && seen.size() < 10);
    CHECK(seen == pairs(all));
  }
}

TEST_CASE("possible matches: closed rows go with the merge, the never-match or the person",
          "[pg][explain]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const auto twin = [&](const char* name, const char* town, const char* record_id) {
    Record r = Namesake(name, town);
    r.source = "crm";
    r.record_id = record_id;
    return engine->Upsert(r);
  };
  const UpsertResult anna = twin("Anna Berg", "Uppsala", "a");
  const UpsertResult clara = twin("Anna Berg", "Lund", "c");
  const UpsertResult olle = twin("Olle Lind", "Malmo", "o");
  const UpsertResult per = twin("Olle Lind", "Ystad", "p");
  REQUIRE(db.Count("SELECT count(*) FROM possible_matches") == 2);
  // A pair through an id merged away since: Olle was near Anna, and Anna is
  // merged into Clara (or Clara into Anna); then a never-match between the
  // survivor and Olle closes that pair through the redirect.
  db.Exec("INSERT INTO possible_matches (person_a, person_b, score) VALUES (" +
          std::to_string(std::min(anna.person_id, olle.person_id)) + ", " +
          std::to_string(std::max(anna.person_id, olle.person_id)) + ", 7)");
  const auto merged = engine->AlwaysMatch(clara.person_id, anna.person_id);
  REQUIRE(merged);
  CHECK(db.Count("SELECT count(*) FROM possible_matches") == 2);  // Berg twins' pair went
  REQUIRE(engine->NeverMatch(merged->survivor, olle.person_id) == JudgeResult::kDone);
  CHECK(db.Count("SELECT count(*) FROM possible_matches") == 1);  // and the one through Anna
  // Per's only record deleted: Per is gone, and the pair with Olle with him.
  const auto deleted = engine->DeleteRecord("crm", "p");
  REQUIRE(deleted);
  REQUIRE(deleted->person_removed);
  CHECK(db.Count("SELECT count(*) FROM possible_matches") == 0);
  CHECK(engine->ListPossibleMatches("", 10).matches.empty());
  CHECK(StoreInconsistency(db).empty());
}

TEST_CASE("possible matches: none below the review threshold, none for a match", "[pg][explain]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  engine->Upsert(Rec({{"name", "Anna Berg"}, {"city", "Uppsala"}, {"birth_date", "1980-01-02"}}));
  // The same person: a match.
  engine->Upsert(Rec({{"name", "Anna Berg"}, {"city", "Uppsala"}, {"birth_date", "1980-01-02"}}));
  // Her mother: another generation's birth date, far below the band.
  engine->Upsert(Rec({{"name", "Anna Berg"}, {"city", "Uppsala"}, {"birth_date", "1951-10-14"}}));
  CHECK(db.Count("SELECT count(*) FROM possible_matches") == 0);
}

}  // namespace
}  // namespace idres::testing
