// Identifier and Rejection: the two values every normalizer returns.
//
// An Identifier is one canonical (type, value) pair: after normalization two
// spellings of the same email or phone are byte-equal, so they match, lock
// and index as one. A Rejection is bad input as a value with a reason a
// person can read; normalizers never throw on bad input and never drop it.
// Plain values; safe to copy between threads.
#pragma once

#include <compare>
#include <string>

namespace idres {

struct Identifier {
  std::string type;   // configured type name, e.g. "email", "phone"
  std::string value;  // canonical value, valid UTF-8, no control characters

  friend bool operator==(const Identifier&, const Identifier&) = default;
  friend auto operator<=>(const Identifier&, const Identifier&) = default;
};

struct Rejection {
  std::string type;    // the type the caller asked for
  std::string input;   // the raw input as received (may be invalid UTF-8)
  std::string reason;  // why, for people: "not a possible phone number"

  friend bool operator==(const Rejection&, const Rejection&) = default;
};

}  // namespace idres
