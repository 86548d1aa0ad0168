// KindResult: what one normalizer kind (email.h, phone.h, ...) returns: the
// canonical text, or the reason the input was rejected. The Normalizer
// (normalizer.h) turns it into an Identifier or a Rejection with the
// configured type name, which the kinds do not know.
// A plain value; safe to copy between threads.
#pragma once

#include <string>
#include <utility>

namespace idres {

struct KindResult {
  // A successful result carrying the canonical value.
  static KindResult Ok(std::string value) { return {std::move(value), {}}; }
  // A rejection carrying a reason a person can read (never empty).
  static KindResult Reject(std::string reason) { return {{}, std::move(reason)}; }

  // True when the input was accepted.
  bool ok() const { return reason.empty(); }

  std::string value;   // canonical value when ok()
  std::string reason;  // why not, when !ok()
};

}  // namespace idres
