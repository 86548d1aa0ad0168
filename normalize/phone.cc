#include "normalize/phone.h"

#include <phonenumbers/logger.h>
#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <optional>
#include <set>
#include <string>

#include "normalize/detail/utf8.h"

namespace idres {
namespace {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

constexpr std::size_t kMaxRegionBytes = 3;

std::string ParseErrorReason(PhoneNumberUtil::ErrorType error) {
  switch (error) {
    case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR:
      return "the phone number has no valid country code and the region does not supply one";
    case PhoneNumberUtil::NOT_A_NUMBER:
      return "not a phone number";
    case PhoneNumberUtil::TOO_SHORT_AFTER_IDD:
      return "the phone number is too short after the international prefix";
    case PhoneNumberUtil::TOO_SHORT_NSN:
      return "the phone number is too short";
    case PhoneNumberUtil::TOO_LONG_NSN:
      return "the phone number is too long";
    default:
      return "the phone number could not be parsed";
  }
}

// Whether libphonenumber knows `code` ("DE", "US", ...; never "ZZ").
bool IsKnownRegion(const PhoneNumberUtil& util, const std::string& code) {
  static const std::set<std::string> known = [&] {
    std::set<std::string> regions;
    util.GetSupportedRegions(&regions);
    return regions;
  }();
  return known.contains(code);
}

std::string PossibleReason(PhoneNumberUtil::ValidationResult result) {
  switch (result) {
    case PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY:
      return "not a possible phone number: only dialable locally (area code missing?)";
    case PhoneNumberUtil::INVALID_COUNTRY_CODE:
      return "not a possible phone number: invalid country code";
    case PhoneNumberUtil::TOO_SHORT:
      return "not a possible phone number: too short";
    case PhoneNumberUtil::TOO_LONG:
      return "not a possible phone number: too long";
    default:
      return "not a possible phone number: invalid length";
  }
}

// Region codes are ASCII letters; anything else is passed as "ZZ" (unknown),
// which only numbers with a "+country code" survive.
std::string RegionCode(std::string_view region) {
  if (region.empty() || region.size() > kMaxRegionBytes) return "ZZ";
  std::string out(region);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c < 'A' || c > 'Z') return "ZZ";
  }
  return out;
}

// `e164` formatted again after parsing it back: itself for almost every
// number, but not always ("005B11U111U11DE1" in DE gives +5218111811331,
// which reads back as +528111811331: Mexico's old mobile token "1").
// nullopt when it does not parse.
std::optional<std::string> ReadBack(const PhoneNumberUtil& util, const std::string& e164) {
  PhoneNumber again;
  if (util.Parse(e164, "ZZ", &again) != PhoneNumberUtil::NO_PARSING_ERROR) return std::nullopt;
  std::string formatted;
  util.Format(again, PhoneNumberUtil::E164, &formatted);
  return formatted;
}

KindResult Check(const PhoneNumberUtil& util, PhoneNumber& number, bool require_valid) {
  if (number.national_number() == 0) return KindResult::Reject("the phone number is all zeros");
  number.clear_extension();
  const auto possible = util.IsPossibleNumberWithReason(number);
  if (possible != PhoneNumberUtil::IS_POSSIBLE) return KindResult::Reject(PossibleReason(possible));
  if (require_valid && !util.IsValidNumber(number)) {
    return KindResult::Reject("not a valid phone number (no such number range in its region)");
  }
  std::string e164;
  util.Format(number, PhoneNumberUtil::E164, &e164);
  // The canonical form must be a fixpoint: a value that normalizes to
  // another would lock another key when it comes back.
  const std::optional<std::string> again = ReadBack(util, e164);
  if (again == e164) return KindResult::Ok(std::move(e164));
  if (number.italian_leading_zero()) {
    return KindResult::Reject("the phone number's leading zeros do not survive E.164 (" + e164 +
                              " reads back as another number)");
  }
  // The same number, written without a dialling token: take that form if it
  // is stable itself.
  if (again && ReadBack(util, *again) == again) return KindResult::Ok(*again);
  return KindResult::Reject("the phone number has no stable E.164 form (" + e164 +
                            " reads back as another number)");
}

KindResult ParseAndCheck(std::string_view input, std::string_view region,
                         const PhoneOptions& options) {
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  PhoneNumber number;
  const std::string_view given = region.empty() ? options.default_region : region;
  const std::string code = RegionCode(given);
  const auto error = util.Parse(std::string(input), code, &number);
  // A number with "+" (ASCII or full-width) brought its own country code.
  const bool has_plus =
      input.find('+') != std::string_view::npos || input.find("\uFF0B") != std::string_view::npos;
  if (error == PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR && !has_plus && !given.empty() &&
      !IsKnownRegion(util, code)) {
    // The region was meant to supply the country code and cannot: say so.
    return KindResult::Reject(
        "the phone number has no country code, and the region is not one (two letters, ISO "
        "3166-1, e.g. DE)");
  }
  if (error != PhoneNumberUtil::NO_PARSING_ERROR)
    return KindResult::Reject(ParseErrorReason(error));
  return Check(util, number, options.require_valid);
}

}  // namespace

void InitPhoneLibrary() {
  static const bool once = [] {
    PhoneNumberUtil::GetInstance()->SetLogger(new i18n::phonenumbers::NullLogger());
    return true;
  }();
  (void)once;
}

KindResult NormalizePhone(std::string_view input, std::string_view region,
                          const PhoneOptions& options) {
  KindResult result = ParseAndCheck(input, region, options);
  // "00" is the international call prefix of most of the world: a number
  // written with it that its region (the US's is 011) cannot read is read
  // as if written with "+" (0044 20 7946 0000).
  const std::string_view trimmed = normalize_detail::TrimSpace(input);
  if (!result.ok() && trimmed.starts_with("00") && trimmed.size() > 2) {
    KindResult international = ParseAndCheck("+" + std::string(trimmed.substr(2)), region, options);
    if (international.ok()) return international;
  }
  return result;
}

}  // namespace idres
