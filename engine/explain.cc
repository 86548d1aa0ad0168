// Why (docs/matching.md, "Explanations and possible matches"): Explain, an upsert
// through the one resolve path that writes nothing; ExplainPair, two stored
// persons compared as the upsert compares; ListPossibleMatches, the pairs
// kept for review.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "engine/detail/engine_impl.h"
#include "engine/detail/explain_decision.h"
#include "engine/detail/pg_array.h"
#include "engine/detail/statements.h"
#include "engine/detail/store.h"
#include "engine/detail/variants.h"
#include "engine/engine.h"

namespace idres {
namespace {

// A cursor is the stored row of the last pair returned: "<score>/<a>/<b>",
// the score exact (a pair read through a merge names ids its row does not).
std::string Cursor(double score, std::int64_t a, std::int64_t b) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.17g/%lld/%lld", score, static_cast<long long>(a),
                static_cast<long long>(b));
  return buf;
}

struct After {
  std::string score = "Infinity";
  std::int64_t a = 0, b = 0;
};

After ParseCursor(const std::string& cursor) {
  if (cursor.empty()) return {};
  const auto bad = [&] {
    return std::invalid_argument("cursor " + cursor + " was not handed out");
  };
  const std::size_t s1 = cursor.find('/'), s2 = cursor.find('/', s1 + 1);
  if (s1 == std::string::npos || s2 == std::string::npos) throw bad();
  After out;
  out.score = cursor.substr(0, s1);
  char* end = nullptr;
  std::strtod(out.score.c_str(), &end);
  if (out.score.empty() || *end != '\0') throw bad();
  const auto number = [&](std::size_t from, std::size_t to, std::int64_t& v) {
    const auto r = std::from_chars(cursor.data() + from, cursor.data() + to, v);
    if (r.ec != std::errc() || r.ptr != cursor.data() + to || v <= 0) throw bad();
  };
  number(s1 + 1, s2, out.a);
  number(s2 + 1, cursor.size(), out.b);
  return out;
}

// Person `a` against `b` as an upsert of each of a's records would compare
// them: the best of a's records against b's records it meets through a key
// or strong value; when it meets none, against all of them (a steward
// still sees why they differ).
Score ComparePersons(const Matcher& matcher, const LockPlanner& planner,
                     const detail::StoredPerson& a, const detail::StoredPerson& b,
                     const ValueCounts& counts) {
  const detail::Variants mine = detail::VariantsOf(planner, a);
  const detail::Variants theirs = detail::VariantsOf(planner, b);
  std::optional<Score> best;
  const auto rank = [&](const Score& x) { return std::make_pair(matcher.Matches(x), x.total); };
  for (const detail::Variant& v : mine.list()) {
    Candidate c{b.id,
                theirs.MetBy(
                    v, matcher.model(), [](std::int64_t) { return true; },
                    [&](const Identifier& id) { return !matcher.Generic(id, counts); }),
                b.identifiers};
    if (c.records.empty()) continue;
    Score s = matcher.Compare(v.values, c, counts);
    if (!best || rank(s) > rank(*best)) best = std::move(s);
  }
  if (best) return *best;
  Candidate all{b.id, {}, b.identifiers};
  for (const detail::Variant& v : theirs.list()) all.records.push_back(v.values);
  for (const detail::Variant& v : mine.list()) {
    Score s = matcher.Compare(v.values, all, counts);
    if (!best || rank(s) > rank(*best)) best = std::move(s);
  }
  return best.value_or(Score{});
}

}  // namespace

Explanation Engine::Explain(const Record& record, const Deadline& deadline) {
  Record asked = record;
  asked.explain = true;
  std::vector<detail::PreparedRecord> prepared{impl_->Prepare(asked)};
  UpsertResult r = Run(prepared, nullptr, deadline, /*dry_run=*/true).front();
  if (!r.ok()) {
    Explanation refused;
    refused.normalized = prepared.front().identifiers;
    refused.rejected = r.rejected;
    refused.threshold = impl_->matcher.model().threshold;
    refused.review_threshold = impl_->matcher.model().review_threshold;
    refused.error = r.error;
    return refused;
  }
  Explanation e = std::move(*r.explanation);
  if (e.decision == "create") e.person_id = 0;  // none was taken
  return e;
}

std::optional<PairExplanation> Engine::ExplainPair(std::int64_t a, std::int64_t b,
                                                   const Deadline& deadline) {
  std::optional<PairExplanation> out;
  impl_->RunTx(
      [&](detail::Tx& tx) {
        out.reset();
        const std::int64_t x = detail::ResolveMerged(tx, a).value_or(a);
        const std::int64_t y = detail::ResolveMerged(tx, b).value_or(b);
        const std::int64_t ids[] = {std::min(x, y), std::max(x, y)};
        auto persons = detail::ReadPersons(tx, std::span(ids, x == y ? 1 : 2));
        if (!persons.contains(x) || !persons.contains(y)) return;
        const Model& model = impl_->matcher.model();
        const detail::StoredPerson& pa = persons.at(x);
        const detail::StoredPerson& pb = persons.at(y);
        // The counts a record of A's values sees: A itself not counted.
        detail::CandidateRead read = detail::ReadCandidates(tx, pa.identifiers, {}, model);
        for (const Identifier& v : pa.identifiers) {
          if (auto it = read.counts.find(v); it != read.counts.end() && it->second > 0) {
            --it->second;
          }
        }
        PairExplanation p;
        p.person_a = x;
        p.person_b = y;
        p.threshold = model.threshold;
        p.review_threshold = model.review_threshold;
        p.score.person_id = y;
        p.score.score = ComparePersons(impl_->matcher, impl_->planner, pa, pb, read.counts);
        p.score.matched = impl_->matcher.Matches(p.score.score);
        p.score.chosen = x == y;
        for (std::int64_t n : pa.never) {
          if (detail::ResolveMerged(tx, n).value_or(n) == y) p.judgement = "never";
        }
        p.score.possible =
            !p.score.chosen && p.judgement.empty() && p.score.score.total >= model.review_threshold;
        out = std::move(p);
      },
      deadline);
  return out;
}

PossibleMatchPage Engine::ListPossibleMatches(const std::string& cursor, std::size_t limit,
                                              std::int64_t person_id, const Deadline& deadline) {
  const After after = ParseCursor(cursor);
  limit = std::clamp<std::size_t>(limit, 1, kMaxPossibleMatches);
  PossibleMatchPage page;
  impl_->RunTx(
      [&](detail::Tx& tx) {
        page = {};
        const auto n = static_cast<std::int64_t>(limit);
        tx.Defer(detail::kJitOff);
        const auto rows =
            person_id == 0 ? tx.Exec(detail::kListPossibleMatches, after.score, after.a, after.b, n)
                           : tx.Exec(detail::kListPossibleMatchesOf, after.score, after.a, after.b,
                                     n, person_id);
        for (const auto& row : rows) {
          const double score = std::strtod(row[2].as<std::string>().c_str(), nullptr);
          page.matches.push_back({row[0].as<std::int64_t>(), row[1].as<std::int64_t>(), score,
                                  FromMicros(row[3].as<std::int64_t>())});
          if (page.matches.size() == limit) {
            page.next_cursor = Cursor(score, row[4].as<std::int64_t>(), row[5].as<std::int64_t>());
          }
        }
      },
      deadline);
  return page;
}

}  // namespace idres
