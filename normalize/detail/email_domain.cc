#include "normalize/detail/email_domain.h"

#include <unicode/uidna.h>

#include <algorithm>
#include <string>

#include "normalize/detail/icu.h"

namespace idres::normalize_detail {
namespace {

constexpr std::size_t kMaxLabelBytes = 63;
constexpr std::size_t kMaxDomainBytes = 253;

bool IsLdh(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

bool IsPlainLabel(std::string_view label) {
  if (label.empty() || label.size() > kMaxLabelBytes) return false;
  if (label.front() == '-' || label.back() == '-') return false;
  // "ab--..." is reserved (e.g. "xn--" punycode): let ICU decide.
  if (label.size() >= 4 && label[2] == '-' && label[3] == '-') return false;
  return std::all_of(label.begin(), label.end(), IsLdh);
}

// The first IDNA error in `errors`, in words.
std::string IdnaReason(uint32_t errors) {
  if (errors & UIDNA_ERROR_EMPTY_LABEL) return "the email domain has an empty label";
  if (errors & UIDNA_ERROR_LABEL_TOO_LONG) return "an email domain label is longer than 63 bytes";
  if (errors & UIDNA_ERROR_DOMAIN_NAME_TOO_LONG) return "the email domain is longer than 253 bytes";
  if (errors & (UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN)) {
    return "an email domain label starts or ends with a hyphen";
  }
  if (errors & UIDNA_ERROR_HYPHEN_3_4) {
    return "an email domain label has hyphens in positions 3 and 4";
  }
  if (errors & UIDNA_ERROR_DISALLOWED) {
    return "the email domain contains a character not allowed in domain names";
  }
  if (errors & (UIDNA_ERROR_PUNYCODE | UIDNA_ERROR_INVALID_ACE_LABEL)) {
    return "the email domain has an invalid punycode (xn--) label";
  }
  if (errors & UIDNA_ERROR_BIDI) return "the email domain mixes text directions invalidly";
  return "the email domain is not a valid internationalized domain name";
}

KindResult IcuToAscii(std::string_view domain) {
  char buffer[1024];
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  UErrorCode status = U_ZERO_ERROR;
  const int32_t length =
      uidna_nameToASCII_UTF8(Uts46(), domain.data(), static_cast<int32_t>(domain.size()), buffer,
                             sizeof buffer, &info, &status);
  if (status == U_BUFFER_OVERFLOW_ERROR) {
    return KindResult::Reject("the email domain is longer than 253 bytes");
  }
  if (U_FAILURE(status)) return KindResult::Reject("the email domain could not be converted");
  if (info.errors != 0) return KindResult::Reject(IdnaReason(info.errors));
  return KindResult::Ok(std::string(buffer, static_cast<std::size_t>(length)));
}

// A domain needs two or more non-empty labels; IDNA accepts one label and a
// trailing root dot, email does not.
KindResult CheckLabels(KindResult ascii) {
  if (!ascii.ok()) return ascii;
  const std::string& d = ascii.value;
  if (d.find('.') == std::string::npos) return KindResult::Reject("the email domain has no dot");
  if (d.front() == '.' || d.back() == '.' || d.find("..") != std::string::npos) {
    return KindResult::Reject("the email domain has an empty label");
  }
  return ascii;
}

}  // namespace

bool IsPlainAsciiDomain(std::string_view domain) {
  if (domain.empty() || domain.size() > kMaxDomainBytes) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = domain.find('.', start);
    const std::string_view label = domain.substr(start, dot - start);
    if (!IsPlainLabel(label)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

KindResult DomainToAscii(std::string_view domain, bool fast_path) {
  if (domain.empty()) return KindResult::Reject("the email domain (after @) is empty");
  if (fast_path && IsPlainAsciiDomain(domain))
    return CheckLabels(KindResult::Ok(std::string(domain)));
  return CheckLabels(IcuToAscii(domain));
}

}  // namespace idres::normalize_detail
