#include "normalize/address.h"

#include <map>
#include <string>

#include "normalize/detail/utf8.h"
#include "normalize/name.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsWordByte(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80;
}

// Word -> its abbreviation (USPS Publication 28: street suffixes, secondary
// unit designators, directionals). Abbreviations map to themselves, so the
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

// `text` with punctuation as spaces; '#' is a unit ("# 4" -> "apt 4"), and a
// hyphen between digits stays.
std::string Words(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (IsWordByte(c)) {
      out.push_back(c);
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
