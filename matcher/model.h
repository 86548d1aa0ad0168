// Model: how idres decides (docs/matching.md, "The matching model"). Per
// identifier type: its normalizer kind, its comparison and that
// comparison's levels, each with the m and u it is weighed by; whether a
// value belongs to one person only (exclusive); whether its exact agreement
// alone makes a match (strong); its generic cap; its evidence group. And the
// blocking rules that turn a record's values into the keys it locks and its
// candidates are found through.
//
// A level's weight is log2(m/u) (Fellegi–Sunter): m = how often the level is
// reached between two records of one person, u = between two records of
// different people. Plain value; safe to share read-only between threads.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "normalize/normalizer.h"

namespace idres {

// What a comparison looks at; each has a fixed list of levels
// (matcher/comparisons.h).
enum class ComparisonKind {
  kName,
  kBirthDate,
  kEmail,
  kPhone,
  kAddress,
  kPostalCode,
  kDocument,
  kText,
  kOpaque,
  kOrganization
};

struct Level {
  std::string name;  // e.g. "exact", "jaro_winkler_92", "different"
  double m = 0.5;
  double u = 0.5;
  double weight() const;  // log2(m / u)
};

struct TypeModel {
  NormalizerKind kind = NormalizerKind::kOpaque;
  ComparisonKind comparison = ComparisonKind::kOpaque;
  std::vector<Level> levels;  // best first, one per level of the comparison
  // A value belongs to at most one person (the unique index enforces it).
  bool exclusive = false;
  // Exact agreement on a non-generic value matches a person that holds no
  // evidence against (docs/matching.md, "Decision"). Strong values are looked up
  // and locked one by one.
  bool strong = false;
  // Held by more persons than this, a value is generic: no candidates, no
  // weight.
  std::size_t generic_cap = 5;
  // Comparisons of one group count once: the group's best positive weight
  // and its worst negative one (a family shares email, phone and address;
  // that is one piece of evidence).
  std::string group;
  // What a record holding a value of this type is ("person",
  // "organization"; empty: says nothing): records of two different
  // entities never match.
  std::string entity;
};

// A blocking rule: one key per combination of the parts' values (docs/matching.md,
// "Keys become locks"). A part is "<type>.<derivation>", derivations:
// value (any type); year, month_day (birth_date); surname, phonetic (the
// Double Metaphone codes of given name and surname), given_class (its
// nickname groups) (name); local (email: the part before @); street
// (address: house number, street and postal code); core (the words without
// legal forms, matcher/comparisons.h), phonetic (the Double Metaphone codes
// of its first two core words) (organization).
struct BlockingRule {
  std::string name;
  std::vector<std::string> parts;
};

struct Model {
  std::map<std::string, TypeModel, std::less<>> types;
  std::vector<BlockingRule> blocking;
  double threshold = 14.0;  // total weight (log2 odds) a person must reach
  // A best candidate from here up to the threshold is a possible match: the
  // record is stored apart, and the pair is kept for a steward's review.
  double review_threshold = 8.0;
  std::size_t max_keys = 256;  // per record; more is rejected
  // A blocking key held by more persons than this brings no candidates (it
  // is generic, as a value over its cap).
  std::size_t key_cap = 100;
  // A record is compared with at most this many of the persons it meets
  // through blocking keys alone, those sharing the most of its keys first
  // (docs/matching.md, "How many candidates a record reads"): what bounds
  // the work of a record however large the store grows. Persons holding one
  // of its strong values are compared besides.
  std::size_t max_candidates = 5;

  // The built-in model (docs/matching.md, "The matching model").
  static Model Defaults();

  // The type's model, or nullptr when the type takes no part in matching.
  const TypeModel* Find(std::string_view type) const;
  bool Exclusive(std::string_view type) const;

  // Each type's normalizer kind, for NormalizerConfig::kinds.
  std::map<std::string, NormalizerKind, std::less<>> NormalizerKinds() const;
  // `config` normalizing every type of the model as its kind says: the one
  // table of which type is normalized how.
  NormalizerConfig Normalizing(NormalizerConfig config = NormalizerConfig::Defaults()) const;

  // Why the model cannot be used (levels missing, m or u outside (0, 1],
  // unknown blocking parts), or empty.
  std::string Problem() const;
};

}  // namespace idres
