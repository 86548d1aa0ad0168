#include "normalize/normalizer.h"

#include <string>
#include <utility>

#include "normalize/address.h"
#include "normalize/date.h"
#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"
#include "normalize/document.h"
#include "normalize/email.h"
#include "normalize/name.h"
#include "normalize/opaque.h"
#include "normalize/organization.h"
#include "normalize/phone.h"
#include "normalize/postal_code.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

// The checks every kind shares; an empty string means "go on". The reason
// names the byte offset, since the bad byte is often invisible.
// kMaxValueBytes, far above any real identifier, keeps hostile values
// (megabytes) from ever reaching ICU or libphonenumber.
std::string PrecheckReason(std::string_view value) {
  if (value.size() > kMaxValueBytes) return "the value is longer than 1024 bytes";
  if (const std::size_t at = nd::InvalidUtf8At(value); at != std::string_view::npos) {
    return "the value is not valid UTF-8 (at byte " + std::to_string(at) + ")";
  }
  if (const std::size_t at = nd::NonSpaceControlAt(value); at != std::string_view::npos) {
    return "the value contains a control character (at byte " + std::to_string(at) + ")";
  }
  return {};
}

}  // namespace

NormalizerConfig NormalizerConfig::Defaults() { return NormalizerConfig{}; }

struct Normalizer::Impl {
  NormalizerConfig config;
  EmailOptions email;
  PhoneOptions phone;
  DateOptions date;

  KindResult Run(NormalizerKind kind, std::string_view value, std::string_view region) const {
    switch (kind) {
      case NormalizerKind::kEmail:
        return NormalizeEmail(value, email);
      case NormalizerKind::kPhone:
        return NormalizePhone(value, region, phone);
      case NormalizerKind::kOpaque:
        return NormalizeOpaque(value);
      case NormalizerKind::kName:
        return NormalizeName(value);
      case NormalizerKind::kDate:
        return NormalizeDate(value, region, date);
      case NormalizerKind::kPostalCode:
        return NormalizePostalCode(value);
      case NormalizerKind::kAddress:
        return NormalizeAddress(value);
      case NormalizerKind::kDocument:
        return NormalizeDocument(value);
      case NormalizerKind::kText:
        return NormalizeText(value);
      case NormalizerKind::kOrganization:
        return NormalizeOrganization(value);
    }
    return KindResult::Reject("internal error: unknown normalizer kind");
  }
};

Normalizer::Normalizer(NormalizerConfig config) : impl_(std::make_unique<Impl>()) {
  nd::InitIcu();  // fail at startup, not on the first record, if ICU data is missing
  InitPhoneLibrary();
  // Compared with the IDNA output, which is lowercase ASCII.
  for (const std::string& domain : config.email_folding_domains) {
    impl_->email.folding_domains.push_back(nd::AsciiLower(domain));
  }
  impl_->phone = PhoneOptions{config.default_region, config.require_valid_phone};
  impl_->date = DateOptions{config.date_order, config.default_region, std::nullopt};
  impl_->config = std::move(config);
}

Normalizer::~Normalizer() = default;

bool Normalizer::KnowsType(std::string_view type) const {
  return impl_->config.kinds.find(type) != impl_->config.kinds.end();
}

NormalizeResult Normalizer::Normalize(std::string_view type, std::string_view value,
                                      std::string_view region) const {
  auto reject = [&](std::string reason) {
    return Rejection{std::string(type), std::string(value), std::move(reason)};
  };
  const auto kind = impl_->config.kinds.find(type);
  if (kind == impl_->config.kinds.end()) return reject("unknown identifier type");
  if (std::string reason = PrecheckReason(value); !reason.empty()) return reject(std::move(reason));
  KindResult result = impl_->Run(kind->second, value, region);
  if (!result.ok()) return reject(std::move(result.reason));
  // Transliteration can grow a name; a value normalizing accepts must itself
  // pass the length check, or normalizing it again would reject it.
  if (result.value.size() > kMaxValueBytes) {
    return reject("the normalized value is longer than 1024 bytes");
  }
  // The lock-key separator contract depends on this; check it, never assume it.
  if (!nd::IsValidUtf8(result.value) || nd::HasControl(result.value)) {
    return reject("internal error: the normalized value is not clean UTF-8");
  }
  return Identifier{std::string(type), std::move(result.value)};
}

}  // namespace idres
