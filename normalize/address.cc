#include "normalize/address.h"

#include <algorithm>
#include <array>
#include <map>
#include <string>

#include "normalize/detail/utf8.h"
#include "normalize/name.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return c >= 'a' && c <= 'z'; }
bool IsWordByte(char c) {
  return IsDigit(c) || IsLetter(c) || static_cast<unsigned char>(c) >= 0x80;
}

// Word -> its abbreviation (USPS Publication 28: street suffixes, secondary
// unit designators, directionals, ordinals in figures). Abbreviations map to themselves, so the
// mapping is idempotent.
const std::map<std::string, std::string, std::less<>>& Abbreviations() {
  static const std::map<std::string, std::string, std::less<>> table = [] {
    const std::pair<const char*, const char*> pairs[] = {
        {"street", "st"},
        {"str", "st"},
        {"avenue", "ave"},
        {"av", "ave"},
        {"lane", "ln"},
        {"road", "rd"},
        {"drive", "dr"},
        {"court", "ct"},
        {"crt", "ct"},
        {"place", "pl"},
        {"boulevard", "blvd"},
        {"parkway", "pkwy"},
        {"highway", "hwy"},
        {"terrace", "ter"},
        {"crescent", "cres"},
        {"circle", "cir"},
        {"square", "sq"},
        {"close", "cl"},
        {"way", "way"},
        {"trail", "trl"},
        {"apartment", "apt"},
        {"suite", "ste"},
        {"unit", "unit"},
        {"floor", "fl"},
        {"building", "bldg"},
        {"room", "rm"},
        {"north", "n"},
        {"south", "s"},
        {"east", "e"},
        {"west", "w"},
        {"northeast", "ne"},
        {"northwest", "nw"},
        {"southeast", "se"},
        {"southwest", "sw"},
        {"mount", "mt"},
        {"saint", "st"},
        {"post office box", "po box"},
        // Ordinals written out, as numbered streets and floors are.
        {"first", "1st"},
        {"second", "2nd"},
        {"third", "3rd"},
        {"fourth", "4th"},
        {"fifth", "5th"},
        {"sixth", "6th"},
        {"seventh", "7th"},
        {"eighth", "8th"},
        {"ninth", "9th"},
        {"tenth", "10th"},
    };
    std::map<std::string, std::string, std::less<>> t;
    for (const auto& [word, abbreviation] : pairs) {
      t[word] = abbreviation;
      t[abbreviation] = abbreviation;
    }
    return t;
  }();
  return table;
}

// Whether the hyphen at `i` of `text` joins a country's letters to a postal
// code, as European mail wrote them (d-10115, a-1010, ch-8001): a country's
// letters and as many digits as its codes have, the letters a word of
// their own, neither the address's first word nor after a flat's, block's or
// tower's (a-1104, flat a-1104, as India and Korea number flats, keep their
// a).
bool CountryPrefixAt(const std::string& text, std::size_t i) {
  std::size_t letters = 0;
  while (letters < i && IsLetter(text[i - letters - 1])) ++letters;
  if (letters == 0 || letters > 2 || (letters < i && IsWordByte(text[i - letters - 1]))) {
    return false;
  }
  struct Country {
    std::string_view letters;
    std::size_t digits;
  };
  static constexpr std::array<Country, 37> kCountries = {{
      {"a", 4},  {"b", 4},  {"d", 5},  {"e", 5},  {"f", 5},  {"h", 4},  {"i", 5},  {"l", 4},
      {"n", 4},  {"p", 4},  {"s", 5},  {"at", 4}, {"be", 4}, {"bg", 4}, {"ch", 4}, {"cz", 5},
      {"de", 5}, {"dk", 4}, {"ee", 5}, {"es", 5}, {"fi", 5}, {"fr", 5}, {"gr", 5}, {"hr", 5},
      {"hu", 4}, {"it", 5}, {"lt", 5}, {"lu", 4}, {"lv", 4}, {"nl", 4}, {"no", 4}, {"pl", 5},
      {"pt", 4}, {"ro", 6}, {"se", 5}, {"si", 4}, {"sk", 5},
  }};
  const std::string_view code(text.data() + i - letters, letters);
  std::size_t digits = 0;
  while (i + 1 + digits < text.size() && IsDigit(text[i + 1 + digits])) ++digits;
  const auto country = std::find_if(kCountries.begin(), kCountries.end(),
                                    [&](const Country& c) { return c.letters == code; });
  if (country == kCountries.end() || digits != country->digits) return false;
  // The word before the letters: none (the address's first word) or a
  // unit's designator keeps them.
  std::size_t end = i - letters;
  while (end > 0 && !IsWordByte(text[end - 1])) --end;
  if (end == 0) return false;
  std::size_t begin = end;
  while (begin > 0 && IsWordByte(text[begin - 1])) --begin;
  static constexpr std::array<std::string_view, 16> kUnits = {
      "flat", "apartment", "apt", "unit", "suite", "ste", "room", "rm",
      "building", "bldg", "block", "blk", "tower", "floor", "fl", "no"};
  const std::string_view before(text.data() + begin, end - begin);
  return std::find(kUnits.begin(), kUnits.end(), before) == kUnits.end();
}

// `text` with punctuation as spaces; '#' is a unit ("# 4" -> "apt 4"), a
// hyphen between digits stays, and a country's letters before a postal
// code go.
std::string Words(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (IsWordByte(c)) {
      out.push_back(c);
    } else if (c == '-' && CountryPrefixAt(text, i)) {
      // d-10115 is 10115: the letters name the country, not the place.
      while (!out.empty() && IsLetter(out.back())) out.pop_back();
    } else if (c == '-' && i > 0 && i + 1 < text.size() && IsDigit(text[i - 1]) &&
               IsDigit(text[i + 1])) {
      out.push_back('-');
    } else if (c == '#') {
      out += " apt ";
    } else {
      out.push_back(' ');
    }
  }
  return nd::CollapseSpace(out);
}

std::string Abbreviated(const std::string& words) {
  const auto& table = Abbreviations();
  std::string out;
  std::size_t i = 0;
  while (i < words.size()) {
    std::size_t end = words.find(' ', i);
    if (end == std::string::npos) end = words.size();
    const std::string_view word(words.data() + i, end - i);
    const auto it = table.find(word);
    if (!out.empty()) out.push_back(' ');
    out += it == table.end() ? std::string(word) : it->second;
    i = end + 1;
  }
  return out;
}

}  // namespace

KindResult NormalizeAddress(std::string_view input) {
  KindResult text = NormalizeText(input);
  if (!text.ok()) {
    return KindResult::Reject(text.reason == "the text is empty" ? "the address is empty"
                                                                 : "the address has no letter");
  }
  std::string address = Abbreviated(Words(text.value));
  if (address.empty()) return KindResult::Reject("the address is empty");
  return KindResult::Ok(std::move(address));
}

}  // namespace idres
