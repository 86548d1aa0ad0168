#include "matcher/lock_plan.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include <unicode/utf8.h>

#include "matcher/comparisons.h"
#include "matcher/nicknames.h"
#include "matcher/phonetic.h"
#include "normalize/lock_key.h"

namespace idres {
namespace {

using ValuesByType = std::map<std::string, std::set<std::string>, std::less<>>;

ValuesByType GroupByType(std::span<const Identifier> identifiers) {
  ValuesByType grouped;
  for (const Identifier& id : identifiers) grouped[id.type].insert(id.value);
  return grouped;
}

template <typename T>
void SortUnique(std::vector<T>& items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
}

// The first `n` characters (UTF-8 code points) of `s`.
std::string Prefix(std::string_view s, std::int32_t n) {
  std::int32_t end = 0;
  U8_FWD_N(s.data(), end, static_cast<std::int32_t>(s.size()), n);
  return std::string(s.substr(0, static_cast<std::size_t>(end)));
}

void AddCodes(const PhoneticCodes& c, std::set<std::string>& out) {
  if (!c.primary.empty()) out.insert(c.primary);
  if (!c.alternate.empty()) out.insert(c.alternate);
}

// The values `derivation` makes of one organization name: its core, or
// the codes of its first two core words (a typo elsewhere still meets).
void DeriveOrganization(std::string_view derivation, const std::string& v,
                        std::set<std::string>& out) {
  if (derivation == "core") {
    if (std::string core = OrganizationCore(v); !core.empty()) out.insert(std::move(core));
    return;
  }
  const std::string core = OrganizationCore(v);
  std::size_t start = 0;
  for (int word = 0; word < 2 && start < core.size(); ++word) {
    const std::size_t end = std::min(core.find(' ', start), core.size());
    AddCodes(DoubleMetaphone(core.substr(start, end - start)), out);
    start = end + 1;
  }
}

// The values `derivation` makes of one value of a type compared by `kind`.
void Derive(ComparisonKind kind, std::string_view derivation, const std::string& v,
            std::set<std::string>& out) {
  if (derivation == "value") {
    out.insert(v);
  } else if (derivation == "year") {
    if (v.size() == 10) out.insert(v.substr(0, 4));
  } else if (derivation == "month_day") {
    if (v.size() == 10) out.insert(v.substr(5));
  } else if (derivation == "month") {
    if (v.size() == 10) out.insert(v.substr(5, 2));
  } else if (derivation == "local") {
    if (const std::size_t at = v.rfind('@'); at != std::string::npos) out.insert(v.substr(0, at));
  } else if (derivation == "street") {
    const AddressParts a = SplitAddress(v);
    if (!a.house.empty() && !a.street.empty())
      out.insert(a.house + " " + a.street + " " + a.postal_code);
  } else if (kind == ComparisonKind::kOrganization) {
    DeriveOrganization(derivation, v, out);
  } else {
    // A single name may be a given name or a surname: it stands for both.
    NameParts n = SplitName(v);
    if (n.given.empty()) n.given = n.surname;
    if (derivation == "surname") {
      out.insert(n.surname);
    } else if (derivation == "phonetic") {
      AddCodes(DoubleMetaphone(n.given), out);
      AddCodes(DoubleMetaphone(n.surname), out);
    } else if (derivation == "given_class") {
      for (std::string& c : NameClasses(n.given)) out.insert(std::move(c));
    } else if (derivation == "initials") {
      out.insert(Prefix(n.given, 1));
      out.insert(Prefix(n.surname, 1));
    } else if (n.words.size() < 2) {
      // The rest take a given name and a surname of one name, never a word
      // standing for both: a lone smith would meet every s. smith.
    } else if (derivation == "given_surname_prefix") {
      out.insert(n.given + " " + Prefix(n.surname, 3));
    } else if (derivation == "surname_given_initial") {
      out.insert(n.surname + " " + Prefix(n.given, 1));
    } else if (derivation == "sorted") {
      std::sort(n.words.begin(), n.words.end());
      std::string joined;
      for (const std::string& w : n.words) joined += (joined.empty() ? "" : " ") + w;
      out.insert(std::move(joined));
    }
  }
}

// The values each rule part ("type.derivation") derives from one record,
// each computed once however many rules use it: a name's phonetic codes
// serve three rules of the default model.
class Derivations {
 public:
  Derivations(const Model& model, const ValuesByType& values) : model_(model), values_(values) {}

  // The values `part` derives, sorted and unique; empty when the record
  // lacks the part's type or nothing derives from its values. A value that
  // is no evidence (the placeholder date 1900-01-01) derives nothing: it
  // would only make a hot key of every record that holds it.
  const std::vector<std::string>& Of(const std::string& part) {
    for (const auto& [name, derived] : done_) {
      if (*name == part) return derived;
    }
    const std::size_t dot = part.find('.');
    const std::string_view type = std::string_view(part).substr(0, dot);
    std::set<std::string> derived;
    if (auto it = values_.find(type); it != values_.end()) {
      const ComparisonKind kind = model_.Find(type)->comparison;
      for (const std::string& v : it->second) {
        if (NoEvidence(kind, v)) continue;
        Derive(kind, std::string_view(part).substr(dot + 1), v, derived);
      }
    }
    return done_.emplace_back(&part, std::vector<std::string>(derived.begin(), derived.end()))
        .second;
  }

 private:
  const Model& model_;
  const ValuesByType& values_;
  // Few parts (a dozen in the default model): a list beats a map. A deque:
  // what Of returned stays where it is while more parts are derived.
  std::deque<std::pair<const std::string*, std::vector<std::string>>> done_;
};

// Appends one composite key per combination of the rule's part values
// (and, with `explained`, each key's rule and parts); stops (returns false) once
// `out` would exceed `cap`.
bool AppendRuleKeys(const BlockingRule& rule, Derivations& derivations, std::size_t cap,
                    std::vector<std::int64_t>& out, std::vector<BlockingKey>* explained = nullptr) {
  // Each column: a part's values, and each written as the key's part
  // "<rule>.<part>:<value>".
  std::vector<const std::vector<std::string>*> values;
  std::vector<std::vector<std::string>> texts;
  for (const std::string& part : rule.parts) {
    const std::vector<std::string>& derived = derivations.Of(part);
    if (derived.empty()) return true;  // the record lacks a part of the rule
    values.push_back(&derived);
    const std::string type = rule.name + "." + part;
    std::vector<std::string>& column = texts.emplace_back();
    column.reserve(derived.size());
    for (const std::string& d : derived) column.push_back(KeyPart(type, d));
  }
  std::vector<std::size_t> pos(texts.size(), 0);
  std::vector<std::string_view> parts(texts.size());
  while (true) {
    if (out.size() >= cap) return false;
    for (std::size_t i = 0; i < texts.size(); ++i) parts[i] = texts[i][pos[i]];
    out.push_back(CompositeKeyOfParts(parts));
    if (explained != nullptr) {
      BlockingKey& k = explained->emplace_back(BlockingKey{rule.name, {}, out.back()});
      for (std::size_t i = 0; i < values.size(); ++i)
        k.parts += (k.parts.empty() ? "" : " ") + (*values[i])[pos[i]];
    }
    // Odometer step over the columns.
    std::size_t i = 0;
    for (; i < pos.size(); ++i) {
      if (++pos[i] != texts[i].size()) break;
      pos[i] = 0;
    }
    if (i == pos.size()) return true;
  }
}

}  // namespace

LockPlanner::LockPlanner(Model model) : model_(std::move(model)) {}

LockPlan LockPlanner::Plan(std::span<const Identifier> identifiers) const {
  LockPlan plan;
  for (const Identifier& id : identifiers) {
    const TypeModel* t = model_.Find(id.type);
    if (t != nullptr && (t->exclusive || t->strong)) {
      plan.lookups.push_back(id);
      plan.lock_keys.push_back(LockKey(id));
    }
  }
  SortUnique(plan.lookups);
  bool truncated = false;
  plan.match_keys = MatchKeys(identifiers, model_.max_keys + 1, &truncated);
  if (truncated || plan.match_keys.size() + plan.lookups.size() > model_.max_keys) {
    plan.error = "too many keys (more than " + std::to_string(model_.max_keys) +
                 "); send fewer names, dates, addresses or postal codes";
    return plan;
  }
  plan.lock_keys.insert(plan.lock_keys.end(), plan.match_keys.begin(), plan.match_keys.end());
  SortUnique(plan.lock_keys);
  return plan;
}

std::vector<BlockingKey> LockPlanner::BlockingKeys(std::span<const Identifier> identifiers) const {
  const ValuesByType values = GroupByType(identifiers);
  Derivations derivations(model_, values);
  std::vector<std::int64_t> keys;
  std::vector<BlockingKey> out;
  for (const BlockingRule& rule : model_.blocking) {
    if (!AppendRuleKeys(rule, derivations, model_.max_keys + 1, keys, &out)) break;
  }
  std::sort(out.begin(), out.end(), [](const BlockingKey& a, const BlockingKey& b) {
    return std::tie(a.rule, a.parts) < std::tie(b.rule, b.parts);
  });
  return out;
}

std::vector<std::int64_t> LockPlanner::MatchKeys(std::span<const Identifier> identifiers,
                                                 std::size_t cap, bool* truncated) const {
  const ValuesByType values = GroupByType(identifiers);
  Derivations derivations(model_, values);
  std::vector<std::int64_t> keys;
  bool complete = true;
  for (const BlockingRule& rule : model_.blocking) {
    if (!AppendRuleKeys(rule, derivations, cap, keys)) {
      complete = false;
      break;
    }
  }
  SortUnique(keys);
  if (truncated != nullptr) *truncated = !complete;
  return keys;
}

}  // namespace idres
