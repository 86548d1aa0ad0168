#include "matcher/comparisons.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

#include "matcher/detail/date_compare.h"
#include "matcher/detail/name_compare.h"
#include "matcher/detail/organization_compare.h"
#include "matcher/edit_distance.h"
#include "matcher/jaro_winkler.h"

namespace idres {
namespace {

namespace md = matcher_detail;

// The words of `s`, split at the C locale's white space (what a stream's
// >> splits at, without a stream's cost on the hot path).
std::vector<std::string> Tokens(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  std::vector<std::string> out;
  for (std::size_t start = s.find_first_not_of(kSpace); start != std::string_view::npos;) {
    const std::size_t end = std::min(s.find_first_of(kSpace, start), s.size());
    out.emplace_back(s.substr(start, end - start));
    start = s.find_first_not_of(kSpace, end);
  }
  return out;
}

bool HasDigit(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::string WithoutDigits(std::string_view s) {
  std::string out(s);
  std::erase_if(out, [](unsigned char c) { return std::isdigit(c) != 0; });
  return out;
}

// Jaro–Winkler of two words; words that differ in a digit are not alike.
double TokenSimilarity(std::string_view a, std::string_view b) {
  if (a != b && (HasDigit(a) || HasDigit(b))) return 0.0;
  return JaroWinkler(a, b);
}

std::size_t CompareEmails(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  // Mailboxes that differ only in their numbers are numbered accounts
  // (j.smith1, j.smith2), not a typo.
  if (WithoutDigits(a) == WithoutDigits(b)) return 3;
  const std::size_t at_a = a.rfind('@'), at_b = b.rfind('@');
  const bool same_domain = at_a != std::string_view::npos && at_b != std::string_view::npos &&
                           a.substr(at_a) == b.substr(at_b);
  if (same_domain && WithinOneEdit(a.substr(0, at_a), b.substr(0, at_b))) return 1;
  if (JaroWinkler(a, b) >= 0.88) return 2;
  return 3;
}

bool IsStreetType(std::string_view t) {
  static const std::array<std::string_view, 20> kTypes = {
      "st",  "ave",  "ln",  "rd", "dr", "ct",  "pl",  "blvd", "pkwy", "hwy",
      "ter", "cres", "cir", "sq", "cl", "way", "trl", "cove", "pde",  "cct"};
  return std::find(kTypes.begin(), kTypes.end(), t) != kTypes.end();
}

// A street's name and its type (main st: main, st), the type empty where
// the last word is none.
std::pair<std::string_view, std::string_view> StreetNameAndType(std::string_view street) {
  const std::size_t space = street.rfind(' ');
  if (space == std::string_view::npos || !IsStreetType(street.substr(space + 1))) {
    return {street, {}};
  }
  return {street.substr(0, space), street.substr(space + 1)};
}

// n, s, e, w and the four between them, as normalize/address.cc writes them.
bool IsCompass(std::string_view word) {
  static constexpr std::array<std::string_view, 8> kCompass = {"n",  "s",  "e",  "w",
                                                               "ne", "nw", "se", "sw"};
  return std::find(kCompass.begin(), kCompass.end(), word) != kCompass.end();
}

// A street name's compass words (n, sw ...), and the rest of its words.
std::pair<std::string, std::string> CompassAndRest(std::string_view name) {
  std::string compass, rest;
  for (std::size_t i = 0; i < name.size();) {
    const std::size_t end = std::min(name.find(' ', i), name.size());
    const std::string_view word = name.substr(i, end - i);
    std::string& to = IsCompass(word) ? compass : rest;
    to += (to.empty() ? "" : " ") + std::string(word);
    i = end + 1;
  }
  return {compass, rest};
}

// Whether two streets are one misspelt: the same type (church st is not
// church rd), the same compass words (n maple st is not s maple st) and the
// rest alike (high / hgih), no number apart (5th / 6th).
bool StreetsAlike(std::string_view a, std::string_view b) {
  const auto [name_a, type_a] = StreetNameAndType(a);
  const auto [name_b, type_b] = StreetNameAndType(b);
  if (type_a != type_b) return false;
  const auto [compass_a, rest_a] = CompassAndRest(name_a);
  const auto [compass_b, rest_b] = CompassAndRest(name_b);
  return compass_a == compass_b && TokenSimilarity(rest_a, rest_b) >= 0.9;
}

// A postal code without a ZIP+4's four (62704-1234 is 62704's); any other
// code whole (Poland's 61-100, Lisbon's 1250-096).
std::string_view TownCode(std::string_view code) {
  const bool zip4 = code.size() == 10 && code[5] == '-' &&
                    std::all_of(code.begin(), code.end(), [](char c) {
                      return c == '-' || std::isdigit(static_cast<unsigned char>(c));
                    });
  return zip4 ? code.substr(0, 5) : code;
}

// A postal code's shape: each letter a, each digit 9 (sw1a1aa: aa9a9aa).
std::string CodeShape(std::string_view code) {
  std::string out(code);
  for (char& c : out) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      c = '9';
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      c = 'a';
    }
  }
  return out;
}

std::size_t CompareAddresses(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  const AddressParts pa = SplitAddress(a), pb = SplitAddress(b);
  const bool same_code = !pa.postal_code.empty() && pa.postal_code == pb.postal_code;
  // Town codes of one shape more than a typo apart put one house number and
  // street in two towns (12 high st in oxford and in cambridge). Codes of
  // two shapes are no evidence either way: a number the split took for a
  // code (paris cedex 01, a phone number after it).
  const std::string_view town_a = TownCode(pa.postal_code), town_b = TownCode(pb.postal_code);
  const bool codes_apart = !town_a.empty() && CodeShape(town_a) == CodeShape(town_b) &&
                           !WithinOneEdit(town_a, town_b);
  // Within one postcode a street misspelt is still the street.
  const bool same_street = !pa.street.empty() && (pa.street == pb.street ||
                                                  (same_code && StreetsAlike(pa.street, pb.street)));
  if (!codes_apart && !pa.house.empty() && pa.house == pb.house && same_street) return 1;
  if (same_code) return 2;
  return 3;
}

// Words that name a flat, suite, floor or unit in a normalized address
// (normalize/address.cc writes apartment as apt, suite as ste, floor as fl,
// room as rm, building as bldg). Two of them are also other words: fl is
// Florida and ste Sainte, so those name a unit only beside a number.
bool IsUnitWord(std::string_view t) {
  static const std::array<std::string_view, 7> kUnits = {"flat", "apt", "unit", "rm",
                                                         "bldg", "ste", "fl"};
  return std::find(kUnits.begin(), kUnits.end(), t) != kUnits.end();
}

// A unit's number: short (flat 3, ste 200; apt 1203b), never a postcode
// (fl 33101 is Florida's).
bool IsUnitNumber(std::string_view t) {
  return HasDigit(t) && (t.size() <= 4 || (t.size() <= 6 && WithoutDigits(t).size() == 1));
}

// 1st, 2nd, 3rd, 4th ...: a floor's number written before it (3rd fl).
bool IsOrdinal(std::string_view t) {
  return t.size() >= 3 && std::isdigit(static_cast<unsigned char>(t[0])) &&
         (t.ends_with("st") || t.ends_with("nd") || t.ends_with("rd") || t.ends_with("th")) &&
         std::all_of(t.begin(), t.end() - 2, [](unsigned char c) { return std::isdigit(c) != 0; });
}

// Whether a word is a range of houses: two numbers of as many digits, the
// second the larger (1200-1210; not a ZIP+4 62704-1234 or 1250-096 Lisboa).
bool IsHouseRange(std::string_view t) {
  const std::size_t dash = t.find('-');
  if (dash == t.npos || dash == 0 || WithoutDigits(t) != "-" || t.size() != 2 * dash + 1) {
    return false;
  }
  return t.substr(0, dash) < t.substr(dash + 1);
}

// Whether a word can be a house number: it starts with a digit and is
// short (12, 12b, 12-14) or a range of houses; "sw1a" or a city's
// five-digit code is not one.
bool IsHouseNumber(std::string_view t) {
  return !t.empty() && std::isdigit(static_cast<unsigned char>(t[0])) &&
         (t.size() <= 6 || IsHouseRange(t));
}

// The last word with a digit from `from` on, no unit's, as `p`'s postal
// code; a British or Canadian code written in two parts (sw1a 1aa, k1a 0b1)
// as one.
void FindPostalCode(const std::vector<std::string>& t, const std::vector<bool>& unit,
                    const std::vector<bool>& number, std::size_t from, AddressParts& p) {
  for (std::size_t k = t.size(); k-- > from;) {
    if (unit[k] || !number[k]) continue;
    p.postal_code = t[k];
    const bool inward = t[k].size() == 3 && std::isdigit(static_cast<unsigned char>(t[k][0])) &&
                        std::isalpha(static_cast<unsigned char>(t[k][1]));
    if (inward && k > from && !unit[k - 1] && t[k - 1].size() >= 2 && t[k - 1].size() <= 4 &&
        std::isalpha(static_cast<unsigned char>(t[k - 1][0])) && HasDigit(t[k - 1])) {
      p.postal_code = t[k - 1] + t[k];
    }
    return;
  }
}

// A street's word in one spelling: German and Swiss street names end in
// strasse or str (hauptstrasse, hauptstr).
std::string StreetWord(std::string_view word) {
  if (word.size() > 7 && word.ends_with("strasse")) {
    return std::string(word.substr(0, word.size() - 4));
  }
  return std::string(word);
}

}  // namespace

const std::vector<std::string>& LevelNames(ComparisonKind kind) {
  static const std::vector<std::string> kEmail = {"exact", "one_edit", "similar", "different"};
  static const std::vector<std::string> kAddress = {"exact", "house_and_street", "postal_code_only",
                                                    "different"};
  static const std::vector<std::string> kDocument = {"exact", "one_edit", "different"};
  static const std::vector<std::string> kText = {"exact", "similar", "different"};
  static const std::vector<std::string> kExact = {"exact", "different"};
  switch (kind) {
    case ComparisonKind::kName:
      return md::NameLevelNames();
    case ComparisonKind::kBirthDate:
      return md::DateLevelNames();
    case ComparisonKind::kOrganization:
      return md::OrganizationLevelNames();
    case ComparisonKind::kEmail:
      return kEmail;
    case ComparisonKind::kAddress:
      return kAddress;
    case ComparisonKind::kDocument:
      return kDocument;
    case ComparisonKind::kText:
      return kText;
    default:
      return kExact;
  }
}

std::size_t CompareValues(ComparisonKind kind, std::string_view a, std::string_view b) {
  if (NoEvidence(kind, a) || NoEvidence(kind, b)) return kNoEvidence;
  switch (kind) {
    case ComparisonKind::kName:
      return md::CompareNames(a, b);
    case ComparisonKind::kBirthDate:
      return md::CompareDates(a, b);
    case ComparisonKind::kOrganization:
      return md::CompareOrganizations(a, b);
    case ComparisonKind::kEmail:
      return CompareEmails(a, b);
    case ComparisonKind::kAddress:
      return CompareAddresses(a, b);
    case ComparisonKind::kDocument:
      return a == b ? 0 : BoundedDamerauLevenshtein(a, b, 2) <= 1 ? 1 : 2;
    case ComparisonKind::kText:
      return a == b ? 0 : TokenSimilarity(a, b) >= 0.88 ? 1 : 2;
    default:
      return a == b ? 0 : 1;
  }
}

bool NoEvidence(ComparisonKind kind, std::string_view value) {
  return kind == ComparisonKind::kBirthDate && md::IsPlaceholderDate(value);
}

NameParts SplitName(std::string_view name) {
  NameParts p;
  p.words = Tokens(name);
  if (p.words.size() > 1 && md::IsNameSuffix(p.words.back())) {
    p.suffix = std::move(p.words.back());
    p.words.pop_back();
  }
  if (p.words.empty()) return p;
  p.surname = p.words.back();
  if (p.words.size() > 1) p.given = p.words.front();
  return p;
}

std::string OrganizationCore(std::string_view organization) {
  std::string out;
  for (const std::string& w : md::CoreWords(organization)) out += (out.empty() ? "" : " ") + w;
  return out;
}

AddressParts SplitAddress(std::string_view address) {
  const auto t = Tokens(address);
  AddressParts p;
  // A post office box is the address where there is one (po box 45 dubai,
  // postfach 1234 10115 berlin): the box as the house, the town's first
  // word as the street, and the postcode.
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    if ((t[k] != "box" && t[k] != "postfach") || !HasDigit(t[k + 1])) continue;
    p.house = "box " + t[k + 1];
    std::vector<bool> none(t.size(), false), number(t.size(), false);
    for (std::size_t j = k + 2; j < t.size(); ++j) {
      number[j] = HasDigit(t[j]);
      if (!number[j] && p.street.empty()) p.street = t[j];
    }
    FindPostalCode(t, none, number, k + 2, p);
    return p;
  }
  // A flat, suite or unit and its number (flat 3, apt 4b, #12) are no house
  // number, street or postal code.
  std::vector<bool> unit(t.size(), false);
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (t[k].starts_with('#')) unit[k] = true;
    if (!IsUnitWord(t[k])) continue;
    if (k > 0 && IsOrdinal(t[k - 1])) {
      unit[k - 1] = unit[k] = true;
    } else if (k + 1 < t.size() && IsUnitNumber(t[k + 1])) {
      unit[k] = unit[k + 1] = true;
    } else if (t[k] != "fl" && t[k] != "ste") {
      unit[k] = true;
    }
  }
  // The numbers of the address (a house's, a postcode), not a numbered
  // street's name (5th ave, w 42nd st; but e1 6st is a postcode).
  std::vector<bool> number(t.size(), false);
  for (std::size_t k = 0; k < t.size(); ++k) {
    number[k] = HasDigit(t[k]) && !(IsOrdinal(t[k]) && k + 1 < t.size() && IsStreetType(t[k + 1]));
  }
  std::size_t i = 0;
  while (i < t.size() && (unit[i] || !number[i])) ++i;
  if (i == t.size()) return p;
  std::size_t last = t.size() - 1;  // the last word with a digit, no unit's
  while (unit[last] || !number[last]) --last;
  // What comes first is no house number (sw1a 1aa) or the only number is
  // a postcode after the street, town and state (main st springfield il
  // 62704): a postcode and no house.
  const auto postcode_only = [&] {
    if (!IsHouseNumber(t[i])) return true;
    const bool street_after = i + 1 < t.size() && !unit[i + 1] && !number[i + 1];
    return !street_after && i == last && t[i].size() >= 4 &&
           std::all_of(t[i].begin(), t[i].end(), [](unsigned char c) { return std::isdigit(c); });
  };
  if (postcode_only()) {
    FindPostalCode(t, unit, number, i, p);
    return p;
  }
  p.house = t[i];
  std::size_t end = i + 1;
  while (end < t.size() && end < i + 4 && !unit[end] && !IsStreetType(t[end]) && !number[end]) {
    ++end;
  }
  if (end < t.size() && IsStreetType(t[end])) ++end;
  for (std::size_t k = i + 1; k < end; ++k) p.street += (k > i + 1 ? " " : "") + StreetWord(t[k]);
  if (p.street.empty()) {
    // The street before the number, as most of Europe writes it
    // (hauptstrasse 5, rue de rivoli 12): the words just before it.
    std::size_t first = i;
    while (first > 0 && first + 3 > i && !unit[first - 1] && !number[first - 1]) --first;
    for (std::size_t k = first; k < i; ++k) p.street += (k > first ? " " : "") + StreetWord(t[k]);
  }
  FindPostalCode(t, unit, number, end, p);
  return p;
}

std::string_view ComparisonName(ComparisonKind kind) {
  switch (kind) {
    case ComparisonKind::kName:
      return "name";
    case ComparisonKind::kBirthDate:
      return "birth_date";
    case ComparisonKind::kEmail:
      return "email";
    case ComparisonKind::kPhone:
      return "phone";
    case ComparisonKind::kAddress:
      return "address";
    case ComparisonKind::kPostalCode:
      return "postal_code";
    case ComparisonKind::kDocument:
      return "document";
    case ComparisonKind::kText:
      return "text";
    case ComparisonKind::kOpaque:
      return "opaque";
    case ComparisonKind::kOrganization:
      return "organization";
  }
  return "opaque";
}

bool ParseComparison(std::string_view name, ComparisonKind* kind) {
  for (ComparisonKind k :
       {ComparisonKind::kName, ComparisonKind::kBirthDate, ComparisonKind::kEmail,
        ComparisonKind::kPhone, ComparisonKind::kAddress, ComparisonKind::kPostalCode,
        ComparisonKind::kDocument, ComparisonKind::kText, ComparisonKind::kOpaque,
        ComparisonKind::kOrganization}) {
    if (ComparisonName(k) == name) {
      *kind = k;
      return true;
    }
  }
  return false;
}

}  // namespace idres
