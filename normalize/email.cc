#include "normalize/email.h"

#include <algorithm>
#include <string>

#include "normalize/detail/email_domain.h"
#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

constexpr std::size_t kMaxLocalBytes = 64;
constexpr std::size_t kMaxAddressBytes = 254;

// NFKC and lower case. Lowering can leave text that is not NFKC (and NFKC can
// expose new upper case), so the pair runs until stable: at most twice in
// practice.
std::string Canonical(std::string_view s, bool fast_path) {
  if (fast_path && nd::IsAscii(s)) return nd::AsciiLower(s);
  return nd::UntilStable(std::string(s), 4,
                         [](const std::string& text) { return nd::Lower(nd::Nfkc(text)); });
}

KindResult CheckLocal(std::string_view local) {
  if (local.empty()) return KindResult::Reject("the email local part (before @) is empty");
  if (local.size() > kMaxLocalBytes) {
    return KindResult::Reject("the email local part is longer than 64 bytes");
  }
  if (nd::HasSpaceOrControl(local)) {
    return KindResult::Reject("the email local part contains whitespace or a control character");
  }
  return KindResult::Ok(std::string(local));
}

// Gmail-style: "first.last+tag" -> "firstlast".
std::string Fold(std::string_view local) {
  std::string out(local.substr(0, local.find('+')));
  out.erase(std::remove(out.begin(), out.end(), '.'), out.end());
  return out;
}

bool Folds(std::string_view domain, const EmailOptions& options) {
  return std::find(options.folding_domains.begin(), options.folding_domains.end(), domain) !=
         options.folding_domains.end();
}

// The address of a mailbox written with a display name, as mail headers
// and address books write it: `Ann Lee <ann@x.org>`, `"Lee, Ann" <ann@x.org>`
// and `<ann@x.org>` are ann@x.org; so are a link's `mailto:ann@x.org` and a
// domain written fully qualified, `ann@x.org.`. Anything else is the
// address as given.
std::string_view AddressOf(std::string_view mailbox) {
  mailbox = nd::TrimSpace(mailbox);
  if (!mailbox.empty() && mailbox.back() == '>') {
    if (const std::size_t open = mailbox.rfind('<'); open != std::string_view::npos) {
      mailbox = nd::TrimSpace(mailbox.substr(open + 1, mailbox.size() - open - 2));
    }
  }
  constexpr std::string_view kScheme = "mailto:";
  while (mailbox.size() > kScheme.size() &&  // every one: normalizing is idempotent
         nd::AsciiLower(mailbox.substr(0, kScheme.size())) == kScheme) {
    mailbox.remove_prefix(kScheme.size());
  }
  if (mailbox.size() > 1 && mailbox.back() == '.' && mailbox[mailbox.size() - 2] != '.' &&
      mailbox[mailbox.size() - 2] != '@') {
    mailbox.remove_suffix(1);
  }
  return mailbox;
}

}  // namespace

KindResult normalize_detail::NormalizeEmailWith(std::string_view input, const EmailOptions& options,
                                                bool fast_path) {
  const std::string text = Canonical(AddressOf(input), fast_path);
  if (text.empty()) return KindResult::Reject("the email address is empty");
  const std::size_t at = text.find('@');
  if (at == std::string::npos) return KindResult::Reject("the email address has no @");
  if (text.find('@', at + 1) != std::string::npos) {
    return KindResult::Reject("the email address has more than one @");
  }
  KindResult local = CheckLocal(std::string_view(text).substr(0, at));
  if (!local.ok()) return local;
  KindResult domain = DomainToAscii(std::string_view(text).substr(at + 1), fast_path);
  if (!domain.ok()) return domain;
  if (Folds(domain.value, options)) {
    local.value = Fold(local.value);
    if (local.value.empty()) {
      return KindResult::Reject("the email local part is empty after folding");
    }
  }
  std::string address = local.value + "@" + domain.value;
  if (address.size() > kMaxAddressBytes) {
    return KindResult::Reject("the email address is longer than 254 bytes");
  }
  return KindResult::Ok(std::move(address));
}

KindResult NormalizeEmail(std::string_view input, const EmailOptions& options) {
  return normalize_detail::NormalizeEmailWith(input, options, /*fast_path=*/true);
}

}  // namespace idres
