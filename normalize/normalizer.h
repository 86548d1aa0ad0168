// Normalizer: turns a raw (type, value) into one canonical string, or a
// Rejection that says why not.
//
// Which normalizer a type uses is configuration (NormalizerConfig::kinds),
// filled from the matching model's types (matcher/model.h): the model is the
// one place that says what an email or a city is. Every value must be valid UTF-8;
// no normalized value ever contains a control character (U+0000-U+001F,
// U+007F-U+009F), which is what lets composite lock keys join parts with
// U+001F (see lock_key.h).
//
// Values longer than kMaxValueBytes, as given or once normalized, are
// rejected before any library sees them.
//
// Thread-safety: a Normalizer is immutable after construction; Normalize()
// may be called from any number of threads at once.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "normalize/date.h"
#include "normalize/identifier.h"

namespace idres {

// The longest value accepted, in bytes, as input and as normalized output.
inline constexpr std::size_t kMaxValueBytes = 1024;

// The normalizer kinds a type can be mapped to.
enum class NormalizerKind {
  kEmail,
  kPhone,
  kOpaque,
  kName,
  kDate,
  kPostalCode,
  kAddress,
  kDocument,
  kText,
  kOrganization
};

struct NormalizerConfig {
  // Region (ISO 3166-1 alpha-2) for phone numbers written without a country
  // code when the record names none.
  std::string default_region = "US";
  // How D/M/Y and M/D/Y dates are told apart when nothing else tells
  // (normalize/date.h): by default from the record's region, else
  // default_region.
  DateOrder date_order = DateOrder::kFromRegion;
  // Also require libphonenumber's IsValidNumber (not only IsPossibleNumber).
  bool require_valid_phone = false;
  // Domains (ASCII, lowercase) on which gmail-style folding applies: dots in
  // the local part removed, "+tag" dropped. Off (empty) by default.
  std::vector<std::string> email_folding_domains;
  // Type name -> kind: the matching model's types (Model::NormalizerKinds,
  // matcher/model.h), the one table of which type is normalized how.
  std::map<std::string, NormalizerKind, std::less<>> kinds;

  // The settings above at their defaults, and no type.
  static NormalizerConfig Defaults();
};

// Either the canonical identifier or the reason it was rejected.
using NormalizeResult = std::variant<Identifier, Rejection>;

class Normalizer {
 public:
  explicit Normalizer(NormalizerConfig config = NormalizerConfig::Defaults());
  ~Normalizer();
  Normalizer(const Normalizer&) = delete;
  Normalizer& operator=(const Normalizer&) = delete;

  // Canonical form of `value` as an identifier of `type`. `region` overrides
  // the configured default region for phones and the order of dates (empty:
  // use the default).
  // Unknown types, invalid UTF-8 and invalid values come back as Rejection.
  NormalizeResult Normalize(std::string_view type, std::string_view value,
                            std::string_view region = {}) const;

  // Whether `type` is configured.
  bool KnowsType(std::string_view type) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace idres
