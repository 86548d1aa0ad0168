#include "normalize/name.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "normalize/detail/icu.h"
#include "normalize/detail/romanize.h"
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

// Ranks, honorifics and clergy before a name, as registers and watch lists
// write them ("The Rt. Hon.", "Maj.-Gen.", "Sheikh"). Dropped only before
// a given name and a surname: before a surname alone ("Hon. Harbord") the
// word stays, in the given name's place, since a surname alone would meet
// every holder of it. Words that are also given names (Earl, Duke, Prince,
// Major, Baron, Pastor, Imam, Haji) are not among them.
bool IsRankOrHonorific(std::string_view word) {
  static constexpr std::array<std::string_view, 48> kWords = {
      // honorifics
      "the", "hon", "honourable", "honorable", "rt", "right", "lord", "lady", "baroness",
      "viscount", "viscountess", "marquess", "marchioness", "countess", "duchess",
      // clergy
      "revd", "reverend", "very", "most", "ven", "venerable", "fr", "father", "rabbi", "bishop",
      "archbishop", "cardinal", "msgr", "sheikh", "shaikh", "sheik", "mullah",
      // ranks
      "gen", "general", "maj", "col", "colonel", "lt", "lieut", "lieutenant", "capt", "captain",
      "cmdr", "commander", "adm", "admiral", "brig", "brigadier"};
  return OneOf(kWords, word);
}

// Whether `word` (original case) is a surname marked by capitals ("MÜLLER
// Hans"): two letters at least, every cased one upper case, and neither an
// initial or abbreviation with its period ("A. Kowalski", "J.R.R.") nor a
// title ("MR John Smith").
bool InCapitals(const std::string& word) {
  if (!nd::HasLetter(word) || word.size() < 2 || word.find('.') != std::string::npos) return false;
  const std::string lower = nd::AsciiLower(word);
  return nd::Upper(word) == word && nd::Lower(word) != word && !IsTitle(lower) &&
         !IsRankOrHonorific(lower);
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
  // The words that name the person: no title, rank, suffix or degree.
  const auto naming = [&words] {
    return std::count_if(words.begin(), words.end(), [](const std::string& w) {
      return !IsTitle(w) && !IsRankOrHonorific(w) && SuffixForm(w).empty() && !IsCredential(w);
    });
  };
  while (words.size() > 1 &&
         (IsTitle(words.front()) || (IsRankOrHonorific(words.front()) && naming() >= 2))) {
    words.erase(words.begin());
  }
  while (words.size() > 1 && IsCredential(words.back())) words.pop_back();
  if (words.size() > 1) {
    if (std::string suffix = SuffixForm(words.back()); !suffix.empty()) words.back() = suffix;
  }
  return Join(words);
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
    if (std::string korean = nd::KoreanName(text, ordered); !korean.empty()) {
      latin = std::move(korean);
    } else if (!ToStableLatin(nd::KhmerRomanized(ordered), latin)) {
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
