#include "bench/suite/pgbench_scripts.h"

#include <cctype>
#include <stdexcept>
#include <variant>
#include <vector>

#include "bench/suite/workload.h"
#include "engine/detail/begin_sql.h"
#include "engine/detail/statements.h"
#include "engine/engine.h"
#include "normalize/normalizer.h"

// Each statement is the engine's own (engine/detail/statements.h), named
// here once; its parameters are bound by pgbench: a variable used twice
// becomes two parameters, so each is cast where its type matters.
namespace idres::bench {
namespace {

using detail::Statement;

constexpr const char* kRandomKey = "random(-4000000000000000000, 4000000000000000000)";

// pgbench reads ":name" as a variable even inside a literal, so a literal
// holding one (the time format's "HH24:MI") is written E'...' with its
// colons as \x3a.
std::string PgbenchLiteral(const std::string& literal) {
  bool colon = false;
  for (std::size_t i = 0; i + 1 < literal.size(); ++i) {
    const auto next = static_cast<unsigned char>(literal[i + 1]);
    colon |= literal[i] == ':' && (std::isalnum(next) || next == '_');
  }
  if (!colon) return "'" + literal + "'";
  std::string out = "E'";
  for (const char c : literal) {
    if (c == ':') {
      out += "\\x3a";
    } else {
      out += c == '\\' ? "\\\\" : std::string(1, c);
    }
  }
  return out + "'";
}

// `statement` as one script command: each $n replaced by args[n-1] (one
// operand: a variable, a literal, an ARRAY[...], or parenthesized).
std::string Bind(const Statement& statement, const std::vector<std::string>& args) {
  const std::string sql = statement.sql;
  std::string out;
  for (std::size_t i = 0; i < sql.size();) {
    if (sql[i] == '\'') {
      std::size_t end = i + 1;
      while (end < sql.size() && (sql[end] != '\'' || sql.compare(end, 2, "''") == 0)) {
        end += sql[end] == '\'' ? 2 : 1;
      }
      out += PgbenchLiteral(sql.substr(i + 1, end - i - 1));
      i = end + 1;
    } else if (sql[i] == '$' && i + 1 < sql.size() && std::isdigit(sql[i + 1])) {
      std::size_t end = i + 1;
      while (end < sql.size() && std::isdigit(sql[end])) ++end;
      const std::size_t n = std::stoul(sql.substr(i + 1, end - i - 1));
      if (n == 0 || n > args.size()) {
        throw std::logic_error(std::string(statement.name) + " takes $" + std::to_string(n));
      }
      out += args[n - 1];
      i = end;
    } else {
      out += sql[i++];
    }
  }
  return out + ";\n";
}

std::string Array(const std::string& elements) { return "ARRAY[" + elements + "]"; }

// One round trip: `commands` as one pipeline.
std::string Pipeline(const std::string& commands) {
  return "\\startpipeline\n" + commands + "\\endpipeline\n";
}

// The engine's opening statements (BeginCalls), locking `keys`.
std::string Begin(const std::string& keys) {
  detail::Timeouts timeouts;
  timeouts.lock = EngineOptions{}.lock_timeout;
  std::string out;
  for (const detail::Call& c : detail::BeginCalls(timeouts, {})) {
    std::vector<std::string> literals;
    for (const std::string& p : c.params) literals.push_back("'" + p + "'");
    out += literals.empty() ? std::string(c.sql) + ";\n" : Bind({c.name, c.sql}, literals);
  }
  return out + Bind(detail::kLockKeys, {Array(keys)});
}

// `item` `n` times, comma-separated.
std::string Times(const std::string& item, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + item;
  return out;
}

// kUpdatePersons of person `id` (a bigint): no new identifier, match keys
// `keys` (`n_keys` elements), traits from ARRAY[...] bodies (`n_traits`).
std::string WriteUpdate(const std::string& id, const std::string& keys, int n_keys,
                        const std::string& trait_keys, const std::string& kinds,
                        const std::string& values, int n_traits) {
  const std::string key_key = n_keys > 0 ? Array(keys) : "'{}'";
  const std::string key_person = n_keys > 0 ? Array(Times(id, n_keys)) : "'{}'";
  return Bind(detail::kUpdatePersons,
              {Array(id), Array(Times(id, n_traits)), Array(trait_keys), Array(kinds),
               Array(values), "'{}'", "'{}'", "'{}'", "'{}'", key_key, key_person});
}

// kWriteRecords of one record of person `id` (a bigint) with one email and
// 2 traits, under an id generated from `id`.
std::string WriteRecord(const std::string& id, const std::string& email) {
  return Bind(detail::kWriteRecords,
              {Array("0"), Array(id), Array("'default'"), Array("'g-u' || :k1 || '-' || " + id),
               Array("0"), Array("'email'"), Array(email), Array(Times("0", 2)),
               Array("'plan', 'visits'"), Array("'string', 'number'"), Array("'basic', :k1")});
}

// A record's other values for the candidate read's counts: types, values
// and the types' caps, as ARRAY[...] bodies.
struct Counted {
  std::string types, values, caps;
};

// kReadCandidates for `n` strong values (types, values) at the built-in cap,
// the `counted` values and the blocking keys given.
std::string Candidates(const std::string& types, const std::string& values, int n,
                       const std::string& keys, const Counted& counted = {}) {
  const Model model = Model::Defaults();
  const auto Or = [](const std::string& body) { return body.empty() ? "'{}'" : Array(body); };
  return Bind(detail::kReadCandidates,
              {Array(types), Array(values),
               Array(Times(std::to_string(model.Find("email")->generic_cap), n)), Or(counted.types),
               Or(counted.values), Or(counted.caps), keys, std::to_string(model.key_cap)});
}

// ":k<first>, ..., :k<last>".
std::string KeyVariables(std::size_t first, std::size_t last) {
  std::string out;
  for (std::size_t i = first; i <= last; ++i)
    out += (i > first ? ", :k" : ":k") + std::to_string(i);
  return out;
}

// kLockPersons and kReadPersons of the persons `ids`.
std::string LockAndReread(const std::string& ids) {
  return Bind(detail::kLockPersons, {Array(ids)}) + Bind(detail::kReadPersons, {Array(ids)});
}

// The update of one person of first..persons, without the \set lines.
std::string UpdateBody() {
  return Pipeline(Begin(":k1") +
                  Candidates("'email'", "'p' || :id || '@preload.example.org'", 1, "'{}'")) +
         Pipeline(LockAndReread(":id")) +
         Pipeline(WriteUpdate(":id::bigint", "", 0, "'plan', 'visits'", "'string', 'number'",
                              "'basic', :k1", 2) +
                  WriteRecord(":id::bigint", "'p' || :id || '@preload.example.org'") + "COMMIT;\n");
}

std::string UpdateSets() {
  return std::string("\\set id random(:first, :persons)\n\\set k1 ") + kRandomKey + "\n";
}

// kMoveIdentifiers and kRedirectAndDelete: :absorbed into :survivor.
std::string Merge() {
  return Bind(detail::kMoveIdentifiers, {":survivor::bigint", Array(":absorbed")}) +
         Bind(detail::kRedirectAndDelete, {":survivor::bigint", Array(":absorbed"),
                                           Array("'bridged by an upsert'"), Array("'t 11 6'")});
}

// kCreatePersons creating one person (a provisional id, as the engine's
// resolver hands out) with 5 identifiers (`weak`: name, birth date and postal
// code), the match keys `keys` (`n_keys` of them) and 2 traits.
std::string NewPerson(const std::string& email, const std::string& phone, const std::string& weak,
                      const std::string& keys, std::size_t n_keys) {
  const std::string prov = std::to_string(std::int64_t{1} << 62);
  return Bind(
      detail::kCreatePersons,
      {Array(prov), Array("true"), Array(Times(prov, 2)), Array("'plan', 'seq'"),
       Array("'string', 'number'"), Array("'trial', :n"), Array(Times(prov, 5)),
       Array("'email', 'phone', 'name', 'birth_date', 'postal_code'"),
       Array(email + ", " + phone + ", " + weak), Array("false, false, false, false, false"),
       Array(keys), Array(Times(prov, static_cast<int>(n_keys))), "'{}'", "'{}'",
       "'{}'",  // no merge reasons: nobody is merged
       // its record: the same values and traits, under a generated id
       Array("0"), Array(prov), Array("'default'"), Array("'g-' || :n"), Array(Times("0", 5)),
       Array("'email', 'phone', 'name', 'birth_date', 'postal_code'"),
       Array(email + ", " + phone + ", " + weak), Array(Times("0", 2)), Array("'plan', 'seq'"),
       Array("'string', 'number'"), Array("'trial', :n"),
       // no part split off, no judgement, no merge breakdown, no possible match
       "'{}'", "'{}'", "'{}'", "'{}'", "'{}'", "'{}'", "'{}'", "'{}'"});
}

}  // namespace

LockPlan NewRecordPlan() {
  const Model model = Model::Defaults();
  NormalizerConfig config = NormalizerConfig::Defaults();
  config.kinds = model.NormalizerKinds();
  const Normalizer normalizer(std::move(config));
  std::vector<Identifier> values;
  for (const RawIdentifier& raw : Workload('a', 0).Next(1).record.identifiers) {
    values.push_back(std::get<Identifier>(normalizer.Normalize(raw.type, raw.value, "")));
  }
  return LockPlanner(model).Plan(values);
}

std::string PgbenchNewScript() {
  // As many keys as the engine locks and stores for the workload's record;
  // the last ones stand for its blocking keys.
  const LockPlan plan = NewRecordPlan();
  const std::size_t n_lock = plan.lock_keys.size(), n_match = plan.match_keys.size();
  std::string sets = "\\set n random(1, 9000000000000000)\n";
  for (std::size_t i = 1; i <= n_lock; ++i) {
    sets += "\\set k" + std::to_string(i) + " " + kRandomKey + "\n";
  }
  const std::string email = "'g' || :n || '@pgbench.example.org'";
  const std::string phone = "'+1653' || :n";
  // Spread as the workload spreads them (bench/suite/workload.cc), so the
  // counts read stay as small as the engine's.
  const std::string name = "'pgbench person ' || :n";
  const std::string date = "('1960-01-01'::date + (:n::bigint % 10080)::int)::text";
  const std::string postal = "(10000 + :n::bigint % 90000)::text";
  const Model model = Model::Defaults();
  const auto cap = [&](const char* type) { return std::to_string(model.Find(type)->generic_cap); };
  const Counted counted{"'name', 'birth_date', 'postal_code'", name + ", " + date + ", " + postal,
                        cap("name") + ", " + cap("birth_date") + ", " + cap("postal_code")};
  const std::string match_keys = KeyVariables(n_lock - n_match + 1, n_lock);
  return sets +
         Pipeline(Begin(KeyVariables(1, n_lock)) + Candidates("'email', 'phone'",
                                                              email + ", " + phone, 2,
                                                              Array(match_keys), counted)) +
         Pipeline(NewPerson(email, phone, name + ", " + date + ", " + postal, match_keys, n_match) +
                  "COMMIT;\n");
}

std::string PgbenchUpdateScript() { return UpdateSets() + UpdateBody(); }

std::string PgbenchBridgeScript() {
  std::string keys = ":m::bigint";
  for (int i = 1; i < 8; ++i) keys += ", :m::bigint + " + std::to_string(i);
  return std::string("\\set round :round + 1\n") +
         "\\set pair :client_id + :nclients * (:round - 1)\n" + "\\if 2 * :pair + 2 <= :half\n" +
         "\\set survivor 2 * :pair + 1\n\\set absorbed 2 * :pair + 2\n" +
         "\\set phone 2000000 + :absorbed\n" + "\\set k1 " + kRandomKey + "\n\\set k2 " +
         kRandomKey + "\n\\set m " + kRandomKey + "\n" +
         Pipeline(Begin(":k1, :k2") +
                  Candidates("'email', 'phone'",
                             "'p' || :survivor || '@preload.example.org', '+1650' || :phone", 2,
                             "'{}'")) +
         Pipeline(LockAndReread(":survivor, :absorbed")) +
         Pipeline(Merge() +
                  WriteUpdate(":survivor::bigint", keys, 8, "'bridged_by', 'plan', 'visits'",
                              "'number', 'string', 'number'", ":round, 'basic', :absorbed", 3) +
                  WriteRecord(":survivor::bigint", "'p' || :survivor || '@preload.example.org'") +
                  "COMMIT;\n") +
         "\\else\n" + UpdateSets() + UpdateBody() + "\\endif\n";
}

}  // namespace idres::bench
