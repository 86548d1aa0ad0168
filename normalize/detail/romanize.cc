#include "normalize/detail/romanize.h"

#include <algorithm>
#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "normalize/detail/utf8.h"

namespace idres::normalize_detail {
namespace {

template <std::size_t N>
bool OneOf(const std::array<std::string_view, N>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
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
    const char32_t c = NextCodePoint(word, i);
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

}  // namespace

std::string KoreanName(const std::string& text, const std::string& ordered) {
  const bool comma = text.find(',') != std::string::npos;
  std::vector<std::vector<char32_t>> words;
  for (const std::string& w : Words(comma ? ordered : text)) {
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
  } else if (words.size() >= 2) {
    // The surname is a word of one syllable (or a double surname) at
    // either end: first as Korean writes it, last as a Western form does
    // (민준 김); else a short first word.
    const auto surname_like = [](const std::vector<char32_t>& w) {
      return w.size() == 1 || (w.size() == 2 && IsDoubleSurname(Utf8(w)));
    };
    std::size_t at = 0;
    if (!surname_like(words[0]) && surname_like(words.back())) {
      at = words.size() - 1;
    } else if (!surname_like(words[0]) && words[0].size() > 2) {
      return {};
    }
    surname = words[at];
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (i != at) given.insert(given.end(), words[i].begin(), words[i].end());
    }
  } else {
    return {};
  }
  return Romanized(given) + " " + SurnameSpelling(surname);
}

namespace {

// Khmer, in the simplified UNGEGN romanization Cambodian names are usually
// written in: a consonant's sound at a syllable's start and at its end
// (final k, ch, t, p: the aspirated and voiced letters are unreleased
// there), and its series, which voices the vowel after it otherwise
// (ា is "a" after ស, "ea" after ព). A consonant without a vowel of its own
// ends the syllable before it when that one has a vowel, or else carries
// the series' inherent vowel (ពត "pot").
struct KhmerConsonant {
  std::string_view initial, final;
  bool second_series;
};

constexpr std::array<KhmerConsonant, 35> kKhmerConsonants = {
    {{"k", "k", false},   {"kh", "k", false},  {"k", "k", true},     {"kh", "k", true},
     {"ng", "ng", true},  {"ch", "ch", false}, {"chh", "ch", false}, {"ch", "ch", true},
     {"chh", "ch", true}, {"nh", "nh", true},  {"d", "t", false},    {"th", "t", false},
     {"d", "t", true},    {"th", "t", true},   {"n", "n", false},    {"t", "t", false},
     {"th", "t", false},  {"t", "t", true},    {"th", "t", true},    {"n", "n", true},
     {"b", "p", false},   {"ph", "p", false},  {"p", "p", true},     {"ph", "p", true},
     {"m", "m", true},    {"y", "y", true},    {"r", "r", true},     {"l", "l", true},
     {"v", "v", true},    {"sh", "s", false},  {"ss", "s", false},   {"s", "s", false},
     {"h", "h", false},   {"l", "l", false},   {"", "", false}}};

// The dependent vowels U+17B6..U+17C5 after a first and a second series
// consonant.
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kKhmerVowels = {
    {{"a", "ea"},
     {"e", "i"},
     {"ei", "i"},
     {"oe", "eu"},
     {"eu", "eu"},
     {"o", "u"},
     {"ou", "ou"},
     {"uo", "uo"},
     {"aeu", "eu"},
     {"oea", "oea"},
     {"ie", "ie"},
     {"e", "e"},
     {"ae", "ae"},
     {"ai", "ey"},
     {"ao", "o"},
     {"au", "ov"}}};

// The independent vowels U+17A3..U+17B3.
constexpr std::array<std::string_view, 17> kKhmerIndependent = {
    "a",   "aa",  "e",   "ei", "o",  "ok", "ou", "ov", "rue",
    "rue", "lue", "lue", "ae", "ai", "ao", "ao", "au"};

constexpr char32_t kNikahit = 0x17C6, kReahmuk = 0x17C7, kMusikatoan = 0x17C9, kTriisap = 0x17CA,
                   kToandakhiat = 0x17CD, kCoeng = 0x17D2, kBa = 0x1794;

bool IsKhmer(char32_t c) { return c >= 0x1780 && c <= 0x17FF; }
bool IsKhmerConsonant(char32_t c) { return c >= 0x1780 && c <= 0x17A2; }
bool IsKhmerIndependentVowel(char32_t c) { return c >= 0x17A3 && c <= 0x17B3; }
bool IsKhmerVowel(char32_t c) { return c >= 0x17B6 && c <= 0x17C5; }

std::string KhmerWord(const std::vector<char32_t>& w) {
  std::string out;
  bool open = false;  // the last syllable has a vowel and no final consonant yet
  for (std::size_t i = 0; i < w.size();) {
    const char32_t c = w[i];
    if (IsKhmerIndependentVowel(c)) {
      out += kKhmerIndependent[c - 0x17A3];
      open = true;
      ++i;
      continue;
    }
    if (!IsKhmerConsonant(c)) {  // a sign on its own, a digit, punctuation: no sound
      ++i;
      continue;
    }
    const KhmerConsonant& k = kKhmerConsonants[c - 0x1780];
    std::size_t j = i + 1;
    if (j < w.size() && w[j] == kToandakhiat) {  // written, not said
      i = j + 1;
      continue;
    }
    const bool subscript_next = j + 1 < w.size() && w[j] == kCoeng && IsKhmerConsonant(w[j + 1]);
    const bool vowel_next =
        j < w.size() && (IsKhmerVowel(w[j]) || w[j] == kNikahit || w[j] == kReahmuk ||
                         w[j] == kTriisap || w[j] == kMusikatoan);
    if (open && !vowel_next) {  // the last syllable's final consonant
      out += k.final;
      open = false;
      i = subscript_next ? j + 1 : j;  // a subscript starts the next syllable
      continue;
    }
    std::string onset(k.initial);
    bool second = k.second_series;
    for (; j + 1 < w.size() && w[j] == kCoeng && IsKhmerConsonant(w[j + 1]); j += 2) {
      onset += kKhmerConsonants[w[j + 1] - 0x1780].initial;
    }
    if (j < w.size() && w[j] == kTriisap) {
      second = true;
      ++j;
    } else if (j < w.size() && w[j] == kMusikatoan) {
      second = false;
      if (c == kBa) onset = "p" + onset.substr(1);  // ប៉ is p
      ++j;
    }
    std::string vowel = second ? "o" : "a";  // the inherent vowel
    bool own_vowel = false;
    if (j < w.size() && IsKhmerVowel(w[j])) {
      const auto& v = kKhmerVowels[w[j] - 0x17B6];
      vowel = second ? v.second : v.first;
      own_vowel = true;
      ++j;
    }
    if (j < w.size() && w[j] == kNikahit) {
      vowel = own_vowel ? vowel + "m" : second ? "um" : "am";
      ++j;
    } else if (j < w.size() && w[j] == kReahmuk) {
      vowel = own_vowel ? vowel + "h" : second ? "eah" : "ah";
      ++j;
    }
    out += onset + vowel;
    open = true;
    i = j;
  }
  return out;
}

}  // namespace

std::string KhmerRomanized(const std::string& text) {
  std::string out;
  bool any = false;
  for (const std::string& word : Words(text)) {
    std::vector<char32_t> points;
    for (std::size_t i = 0; i < word.size();) points.push_back(NextCodePoint(word, i));
    const bool khmer = std::any_of(points.begin(), points.end(), IsKhmer);
    any = any || khmer;
    out += (out.empty() ? "" : " ") + (khmer ? KhmerWord(points) : word);
  }
  return any ? out : text;
}

}  // namespace idres::normalize_detail
