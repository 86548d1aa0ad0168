// The two paths of email normalization: the domain's IDNA conversion, with an
// ASCII fast path that must agree with ICU, and NormalizeEmail with that fast
// path switchable. Internal to normalize/ and its fuzzer, which checks that
// both paths agree. Pure functions; thread-safe.
#pragma once

#include <string_view>

#include "normalize/email.h"
#include "normalize/kind_result.h"

namespace idres::normalize_detail {

// Whether lowercase ASCII `domain` is one IDNA returns unchanged and without
// error: letters, digits and hyphens, labels of 1-63 bytes, no hyphen at a
// label's ends or in positions 3-4, at most 253 bytes. False means "ask ICU".
bool IsPlainAsciiDomain(std::string_view domain);

// `domain` (NFKC, lowercase, valid UTF-8) converted to ASCII with UTS #46, or
// the reason it is not a domain name; `fast_path` lets a plain ASCII domain
// skip ICU.
KindResult DomainToAscii(std::string_view domain, bool fast_path);

// NormalizeEmail with the ASCII fast path on or off.
KindResult NormalizeEmailWith(std::string_view input, const EmailOptions& options, bool fast_path);

}  // namespace idres::normalize_detail
