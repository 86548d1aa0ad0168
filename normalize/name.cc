#include "normalize/name.h"

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

// One pass: to Latin, to ASCII, lower case, NFKC. False without ICU data.
bool Pass(std::string_view text, std::string& out) {
  std::string latin;
  if (!nd::TransliterateToAscii(text, latin)) return false;
  out = nd::Nfkc(nd::Lower(latin));
  return true;
}

// Passes until the text no longer changes, so that normalizing a normalized
// name gives it back: lower case can expose letters the transliterator maps
// only in lower case (U+01F6 "Ƕ" -> "ƕ" -> "hv"). ASCII text is stable.
bool ToStableLatin(std::string_view input, std::string& out) {
  if (nd::IsAscii(input)) {
    // ASCII is its own NFKC, Latin and ASCII form: only the case changes.
    // Most names are; the transliterator is the costliest step of a record.
    out = nd::AsciiLower(input);
    return true;
  }
  std::string text = nd::Nfkc(input);
  for (int round = 0; round < 4; ++round) {
    if (!Pass(text, out)) return false;
    if (out == text || nd::IsAscii(out)) return true;
    text = out;
  }
  return true;
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

template <std::size_t N>
bool OneOf(const std::array<std::string_view, N>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Generational suffixes, as written and as kept.
std::string SuffixForm(std::string_view word) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kForms = {
      {{"jr", "jr"},
       {"junior", "jr"},
       {"sr", "sr"},
       {"senior", "sr"},
       {"ii", "ii"},
       {"2nd", "ii"},
       {"iii", "iii"},
       {"3rd", "iii"},
       {"iv", "iv"}}};
  for (const auto& [written, kept] : kForms) {
    if (word == written) return std::string(kept);
  }
  return {};
}

// Degrees and the like after a name: no part of it.
bool IsCredential(std::string_view word) {
  static constexpr std::array<std::string_view, 8> kCredentials = {"phd", "md",  "esq", "dds",
                                                                   "mba", "cpa", "jd",  "dphil"};
  return OneOf(kCredentials, word);
}

// Forms of address before a name: no part of it either.
bool IsTitle(std::string_view word) {
  static constexpr std::array<std::string_view, 13> kTitles = {
      "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "rev", "herr", "frau", "mme"};
  return OneOf(kTitles, word);
}

// Whether `word` (original case) is written in capitals: two letters at
// least, every cased one upper case (a surname so marked: "MÜLLER Hans").
bool InCapitals(const std::string& word) {
  if (!nd::HasLetter(word) || word.size() < 2) return false;
  return nd::Upper(word) == word && nd::Lower(word) != word;
}

// "Surname, Given Middle" (a comma: the surname comes first) and
// "SURNAME Given" (the surname in capitals, first) as "Given Middle
// Surname"; a suffix after a comma ("John Smith, Jr.") stays at the end.
std::string GivenNameFirst(std::string_view text) {
  const std::size_t comma = text.find(',');
  if (comma != std::string_view::npos) {
    const std::string before(nd::TrimSpace(text.substr(0, comma)));
    std::string after(nd::TrimSpace(text.substr(comma + 1)));
    std::string suffix;
    if (const std::size_t second = after.find(','); second != std::string::npos) {
      suffix = std::string(nd::TrimSpace(std::string_view(after).substr(second + 1)));
      after = std::string(nd::TrimSpace(std::string_view(after).substr(0, second)));
    }
    std::string bare = nd::AsciiLower(after);
    std::erase(bare, '.');
    if (after.empty() || before.empty() || !SuffixForm(bare).empty() || IsCredential(bare)) {
      return before + " " + after + " " + suffix;
    }
    return after + " " + before + " " + suffix;
  }
  std::vector<std::string> words = nd::Words(nd::CollapseSpace(text));
  std::size_t caps = 0;
  while (caps < words.size() && InCapitals(words[caps]) &&
         SuffixForm(nd::AsciiLower(words[caps])).empty()) {
    ++caps;
  }
  if (caps == 0 || caps == words.size()) return std::string(text);
  std::rotate(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(caps), words.end());
  return Join(words);
}

// The lower-case words without punctuation (a hyphen joins two surnames:
// "garcia-lopez" is "garcia lopez"), titles before the name and
// credentials after it dropped, a suffix in one spelling.
std::string Tidy(std::string_view lower) {
  std::string spaced(lower);
  for (char& c : spaced) {
    if (c == '.' || c == ',' || c == '-' || c == '"' || c == '(' || c == ')' || c == ';') c = ' ';
  }
  std::vector<std::string> words = nd::Words(spaced);
  while (words.size() > 1 && IsTitle(words.front())) words.erase(words.begin());
  while (words.size() > 1 && IsCredential(words.back())) words.pop_back();
  if (words.size() > 1) {
    if (std::string suffix = SuffixForm(words.back()); !suffix.empty()) words.back() = suffix;
  }
  return Join(words);
}

// Korean names in Hangul. Written natively the surname comes first and the
// given name's syllables run together (`김민준`, `김 민준`); romanized, the
// given name is written syllable by syllable as passports write it (the
// Revised Romanization without the sound changes between syllables: 민준
// minjun, 지훈 jihun) and the surname in its usual spelling, which is not
// the Revised Romanization's (김 kim, 이 lee, 박 park, 최 choi). ICU's
// Hangul-Latin gives neither: it runs surname and given name into one word
// (gimminjun), and transliterates across syllables (bagjihun).

bool IsHangulSyllable(char32_t c) { return c >= 0xAC00 && c <= 0xD7A3; }

// The syllables of a word written in Hangul syllables only; empty otherwise.
std::vector<char32_t> HangulSyllables(std::string_view word) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < word.size();) {
    const char32_t c = nd::NextCodePoint(word, i);
    if (!IsHangulSyllable(c)) return {};
    out.push_back(c);
  }
  return out;
}

// One syllable in the Revised Romanization (its initial, vowel and final
// consonant, U+AC00 + (19 x 21 x 28)).
std::string Romanized(char32_t syllable) {
  static constexpr std::array<std::string_view, 19> kInitial = {
      "g",  "kk", "n", "d",  "tt", "r", "m", "b", "pp", "s",
      "ss", "",   "j", "jj", "ch", "k", "t", "p", "h"};
  static constexpr std::array<std::string_view, 21> kVowel = {
      "a",  "ae", "ya", "yae", "eo", "e",  "yeo", "ye", "o",  "wa", "wae",
      "oe", "yo", "u",  "wo",  "we", "wi", "yu",  "eu", "ui", "i"};
  static constexpr std::array<std::string_view, 28> kFinal = {
      "",  "k", "k", "k", "n", "n", "n", "t",  "l", "k", "m", "l", "l", "l",
      "p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"};
  const auto s = static_cast<std::size_t>(syllable - 0xAC00);
  return std::string(kInitial[s / 588]) + std::string(kVowel[s % 588 / 28]) +
         std::string(kFinal[s % 28]);
}

std::string Romanized(std::span<const char32_t> syllables) {
  std::string out;
  for (char32_t c : syllables) out += Romanized(c);
  return out;
}

std::string Utf8(std::span<const char32_t> syllables) {
  std::string out;
  for (char32_t c : syllables) {  // U+AC00..U+D7A3: three bytes each
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

// The surnames of two syllables, which a name written as one word begins
// with instead of a surname of one.
bool IsDoubleSurname(std::string_view hangul) {
  static constexpr std::array<std::string_view, 7> kDouble = {"남궁", "황보", "제갈", "선우",
                                                              "독고", "사공", "서문"};
  return OneOf(kDouble, hangul);
}

// A surname in its usual Latin spelling; the Revised Romanization for one
// not in the table.
std::string SurnameSpelling(std::span<const char32_t> surname) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 64> kUsual = {
      {{"김", "kim"},        {"이", "lee"},       {"박", "park"},     {"최", "choi"},
       {"정", "jung"},       {"강", "kang"},      {"조", "cho"},      {"윤", "yoon"},
       {"장", "jang"},       {"임", "lim"},       {"한", "han"},      {"오", "oh"},
       {"서", "seo"},        {"신", "shin"},      {"권", "kwon"},     {"황", "hwang"},
       {"안", "ahn"},        {"송", "song"},      {"류", "ryu"},      {"전", "jeon"},
       {"홍", "hong"},       {"고", "ko"},        {"문", "moon"},     {"양", "yang"},
       {"손", "son"},        {"배", "bae"},       {"백", "baek"},     {"허", "heo"},
       {"유", "yoo"},        {"남", "nam"},       {"심", "shim"},     {"노", "noh"},
       {"하", "ha"},         {"곽", "kwak"},      {"성", "sung"},     {"차", "cha"},
       {"주", "joo"},        {"우", "woo"},       {"구", "koo"},      {"나", "na"},
       {"민", "min"},        {"진", "jin"},       {"지", "ji"},       {"엄", "um"},
       {"채", "chae"},       {"원", "won"},       {"천", "chun"},     {"방", "bang"},
       {"공", "kong"},       {"현", "hyun"},      {"함", "ham"},      {"변", "byun"},
       {"염", "yeom"},       {"추", "choo"},      {"석", "seok"},     {"선", "sun"},
       {"명", "myung"},      {"기", "ki"},        {"금", "keum"},     {"경", "kyung"},
       {"남궁", "namkoong"}, {"황보", "hwangbo"}, {"선우", "sunwoo"}, {"사공", "sakong"}}};
  const std::string hangul = Utf8(surname);
  for (const auto& [written, usual] : kUsual) {
    if (hangul == written) return std::string(usual);
  }
  return Romanized(surname);
}

// `text` (NFKC, one space between words) as a romanized Korean name, given
// name first ("minjun kim"), when it is written in Hangul only; `ordered`
// is GivenNameFirst's reading of it (a comma put the surname last). Empty
// when it is not such a name.
std::string KoreanName(const std::string& text, const std::string& ordered) {
  const bool comma = text.find(',') != std::string::npos;
  std::vector<std::vector<char32_t>> words;
  for (const std::string& w : nd::Words(comma ? ordered : text)) {
    words.push_back(HangulSyllables(w));
    if (words.back().empty()) return {};
  }
  std::vector<char32_t> surname, given;
  if (comma && words.size() >= 2) {
    surname = words.back();
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
      given.insert(given.end(), words[i].begin(), words[i].end());
    }
  } else if (words.size() == 1 && words[0].size() >= 2 && words[0].size() <= 5) {
    const std::size_t n =
        words[0].size() >= 3 && IsDoubleSurname(Utf8(std::span(words[0]).first(2))) ? 2 : 1;
    surname.assign(words[0].begin(), words[0].begin() + static_cast<std::ptrdiff_t>(n));
    given.assign(words[0].begin() + static_cast<std::ptrdiff_t>(n), words[0].end());
  } else if (words.size() >= 2 && words[0].size() <= 2) {
    surname = words[0];
    for (std::size_t i = 1; i < words.size(); ++i) {
      given.insert(given.end(), words[i].begin(), words[i].end());
    }
  } else {
    return {};
  }
  return Romanized(given) + " " + SurnameSpelling(surname);
}

}  // namespace

KindResult NormalizeText(std::string_view input) {
  std::string text;
  if (nd::IsAscii(input)) {
    text = nd::CollapseSpace(nd::AsciiLower(input));
  } else {
    std::string latin;
    if (!ToStableLatin(nd::WithoutFormatCharacters(input), latin)) {
      return KindResult::Reject("the text could not be transliterated (ICU data missing)");
    }
    text = nd::CollapseSpace(latin);
  }
  if (text.empty()) return KindResult::Reject("the text is empty");
  if (!nd::HasLetter(text)) return KindResult::Reject("the text has no letter");
  if (nd::HasControl(text)) return KindResult::Reject("the text contains a control character");
  return KindResult::Ok(std::move(text));
}

KindResult NormalizeName(std::string_view input) {
  std::string name;
  if (nd::IsAscii(input)) {
    name = nd::AsciiLower(GivenNameFirst(nd::CollapseSpace(input)));
  } else {
    std::string latin;
    const std::string text = nd::CollapseSpace(nd::WithoutFormatCharacters(nd::Nfkc(input)));
    const std::string ordered = GivenNameFirst(text);
    if (std::string korean = KoreanName(text, ordered); !korean.empty()) {
      latin = std::move(korean);
    } else if (!ToStableLatin(ordered, latin)) {
      return KindResult::Reject("the name could not be transliterated (ICU data missing)");
    }
    name = nd::CollapseSpace(latin);
  }
  if (name.empty()) return KindResult::Reject("the name is empty");
  // A lone accent or punctuation is not a name, and would match no one.
  if (!nd::HasLetter(name)) return KindResult::Reject("the name has no letter");
  if (nd::HasControl(name)) return KindResult::Reject("the name contains a control character");
  return KindResult::Ok(Tidy(name));
}

}  // namespace idres
