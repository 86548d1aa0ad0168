#include "matcher/comparisons.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "matcher/edit_distance.h"
#include "matcher/jaro_winkler.h"
#include "matcher/nicknames.h"
#include "matcher/phonetic.h"

namespace idres {
namespace {

std::vector<std::string> Tokens(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

bool HasDigit(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// Name levels, best first (LevelNames(kName)).
enum NameLevel : std::size_t {
  kNameExact,
  kNameReordered,
  kNameNickname,
  kNameInitial,
  kNameJw92,
  kNameJw88,
  kNameSurnamePhonetic,
  kNameSurnameOnly,
  kNameDifferent
};

// Jaro–Winkler of two name tokens; tokens that differ in a digit are not
// alike (a number is no typo: "person 1234" is not "person 1235").
double TokenSimilarity(std::string_view a, std::string_view b) {
  if (a != b && (HasDigit(a) || HasDigit(b))) return 0.0;
  return JaroWinkler(a, b);
}

// The weaker of two token similarities, 1 for two missing tokens.
double Both(std::string_view ga, std::string_view gb, std::string_view sa, std::string_view sb) {
  const double g = ga.empty() && gb.empty() ? 1.0 : TokenSimilarity(ga, gb);
  return std::min(g, TokenSimilarity(sa, sb));
}

std::string WithoutDigits(std::string_view s) {
  std::string out(s);
  std::erase_if(out, [](unsigned char c) { return std::isdigit(c) != 0; });
  return out;
}

std::size_t CompareNames(std::string_view a, std::string_view b) {
  if (a == b) return kNameExact;
  auto ta = Tokens(a), tb = Tokens(b);
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  if (ta == tb) return kNameReordered;
  const NameParts pa = SplitName(a), pb = SplitName(b);
  if (pa.given.empty() != pb.given.empty()) {
    // One side is a single name (a given name or a surname, as the source
    // had it): compared with both parts of the other.
    const NameParts& one = pa.given.empty() ? pa : pb;
    const NameParts& two = pa.given.empty() ? pb : pa;
    if (one.surname == two.given || one.surname == two.surname) return kNameInitial;
    const double jw = std::max(TokenSimilarity(one.surname, two.given),
                               TokenSimilarity(one.surname, two.surname));
    if (jw >= 0.92) return kNameJw92;
    if (jw >= 0.88) return kNameJw88;
    // Sounding alike is weak evidence for one token alone ("holly", "hall").
    return SoundAlike(one.surname, two.surname) || SoundAlike(one.surname, two.given)
               ? kNameSurnameOnly
               : kNameDifferent;
  }
  const bool both_given = !pa.given.empty();  // else both are single names
  const bool same_surname = pa.surname == pb.surname;
  const bool initial =
      both_given && pa.given[0] == pb.given[0] && (pa.given.size() == 1 || pb.given.size() == 1);
  if (same_surname && both_given && AreNicknames(pa.given, pb.given)) return kNameNickname;
  if (same_surname && initial) return kNameInitial;
  // Token by token, in the given order and crossed (given and surname
  // swapped by the source).
  const double jw = std::max(Both(pa.given, pb.given, pa.surname, pb.surname),
                             both_given ? Both(pa.given, pb.surname, pa.surname, pb.given) : 0.0);
  if (jw >= 0.92) return kNameJw92;
  if (jw >= 0.88) return kNameJw88;
  if (!same_surname && !SoundAlike(pa.surname, pb.surname)) return kNameDifferent;
  // The surnames sound alike: the given names decide whether that is one
  // person misspelt or a relative.
  const bool given_agree = !both_given || initial || TokenSimilarity(pa.given, pb.given) >= 0.88 ||
                           AreNicknames(pa.given, pb.given);
  return given_agree ? kNameSurnamePhonetic : kNameSurnameOnly;
}

// YYYY-MM-DD as its three numbers; false when it is not that shape.
bool DateParts(std::string_view d, std::array<int, 3>& out) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  out = {std::atoi(std::string(d.substr(0, 4)).c_str()),
         std::atoi(std::string(d.substr(5, 2)).c_str()),
         std::atoi(std::string(d.substr(8, 2)).c_str())};
  return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
// days_from_civil).
long Days(int y, int m, int d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

// Whether two numbers are one apart or differ in one digit (as written).
bool Near(int a, int b, std::string_view ta, std::string_view tb) {
  if (std::abs(a - b) == 1) return true;
  std::size_t diff = 0;
  for (std::size_t i = 0; i < ta.size() && i < tb.size(); ++i) diff += ta[i] != tb[i];
  return ta.size() == tb.size() && diff == 1;
}

std::size_t CompareDates(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  std::array<int, 3> x{}, y{};
  if (!DateParts(a, x) || !DateParts(b, y)) return 5;
  if (x[0] == y[0] && x[1] == y[2] && x[2] == y[1]) return 1;
  static constexpr std::array<std::size_t, 3> kAt = {0, 5, 8}, kLen = {4, 2, 2};
  int differing = 0, near = 0;
  for (std::size_t j = 0; j < 3; ++j) {
    if (x[j] == y[j]) continue;
    ++differing;
    near += Near(x[j], y[j], a.substr(kAt[j], kLen[j]), b.substr(kAt[j], kLen[j]));
  }
  if (differing == 1 && near == 1) return 2;
  // Two adjacent digits transposed (1978-04-21 / 1978-04-12).
  if (BoundedDamerauLevenshtein(a, b, 2) <= 1) return 2;
  if (differing == 2 && near == 2) return 3;
  // Within two years: a badly kept date, or a stranger of the same age;
  // further apart, another person (a father and his son).
  return std::labs(Days(x[0], x[1], x[2]) - Days(y[0], y[1], y[2])) <= 730 ? 4 : 5;
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

std::size_t CompareAddresses(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  const AddressParts pa = SplitAddress(a), pb = SplitAddress(b);
  if (!pa.house.empty() && pa.house == pb.house && !pa.street.empty() && pa.street == pb.street) {
    return 1;
  }
  if (!pa.postal_code.empty() && pa.postal_code == pb.postal_code) return 2;
  return 3;
}

bool IsStreetType(std::string_view t) {
  static const std::array<std::string_view, 20> kTypes = {
      "st",  "ave",  "ln",  "rd", "dr", "ct",  "pl",  "blvd", "pkwy", "hwy",
      "ter", "cres", "cir", "sq", "cl", "way", "trl", "cove", "pde",  "cct"};
  return std::find(kTypes.begin(), kTypes.end(), t) != kTypes.end();
}

}  // namespace

const std::vector<std::string>& LevelNames(ComparisonKind kind) {
  static const std::vector<std::string> kName = {
      "exact",           "reordered",        "nickname",     "initial",  "jaro_winkler_92",
      "jaro_winkler_88", "surname_phonetic", "surname_only", "different"};
  static const std::vector<std::string> kDate = {"exact",   "day_month_swapped", "one_off",
                                                 "two_off", "within_two_years",  "different"};
  static const std::vector<std::string> kEmail = {"exact", "one_edit", "similar", "different"};
  static const std::vector<std::string> kAddress = {"exact", "house_and_street", "postal_code_only",
                                                    "different"};
  static const std::vector<std::string> kDocument = {"exact", "one_edit", "different"};
  static const std::vector<std::string> kText = {"exact", "similar", "different"};
  static const std::vector<std::string> kExact = {"exact", "different"};
  switch (kind) {
    case ComparisonKind::kName:
      return kName;
    case ComparisonKind::kBirthDate:
      return kDate;
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
  switch (kind) {
    case ComparisonKind::kName:
      return CompareNames(a, b);
    case ComparisonKind::kBirthDate:
      return CompareDates(a, b);
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

NameParts SplitName(std::string_view name) {
  const auto t = Tokens(name);
  if (t.empty()) return {};
  if (t.size() == 1) return {"", t[0]};
  return {t.front(), t.back()};
}

AddressParts SplitAddress(std::string_view address) {
  const auto t = Tokens(address);
  AddressParts p;
  std::size_t i = 0;
  while (i < t.size() && !HasDigit(t[i])) ++i;
  if (i == t.size()) return p;
  p.house = t[i];
  std::size_t end = i + 1;
  while (end < t.size() && end < i + 4 && !IsStreetType(t[end]) && !HasDigit(t[end])) ++end;
  if (end < t.size() && IsStreetType(t[end])) ++end;
  for (std::size_t k = i + 1; k < end; ++k) p.street += (k > i + 1 ? " " : "") + t[k];
  for (std::size_t k = t.size(); k-- > end;) {
    if (HasDigit(t[k])) {
      p.postal_code = t[k];
      break;
    }
  }
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
  }
  return "opaque";
}

bool ParseComparison(std::string_view name, ComparisonKind* kind) {
  for (ComparisonKind k :
       {ComparisonKind::kName, ComparisonKind::kBirthDate, ComparisonKind::kEmail,
        ComparisonKind::kPhone, ComparisonKind::kAddress, ComparisonKind::kPostalCode,
        ComparisonKind::kDocument, ComparisonKind::kText, ComparisonKind::kOpaque}) {
    if (ComparisonName(k) == name) {
      *kind = k;
      return true;
    }
  }
  return false;
}

}  // namespace idres
