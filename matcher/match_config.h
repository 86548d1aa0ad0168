// MatchConfig: per identifier type, its weight and whether a value may belong
// to one person only; and the threshold a person's score must reach.
//
// A person's score for a record is the sum, over types, of the weight of each
// type for which the person holds one of the record's values (a type counts
// once). Plain value; safe to share read-only between threads.
#pragma once

#include <functional>
#include <map>
#include <string>

namespace idres {

struct TypeRule {
  double weight = 0.0;
  bool unique = false;  // a value belongs to at most one person
};

struct MatchConfig {
  std::map<std::string, TypeRule, std::less<>> types;
  double threshold = 1.0;

  // email, phone, cookie, device_id, customer_id: 1.0, unique;
  // name 0.4, birth_date 0.4, postal_code 0.3; threshold 1.0.
  static MatchConfig Defaults();

  // The rule for `type`, or nullptr when the type is not configured.
  const TypeRule* Find(std::string_view type) const;
};

}  // namespace idres
