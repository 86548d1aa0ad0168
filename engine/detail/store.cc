#include "engine/detail/store.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "engine/detail/pg_array.h"
#include "engine/detail/prepared_record.h"
#include "engine/detail/traits_codec.h"

namespace idres::detail {
namespace {

std::string Ints(std::span<const std::int64_t> ids) { return BigintArray(ids); }

// A trait row's columns at, at + 1, at + 2 (key, jsonb type, text) into
// `traits`.
template <typename Row>
void ReadTrait(const Row& row, int at, Traits& traits) {
  traits[row[at].template as<std::string>()] =
      DecodeTrait(row[at + 1].template as<std::string>(),
                  row[at + 2].is_null() ? "" : row[at + 2].template as<std::string>());
}

}  // namespace

void LockKeys(Tx& tx, std::span<const std::int64_t> keys) {
  if (!keys.empty()) tx.Exec(kLockKeys, Ints(keys));
}

namespace {

// The candidate read's parameters: strong and exclusive values bring their
// holders (side 0); the others are counted (side 1).
struct CandidateParams {
  std::vector<const Identifier*> by_ord[2];
  std::vector<std::string> types[2], texts[2];
  std::vector<std::int64_t> caps[2];
};

CandidateParams ParamsOf(std::span<const Identifier> values, const Model& model) {
  CandidateParams p;
  for (const Identifier& v : values) {
    const TypeModel* t = model.Find(v.type);
    if (t == nullptr) continue;
    const int side = t->strong || t->exclusive ? 0 : 1;
    p.by_ord[side].push_back(&v);
    p.types[side].push_back(v.type);
    p.texts[side].push_back(v.value);
    p.caps[side].push_back(static_cast<std::int64_t>(t->exclusive ? 1 : t->generic_cap));
  }
  return p;
}

}  // namespace

namespace {

// EXPLAIN of `s` with `params` as $1...: with prepared statements, EXPLAIN
// EXECUTE shows the connection's cached plan of the named statement. A
// utility statement takes no parameters, so EXECUTE's arguments are
// literals here (standard quoting: this connection has
// standard_conforming_strings on, PostgreSQL's default). Without, EXPLAIN of
// the text with the parameters is the plan an unnamed statement gets.
std::vector<std::string> Explain(Tx& tx, const Statement& s, std::vector<std::string> params,
                                 bool prepared) {
  std::string sql;
  if (prepared) {
    sql = std::string("EXPLAIN EXECUTE ") + s.name + "(";
    for (std::size_t i = 0; i < params.size(); ++i) {
      std::string quoted = "'";
      for (char c : params[i]) quoted += c == '\'' ? std::string("''") : std::string(1, c);
      sql += (i > 0 ? ", " : "") + quoted + "'";
    }
    sql += ")";
    params.clear();
  } else {
    sql = std::string("EXPLAIN ") + s.sql;
  }
  std::vector<std::string> lines;
  for (const auto& row : tx.ExecWith(Statement{nullptr, sql.c_str()}, std::move(params))) {
    lines.push_back(row[0].as<std::string>());
  }
  return lines;
}

}  // namespace

std::vector<std::string> ExplainCandidateRead(Tx& tx, std::span<const Identifier> values,
                                              std::span<const std::int64_t> keys,
                                              const Model& model, bool prepared) {
  const CandidateParams p = ParamsOf(values, model);
  return Explain(
      tx, kReadCandidates,
      {TextArray(p.types[0]), TextArray(p.texts[0]), Ints(p.caps[0]), TextArray(p.types[1]),
       TextArray(p.texts[1]), Ints(p.caps[1]), Ints(keys), std::to_string(model.key_cap)},
      prepared);
}

std::vector<std::string> ExplainReceiptRead(Tx& tx, std::int64_t job,
                                            std::span<const std::int64_t> items, bool prepared) {
  return Explain(tx, kReadReceipts, {std::to_string(job), Ints(items)}, prepared);
}

CandidateRead ReadCandidates(Tx& tx, std::span<const Identifier> values,
                             std::span<const std::int64_t> keys, const Model& model) {
  const CandidateParams p = ParamsOf(values, model);
  const auto& by_ord = p.by_ord;
  const auto& caps = p.caps;
  const auto key_cap = static_cast<std::int64_t>(model.key_cap);
  const Rows rows =
      tx.Exec(kReadCandidates, TextArray(p.types[0]), TextArray(p.texts[0]), Ints(caps[0]),
              TextArray(p.types[1]), TextArray(p.texts[1]), Ints(caps[1]), Ints(keys), key_cap);
  std::map<std::size_t, std::vector<std::int64_t>> holders;  // strong value ord -> persons
  std::map<std::int64_t, std::vector<std::int64_t>> key_holders;
  CandidateRead out;
  for (const auto& row : rows) {
    const std::string kind = row[0].as<std::string>();
    const auto ord = static_cast<std::size_t>(row[1].as<std::int64_t>() - 1);
    const auto n = row[2].as<std::int64_t>();
    if (kind == "h") {
      holders[ord].push_back(n);
    } else if (kind == "n") {
      out.counts[*by_ord[1][ord]] = static_cast<std::size_t>(n);
    } else {
      key_holders[keys[ord]].push_back(n);
    }
  }
  for (const auto& [ord, persons] : holders) {
    out.counts[*by_ord[0][ord]] = persons.size();
    if (persons.size() <= static_cast<std::size_t>(caps[0][ord])) {
      out.persons.insert(out.persons.end(), persons.begin(), persons.end());
      out.value_holders.insert(out.value_holders.end(), persons.begin(), persons.end());
    }
  }
  std::sort(out.value_holders.begin(), out.value_holders.end());
  out.value_holders.erase(std::unique(out.value_holders.begin(), out.value_holders.end()),
                          out.value_holders.end());
  for (auto& [key, persons] : key_holders) {
    if (persons.size() > model.key_cap) {
      out.generic_keys.insert(key);
    } else {
      out.persons.insert(out.persons.end(), persons.begin(), persons.end());
      std::sort(persons.begin(), persons.end());
      out.key_holders[key] = std::move(persons);
    }
  }
  std::sort(out.persons.begin(), out.persons.end());
  out.persons.erase(std::unique(out.persons.begin(), out.persons.end()), out.persons.end());
  return out;
}

std::vector<std::int64_t> KeyCandidates(std::span<const std::int64_t> keys,
                                        const KeyHolders& holders, std::size_t max) {
  // Each (person, holders of a key it shares), sorted: a person's run gives
  // how many keys it shares, its first entry its rarest. A vector sorted
  // once, not a tree node per holder: a record late in an import meets
  // tens of holders, up to key_cap per key (BENCHMARKS.md, "Read persons'
  // keys from the read").
  std::vector<std::pair<std::int64_t, std::size_t>> met;
  for (std::int64_t key : keys) {
    const auto it = holders.find(key);
    if (it == holders.end()) continue;
    for (std::int64_t person : it->second) met.emplace_back(person, it->second.size());
  }
  std::sort(met.begin(), met.end());
  struct Rank {
    std::int64_t person;
    std::size_t shared;
    std::size_t rarest;  // holders of its least held shared key
  };
  std::vector<Rank> ranked;
  for (std::size_t i = 0, j = 0; i < met.size(); i = j) {
    while (j < met.size() && met[j].first == met[i].first) ++j;
    ranked.push_back({met[i].first, j - i, met[i].second});
  }
  if (ranked.size() > max) {
    // Ascending ids break the ties: the order is total.
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(max),
                      ranked.end(), [](const Rank& a, const Rank& b) {
                        return std::tie(b.shared, a.rarest, a.person) <
                               std::tie(a.shared, b.rarest, b.person);
                      });
    ranked.resize(max);
  }
  std::vector<std::int64_t> out;
  out.reserve(ranked.size());
  for (const Rank& r : ranked) out.push_back(r.person);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::int64_t> LockPersons(Tx& tx, std::span<const std::int64_t> ids) {
  std::vector<std::int64_t> out;
  if (ids.empty()) return out;
  for (const auto& row : tx.Exec(kLockPersons, Ints(ids))) out.push_back(row[0].as<std::int64_t>());
  return out;
}

void LockPersonsWithNext(Tx& tx, std::span<const std::int64_t> ids) {
  if (!ids.empty()) tx.Defer(kLockPersons, Ints(ids));
}

std::map<std::int64_t, StoredPerson> ReadPersons(Tx& tx, std::span<const std::int64_t> ids) {
  std::map<std::int64_t, StoredPerson> out;
  if (ids.empty()) return out;
  // Identifier and trait rows of a person deleted between the branches of
  // the statement cannot appear: one statement is one snapshot.
  std::map<std::int64_t, std::vector<Identifier>> record_values;  // by record row
  std::map<std::int64_t, std::int64_t> record_person;
  for (const auto& row : tx.Exec(kReadPersons, Ints(ids))) {
    StoredPerson& p = out[row[0].as<std::int64_t>()];
    p.id = row[0].as<std::int64_t>();
    const std::string kind = row[1].as<std::string>();
    if (kind == "r") {
      const std::int64_t record = std::stoll(row[2].as<std::string>());
      record_person[record] = p.id;
      record_values[record].push_back({row[3].as<std::string>(), row[4].as<std::string>()});
    } else if (kind == "p") {
      p.created_at = FromMicros(row[2].as<std::int64_t>());
      p.updated_at = FromMicros(row[3].as<std::int64_t>());
    } else if (kind == "i") {
      p.identifiers.push_back({row[2].as<std::string>(), row[3].as<std::string>()});
    } else if (kind == "j") {
      p.never.push_back(std::stoll(row[2].as<std::string>()));
    } else {
      ReadTrait(row, 2, p.traits);
    }
  }
  for (auto& [record, values] : record_values) {
    std::sort(values.begin(), values.end());
    StoredPerson& p = out[record_person[record]];
    // Identifiers come as rows only for a person without records; else
    // they are its records' values (kReadPersons).
    p.identifiers.insert(p.identifiers.end(), values.begin(), values.end());
    p.record_values.push_back(std::move(values));
  }
  for (auto& [id, p] : out) Dedup(p.identifiers);
  return out;
}

std::map<std::size_t, NamedRecord> ReadNamedRecords(Tx& tx, const std::vector<std::string>& sources,
                                                    const std::vector<std::string>& record_ids) {
  std::map<std::size_t, NamedRecord> out;
  if (sources.empty()) return out;
  std::map<std::size_t, std::map<std::int64_t, std::vector<Identifier>>> records;
  for (const auto& row : tx.Exec(kReadNamedRecords, TextArray(sources), TextArray(record_ids))) {
    const auto i = static_cast<std::size_t>(row[0].as<std::int64_t>() - 1);
    NamedRecord& n = out[i];
    n.row = row[1].as<std::int64_t>();
    n.person_id = row[2].as<std::int64_t>();
    if (row[4].is_null()) continue;
    const Identifier v{row[4].as<std::string>(), row[5].as<std::string>()};
    n.person_values.push_back(v);
    records[i][row[3].as<std::int64_t>()].push_back(v);
  }
  for (auto& [i, n] : out) {
    Dedup(n.person_values);
    for (auto& [row, values] : records[i]) {
      std::sort(values.begin(), values.end());
      n.person_records.push_back(std::move(values));
    }
  }
  return out;
}

std::map<std::int64_t, std::vector<StoredRecord>> ReadRecordsOf(Tx& tx,
                                                                std::span<const std::int64_t> ids) {
  std::map<std::int64_t, std::vector<StoredRecord>> out;
  if (ids.empty()) return out;
  std::map<std::int64_t, StoredRecord> by_row;
  for (const auto& row : tx.Exec(kReadRecordsOf, Ints(ids))) {
    StoredRecord& r = by_row[row[1].as<std::int64_t>()];
    r.row = row[1].as<std::int64_t>();
    const std::string kind = row[0].as<std::string>();
    if (kind == "r") {
      r.person_id = std::stoll(row[2].as<std::string>());
      r.source = row[3].as<std::string>();
      r.record_id = row[4].as<std::string>();
      r.created_at = FromMicros(row[5].as<std::int64_t>());
      r.updated_at = FromMicros(row[6].as<std::int64_t>());
      if (!row[7].is_null()) r.bond = row[7].as<std::int64_t>();
    } else if (kind == "v") {
      r.values.push_back({row[3].as<std::string>(), row[4].as<std::string>()});
    } else {
      ReadTrait(row, 3, r.traits);
    }
  }
  for (auto& [row, r] : by_row) {
    std::sort(r.values.begin(), r.values.end());
    out[r.person_id].push_back(std::move(r));
  }
  for (auto& [person, records] : out) {
    std::sort(records.begin(), records.end(), [](const StoredRecord& a, const StoredRecord& b) {
      return std::tie(a.created_at, a.row) < std::tie(b.created_at, b.row);
    });
  }
  return out;
}

void RecordWrites::Add(std::int64_t owner, const StoredRecord& record) {
  const auto o = static_cast<std::int64_t>(ord.size());
  ord.push_back(o);
  person.push_back(owner);
  source.push_back(record.source);
  record_id.push_back(record.record_id);
  for (const Identifier& v : record.values) {
    value_ord.push_back(o);
    value_type.push_back(v.type);
    value_text.push_back(v.value);
  }
  for (const auto& [k, v] : record.traits) {
    const EncodedTrait e = EncodeTrait(v);
    trait_ord.push_back(o);
    trait_keys.push_back(k);
    trait_kinds.push_back(e.kind);
    trait_values.push_back(e.text);
  }
}

void DeferRecordWrites(Tx& tx, const RecordWrites& w) {
  if (w.empty()) return;
  tx.Defer(kWriteRecords, Ints(w.ord), Ints(w.person), TextArray(w.source), TextArray(w.record_id),
           Ints(w.value_ord), TextArray(w.value_type), TextArray(w.value_text), Ints(w.trait_ord),
           TextArray(w.trait_keys), TextArray(w.trait_kinds), TextArray(w.trait_values));
}

void DeferShrink(Tx& tx, const PersonLosses& l) {
  if (l.empty()) return;
  tx.Defer(kShrinkPersons, Ints(l.id_person), TextArray(l.id_type), TextArray(l.id_value),
           Ints(l.key_key), Ints(l.key_person));
}

void DeferDropRecords(Tx& tx, std::span<const std::int64_t> rows,
                      std::span<const std::int64_t> emptied) {
  if (rows.empty() && emptied.empty()) return;
  tx.Defer(kDropRecords, Ints(rows), Ints(emptied));
}

void PersonWrites::AddTraits(std::int64_t owner, const Traits& traits) {
  for (const auto& [k, v] : traits) {
    const EncodedTrait e = EncodeTrait(v);
    trait_owner.push_back(owner);
    trait_keys.push_back(k);
    trait_kinds.push_back(e.kind);
    trait_values.push_back(e.text);
  }
}

void PersonWrites::AddIdentifiers(std::int64_t person, const NewIdentifiers& ids) {
  id_person.insert(id_person.end(), ids.types.size(), person);
  id_type.insert(id_type.end(), ids.types.begin(), ids.types.end());
  id_value.insert(id_value.end(), ids.values.begin(), ids.values.end());
  id_unique.insert(id_unique.end(), ids.unique.begin(), ids.unique.end());
}

void PersonWrites::AddMatchKeys(std::int64_t person, std::span<const std::int64_t> keys) {
  key_key.insert(key_key.end(), keys.begin(), keys.end());
  key_person.insert(key_person.end(), keys.size(), person);
}

void DeferUpdates(Tx& tx, const PersonWrites& w) {
  if (w.persons.empty()) return;
  tx.Defer(kUpdatePersons, Ints(w.persons), Ints(w.trait_owner), TextArray(w.trait_keys),
           TextArray(w.trait_kinds), TextArray(w.trait_values), Ints(w.id_person),
           TextArray(w.id_type), TextArray(w.id_value), BoolArray(w.id_unique), Ints(w.key_key),
           Ints(w.key_person));
}

void DeferAddMatchKeys(Tx& tx, const PersonWrites& w) {
  if (w.key_key.empty()) return;
  tx.Defer(kAddMatchKeys, Ints(w.key_key), Ints(w.key_person));
}

std::map<std::int64_t, std::int64_t> CreateAndCommit(Tx& tx, const PersonWrites& w) {
  const Rows rows = tx.ExecAndCommit(
      kCreatePersons, Ints(w.persons), BoolArray(w.inserted), Ints(w.trait_owner),
      TextArray(w.trait_keys), TextArray(w.trait_kinds), TextArray(w.trait_values),
      Ints(w.id_person), TextArray(w.id_type), TextArray(w.id_value), BoolArray(w.id_unique),
      Ints(w.key_key), Ints(w.key_person), Ints(w.merge_absorbed), Ints(w.merge_survivor),
      TextArray(w.merge_reasons), Ints(w.records.ord), Ints(w.records.person),
      TextArray(w.records.source), TextArray(w.records.record_id), Ints(w.records.value_ord),
      TextArray(w.records.value_type), TextArray(w.records.value_text), Ints(w.records.trait_ord),
      TextArray(w.records.trait_keys), TextArray(w.records.trait_kinds),
      TextArray(w.records.trait_values), Ints(w.split_from), Ints(w.split_part), Ints(w.never_a),
      Ints(w.never_b), TextArray(w.merge_scores), Ints(w.possible.a), Ints(w.possible.b),
      TextArray(w.possible.score));
  std::map<std::int64_t, std::int64_t> real;
  for (const auto& row : rows) real[row[0].as<std::int64_t>()] = row[1].as<std::int64_t>();
  return real;
}

void MergeInto(Tx& tx, std::int64_t survivor, std::span<const std::int64_t> absorbed,
               const std::vector<std::string>& reasons, const std::vector<std::string>& scores) {
  tx.Defer(kMoveIdentifiers, survivor, Ints(absorbed));
  tx.Defer(kRedirectAndDelete, survivor, Ints(absorbed), TextArray(reasons), TextArray(scores));
}

void PossibleWrites::Add(std::int64_t x, std::int64_t y, double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", s);
  a.push_back(x);
  b.push_back(y);
  score.emplace_back(buf);
}

void DeferPossibleMatches(Tx& tx, const PossibleWrites& w) {
  if (w.a.empty()) return;
  tx.Defer(kWritePossibleMatches, Ints(w.a), Ints(w.b), TextArray(w.score));
}

std::optional<std::int64_t> ResolveMerged(Tx& tx, std::int64_t id) {
  const Rows r = tx.Exec(kResolveId, id);
  if (r.empty()) return std::nullopt;
  return r[0][0].as<std::int64_t>();
}

std::vector<std::int64_t> FindByIdentifier(Tx& tx, const Identifier& id, std::size_t limit) {
  std::vector<std::int64_t> out;
  for (const auto& row : tx.Exec(kFindByIdentifier, id.type, id.value, limit)) {
    out.push_back(row[0].as<std::int64_t>());
  }
  return out;
}

StoreStats ReadStats(Tx& tx) {
  const Rows r = tx.Exec(kStats);
  const auto at = [&](int i) { return r[0][i].as<std::int64_t>(); };
  return StoreStats{at(0), at(1), at(2), at(3), at(4), at(5), at(6)};
}

std::vector<std::pair<std::int64_t, Identifier>> ReadAllIdentifiers(Tx& tx) {
  std::vector<std::pair<std::int64_t, Identifier>> out;
  for (const auto& row : tx.Exec(kReadAllIdentifiers)) {
    out.push_back(
        {row[0].as<std::int64_t>(), {row[1].as<std::string>(), row[2].as<std::string>()}});
  }
  return out;
}

std::map<std::int64_t, std::vector<std::vector<Identifier>>> ReadAllRecordValues(Tx& tx) {
  std::map<std::int64_t, std::vector<std::vector<Identifier>>> out;
  std::int64_t record = 0;
  for (const auto& row : tx.Exec(kReadAllRecordValues)) {
    const auto person = row[0].as<std::int64_t>(), r = row[1].as<std::int64_t>();
    if (r != record) out[person].emplace_back();
    record = r;
    out[person].back().push_back({row[2].as<std::string>(), row[3].as<std::string>()});
  }
  for (auto& [person, records] : out) {
    for (auto& values : records) std::sort(values.begin(), values.end());
  }
  return out;
}

void DropStaleValues(Tx& tx, std::int64_t id, const std::vector<Identifier>& stale) {
  std::vector<std::string> types, values;
  for (const Identifier& s : stale) {
    types.push_back(s.type);
    values.push_back(s.value);
  }
  tx.Defer(kDropStaleValues, id, TextArray(types), TextArray(values));
}

void DeferRenormalizeRecords(Tx& tx, std::int64_t id, const std::vector<Identifier>& stale,
                             const std::vector<Identifier>& today) {
  if (stale.empty()) return;
  std::vector<std::string> ot, ov, nt, nv;
  for (std::size_t i = 0; i < stale.size(); ++i) {
    ot.push_back(stale[i].type);
    ov.push_back(stale[i].value);
    nt.push_back(today[i].type);
    nv.push_back(today[i].value);
  }
  tx.Defer(kRenormalizeRecords, id, TextArray(ot), TextArray(ov), TextArray(nt), TextArray(nv));
}

void Ping(Tx& tx) { tx.Exec(kPing); }

}  // namespace idres::detail
