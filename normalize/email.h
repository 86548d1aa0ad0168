// Email normalizer kind: one canonical spelling per mailbox.
//
// A mailbox with a display name (`Ann Lee <ann@x.org>`, `"Lee, Ann"
// <ann@x.org>`) is its address. Trims, applies NFKC and full Unicode lower
// case (root locale), converts the
// domain to ASCII with IDNA (UTS #46: "bücher.de" -> "xn--bcher-kva.de") and
// checks the syntax: exactly one "@", a local part of 1-64 bytes without
// whitespace, a domain with a dot, at most 254 bytes in all. Plain ASCII input
// takes a fast path that never touches ICU and gives the same result.
// Gmail-style folding (dots in the local part removed, "+tag" dropped) applies
// only to the configured domains.
// Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "normalize/kind_result.h"

namespace idres {

struct EmailOptions {
  // ASCII lowercase domains (after IDNA) that get gmail-style folding.
  std::vector<std::string> folding_domains;
};

// The canonical address for `input` (valid UTF-8, no non-space control
// characters), or the reason it is not an email address.
KindResult NormalizeEmail(std::string_view input, const EmailOptions& options);

}  // namespace idres
