#include "matcher/detail/name_compare.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <unordered_map>

#include "matcher/comparisons.h"
#include "matcher/edit_distance.h"
#include "matcher/jaro_winkler.h"
#include "matcher/nicknames.h"
#include "matcher/phonetic.h"

namespace idres::matcher_detail {
namespace {

std::size_t Digits(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; }));
}

// Whether two different words differ in a number ("person 1234" is not
// "person 1235", smith2 not smith), not in a key struck for a letter: one
// digit among four letters or more, in place of a letter of a word as long
// without one (u4quhart is urquhart with the 4 beside the r, pelleg4ino
// pellegrino).
bool DifferInNumber(std::string_view a, std::string_view b) {
  const std::size_t da = Digits(a), db = Digits(b);
  if (da == 0 && db == 0) return false;
  return da + db != 1 || a.size() != b.size() || a.size() < 5;
}

bool IsVowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

// Whether `bare`, a word written without vowels (a transliteration from a
// script that writes no short vowels: Arabic محمد is "mhmd"), can be
// `full` written with them: `full`'s consonants in order, each once or
// doubled, where each run of vowels is either left out (a short vowel, not
// written) or is the w that script writes for a long o or u (محمود "mhmwd"
// is Mahmoud, not Mohammed). Two vowels in a row are a long vowel, which
// the script writes.
bool SkeletonOf(std::string_view bare, std::string_view full) {
  if (full.size() > 24 || bare.size() > full.size()) return false;
  // full's letters as consonants and vowel runs; y is a consonant at the
  // start of a word or after a vowel (yusuf, sayed), else a vowel.
  struct Part {
    std::string_view text;
    bool vowels;
  };
  std::vector<Part> parts;
  for (std::size_t i = 0; i < full.size();) {
    const auto vowel = [&](std::size_t k) {
      return IsVowel(full[k]) || (full[k] == 'y' && k > 0 && !IsVowel(full[k - 1]));
    };
    std::size_t j = i + 1;
    if (vowel(i)) {
      while (j < full.size() && vowel(j)) ++j;
    } else {
      while (j < full.size() && full[j] == full[i]) ++j;  // a doubled letter once
    }
    parts.push_back({full.substr(i, vowel(i) ? j - i : 1), vowel(i)});
    i = j;
  }
  const auto writes = [](char letter, std::string_view run) {
    const auto has = [&](std::string_view of) { return run.find_first_of(of) != run.npos; };
    return letter == 'w' && has("ou");
  };
  // Depth-first over the vowel runs' two readings and the consonants' one
  // or two letters, each (letter of bare, part of full) tried once.
  std::vector<bool> tried((bare.size() + 1) * (parts.size() + 1), false);
  const auto match = [&](auto& self, std::size_t at, std::size_t part) -> bool {
    if (part == parts.size()) return at == bare.size();
    const std::size_t state = at * (parts.size() + 1) + part;
    if (tried[state]) return false;  // it failed before
    tried[state] = true;
    const Part& p = parts[part];
    if (!p.vowels) {
      // The letter, or it doubled (a shadda written out: mhmmd is mohammed,
      // mmdwh mamdouh).
      if (at >= bare.size() || bare[at] != p.text[0]) return false;
      if (self(self, at + 1, part + 1)) return true;
      return at + 1 < bare.size() && bare[at + 1] == p.text[0] && self(self, at + 2, part + 1);
    }
    if (at < bare.size() && writes(bare[at], p.text) && self(self, at + 1, part + 1)) return true;
    return p.text.size() == 1 && self(self, at, part + 1);
  };
  return match(match, 0, 0);
}

// Whether one word is written without vowels (a transliteration from a
// script that leaves them out) and the other is it with its vowels. A y
// is the consonant only first (ysf is yusuf); elsewhere it makes a word no
// bare one: smyth and lynn are written with their vowel.
bool VowellessAlike(std::string_view a, std::string_view b) {
  const auto bare = [](std::string_view w) {
    const auto vowel_or_y = [](char c) { return IsVowel(c) || c == 'y'; };
    return w.size() >= 3 && !IsVowel(w[0]) && std::none_of(w.begin() + 1, w.end(), vowel_or_y);
  };
  if (bare(a) == bare(b)) return false;
  return bare(a) ? SkeletonOf(a, b) : SkeletonOf(b, a);
}

// A surname without an Arabic article written onto it (alrashid, elmasri);
// as it is when there is none. Only before five letters or more that do
// not start with l: allen, ellison, albert and elvin are names of their own.
std::string_view WithoutArticle(std::string_view word) {
  if (word.size() >= 7 && (word.starts_with("al") || word.starts_with("el")) && word[2] != 'l') {
    return word.substr(2);
  }
  return word;
}

// Whether two words are romanizations of one Korean surname, which
// passports, the Revised Romanization and North Korea's McCune–Reischauer
// spell apart (이 lee, yi, rhee, ri; 박 park, pak, bak).
bool KoreanSurnameSpellings(std::string_view a, std::string_view b) {
  static const std::unordered_map<std::string_view, int> kGroupOf = [] {
    static constexpr std::array<std::array<std::string_view, 5>, 27> kGroups = {
        {{"lee", "yi", "rhee", "ri", "rhie"},
         {"park", "pak", "bak", "bahk", ""},
         {"choi", "choe", "chey", "", ""},
         {"jung", "jeong", "chung", "joung", "cheong"},
         {"kim", "gim", "", "", ""},
         {"kang", "gang", "", "", ""},
         {"yoon", "yun", "", "", ""},
         {"lim", "rim", "im", "yim", ""},
         {"shin", "sin", "", "", ""},
         {"kwon", "gwon", "", "", ""},
         {"ahn", "an", "", "", ""},
         {"ryu", "yoo", "yu", "rhyu", ""},
         {"noh", "roh", "", "", ""},
         {"oh", "o", "", "", ""},
         {"moon", "mun", "", "", ""},
         {"baek", "paek", "paik", "baik", ""},
         {"kwak", "gwak", "", "", ""},
         {"jang", "chang", "", "", ""},
         {"seo", "suh", "", "", ""},
         {"jeon", "chon", "chun", "", ""},
         {"ko", "koh", "go", "", ""},
         {"heo", "huh", "hur", "", ""},
         {"shim", "sim", "", "", ""},
         {"sung", "seong", "", "", ""},
         {"cho", "jo", "", "", ""},
         {"um", "eom", "", "", ""},
         {"hong", "", "", "", ""}}};
    std::unordered_map<std::string_view, int> out;
    for (std::size_t g = 0; g < kGroups.size(); ++g) {
      for (std::string_view w : kGroups[g]) {
        if (!w.empty()) out.emplace(w, static_cast<int>(g));
      }
    }
    return out;
  }();
  if (a == b || a.size() > 6 || b.size() > 6) return false;
  const auto x = kGroupOf.find(a);
  if (x == kGroupOf.end()) return false;
  const auto y = kGroupOf.find(b);
  return y != kGroupOf.end() && x->second == y->second;
}

// Jaro–Winkler of two name words, with or without an article written onto
// them, and 0.95 for two spellings of one Korean surname or a word written
// without vowels against one with them and the same consonants; words that
// differ in a number are not alike (DifferInNumber).
double WordSimilarity(std::string_view a, std::string_view b) {
  if (a != b && DifferInNumber(a, b)) return 0.0;
  const std::string_view ba = WithoutArticle(a), bb = WithoutArticle(b);
  double jw = JaroWinkler(a, b);
  if (ba.size() != a.size() || bb.size() != b.size()) jw = std::max(jw, JaroWinkler(ba, bb));
  return VowellessAlike(ba, bb) || KoreanSurnameSpellings(a, b) ? std::max(jw, 0.95) : jw;
}

// Whether the name has an Arabic article written as a word of its own
// before another word ("ahmed al rashid", from "Al-Rashid"). Not the first
// word: that is a given name (Al Smith, El Greco's heirs).
bool IsArticleAt(const NameParts& p, std::size_t i) {
  return i > 0 && (p.words[i] == "al" || p.words[i] == "el") && i + 1 < p.words.size();
}

bool HasArticleWord(const NameParts& p) {
  for (std::size_t i = 0; i < p.words.size(); ++i) {
    if (IsArticleAt(p, i)) return true;
  }
  return false;
}

// The name with each article word joined to the word after it ("al
// rashid" is "alrashid", so that every spelling of it has the same words),
// or left out ("al saud" is "saud": written apart it is surely an article,
// and some sources drop it).
NameParts WithArticles(NameParts p, bool join) {
  if (!HasArticleWord(p)) return p;
  std::vector<std::string> words;
  for (std::size_t i = 0; i < p.words.size(); ++i) {
    if (IsArticleAt(p, i)) {
      words.push_back(join ? p.words[i] + p.words[i + 1] : p.words[i + 1]);
      ++i;
    } else {
      words.push_back(p.words[i]);
    }
  }
  p.words = std::move(words);
  p.surname = p.words.back();
  p.given = p.words.size() > 1 ? p.words.front() : std::string();
  return p;
}

// The longest names whose neighbouring words are tried written as one.
constexpr std::size_t kJoinedWordsUpTo = 6;

// The weaker of two word similarities, 1 for two missing words.
double Both(std::string_view ga, std::string_view gb, std::string_view sa, std::string_view sb) {
  const double g = ga.empty() && gb.empty() ? 1.0 : WordSimilarity(ga, gb);
  return std::min(g, WordSimilarity(sa, sb));
}

// Whether every word of `small` is a word of `big` (as multisets).
bool Within(std::vector<std::string> small, std::vector<std::string> big) {
  std::sort(small.begin(), small.end());
  std::sort(big.begin(), big.end());
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

// `words` with the neighbours at i and i + 1 written as one word.
std::vector<std::string> JoinedAt(const std::vector<std::string>& words, std::size_t i) {
  std::vector<std::string> out(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i));
  out.push_back(words[i] + words[i + 1]);
  out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(i) + 2, words.end());
  return out;
}

// Whether `longer` has one pair of neighbouring words that, written as one,
// gives the words of `shorter` in some order: a name written with a space
// by one source and without by another (`mary ann` / `maryann`, `abdul
// rahman` / `abdulrahman`, a Korean given name `min jun` / `minjun`).
bool JoinedWithin(const std::vector<std::string>& longer, const std::vector<std::string>& shorter) {
  if (longer.size() != shorter.size() + 1) return false;
  for (std::size_t i = 0; i + 1 < longer.size(); ++i) {
    if (Within(JoinedAt(longer, i), shorter)) return true;
  }
  return false;
}

// How many letters one word has that the other lacks, counted both ways
// (the words as bags of letters: a scramble of one is 0 from it).
std::size_t LetterBagDistance(std::string_view a, std::string_view b) {
  std::array<int, 256> count{};
  for (unsigned char c : a) ++count[c];
  for (unsigned char c : b) --count[c];
  std::size_t d = 0;
  for (int n : count) d += static_cast<std::size_t>(n < 0 ? -n : n);
  return d;
}

// Whether one word is the other's letters scrambled, give or take
// `letters` letters, the two of about one length (one letter apart at most)
// and `least` letters long or more.
bool Scrambled(std::string_view a, std::string_view b, std::size_t least, std::size_t letters) {
  const std::size_t shorter = std::min(a.size(), b.size());
  const std::size_t longer = std::max(a.size(), b.size());
  return shorter >= least && longer - shorter <= 1 && LetterBagDistance(a, b) <= letters;
}

// Whether a word of a surname, or a name of one word, is another's scramble:
// one letter more or less at most, in words of six letters or more
// (`williams` / `lwisliaml`, `florence` / `forcnee`: what a keying slip
// leaves that neither Jaro-Winkler nor a phonetic code sees). Five letters
// are too few: `lewis` and `wiles` are two surnames.
bool WordScrambled(std::string_view a, std::string_view b) { return Scrambled(a, b, 6, 1); }

// Whether two different words are one typo apart (one letter added, left
// out, struck for another, or two neighbours swapped), both `least` letters
// long or more, and do not differ in a number.
bool OneTypo(std::string_view a, std::string_view b, std::size_t least) {
  return std::min(a.size(), b.size()) >= least && !DifferInNumber(a, b) &&
         BoundedDamerauLevenshtein(a, b, 2) <= 1;
}

// A single word against a full name: found in it (a given name or a
// surname alone, as the source had it; alike, scrambled or one typo off in
// a word of five letters or more), or nothing to go on.
std::size_t CompareSingle(const std::string& one, const NameParts& other) {
  for (const std::string& w : other.words) {
    if (w == one || WordSimilarity(w, one) >= 0.92 || WordScrambled(w, one) || OneTypo(w, one, 5)) {
      return kNameSingleToken;
    }
  }
  return kNameDifferent;
}

// One spelling of what transliterations write several ways: y as i, ou and
// oo as u, ph as f, kh as h, x as ks in a name of four letters or more (max
// is not mats), a doubled letter once (youssef / yusuf, yekaterina /
// ekaterina, alexei / aleksey).
std::string Folded(std::string_view word) {
  std::string out;
  for (std::size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    const char next = i + 1 < word.size() ? word[i + 1] : '\0';
    if (c == 'y') c = 'i';
    if (c == 'x' && word.size() >= 4) {
      if (out.empty() || out.back() != 'k') out += 'k';
      c = 's';
    }
    if ((c == 'o' && (next == 'u' || next == 'o')) || (c == 'p' && next == 'h') ||
        (c == 'k' && next == 'h')) {
      c = c == 'o' ? 'u' : c == 'p' ? 'f' : 'h';
      ++i;
    }
    if (!out.empty() && out.back() == c) continue;
    out += c;
  }
  return out;
}

// A folded word with its vowels in two classes, back (o, u) and front or
// open (a, e, i), each run of one class written once: what is left when a
// transliteration's vowels are told apart only roughly (mohamed and
// muhammad are both muhamad; hussein, husan, is not hassan, hasan; mahmoud
// is not mehmed).
std::string VowelClasses(std::string_view folded) {
  std::string out;
  for (char c : folded) {
    if (c == 'o' || c == 'u') {
      c = 'u';
    } else if (c == 'a' || c == 'e' || c == 'i') {
      c = 'a';
    }
    const bool vowel = c == 'a' || c == 'u';
    if (out.empty() || out.back() != c || !vowel) out += c;
  }
  return out;
}

// Whether two given names can be one person's: an initial, nicknames, a
// typo (one edit, two in a long name; the same letters scrambled but two in
// a long name), or one name in two spellings (a transliteration: letters
// written several ways, or in a long name vowels alone told apart, as
// scripts that leave short vowels out have them). What is left is a clearly
// different name, another person's: jane and john, anna and emma.
bool GivenAgree(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return true;
  if (a[0] == b[0] && (a.size() == 1 || b.size() == 1)) return true;
  if (AreNicknames(a, b) || WordSimilarity(a, b) >= 0.92) return true;
  const std::size_t shorter = std::min(a.size(), b.size());
  if (shorter < 3) return false;
  const std::size_t typos = shorter >= 6 ? 2 : 1;
  if (BoundedDamerauLevenshtein(a, b, 3) <= typos) return true;
  if (Scrambled(a, b, 5, 2)) return true;
  const std::string fa = Folded(a), fb = Folded(b);
  if (BoundedDamerauLevenshtein(fa, fb, 2) <= 1) return true;
  return shorter >= 6 && VowelClasses(fa) == VowelClasses(fb);
}

// Whether the given name of `shorter` is, as GivenAgree reads it, a middle
// word of `longer`: the name a person goes by, written after a first name
// or a title the other source left out (mary anne smith / ann smith, mullah
// mohammad omar / mohammed omar). Words of three letters or more: an
// initial (mary j smith is not john smith) or a connector (garcia y lopez)
// says nothing here.
bool MiddleAgrees(const NameParts& longer, const NameParts& shorter) {
  if (shorter.given.size() < 3) return false;
  for (std::size_t i = 1; i + 1 < longer.words.size(); ++i) {
    if (longer.words[i].size() >= 3 && GivenAgree(longer.words[i], shorter.given)) return true;
  }
  return false;
}

// Whether the two names are one name with words cut short: the same number
// of words, each the other's word in its place or its beginning (two
// letters or more; three for the surname), and not all of them whole
// (`mo sam` / `moses samuel`, `francis ray` / `francis raymond`).
bool Abbreviated(const NameParts& pa, const NameParts& pb) {
  if (pa.words.size() != pb.words.size() || pa.words.size() < 2) return false;
  bool cut = false;
  for (std::size_t i = 0; i < pa.words.size(); ++i) {
    const std::string_view x = pa.words[i], y = pb.words[i];
    if (x == y) continue;
    const std::string_view shorter = x.size() < y.size() ? x : y;
    const std::string_view longer = x.size() < y.size() ? y : x;
    const std::size_t least = i + 1 == pa.words.size() ? 3 : 2;
    if (shorter.size() < least || !longer.starts_with(shorter)) return false;
    cut = true;
  }
  return cut;
}

// Whether each word of one name is the other's in its place or one typo
// from it (OneTypo, words of four letters or more): a typo Jaro-Winkler
// misses because it struck a first letter (`david ooggan` / `favid loggan`).
bool TyposInPlace(const NameParts& pa, const NameParts& pb) {
  if (pa.words.size() != pb.words.size()) return false;
  for (std::size_t i = 0; i < pa.words.size(); ++i) {
    if (pa.words[i] != pb.words[i] && !OneTypo(pa.words[i], pb.words[i], 4)) return false;
  }
  return true;
}

// Whether two surnames that neither sound alike nor are a scramble are still
// one written with a slip: one typo apart (OneTypo, five letters or more) or
// one cut short (its first four letters or more: `thom` / `thomas`).
bool SurnameSlip(std::string_view a, std::string_view b) {
  const std::string_view shorter = a.size() < b.size() ? a : b;
  const std::string_view longer = a.size() < b.size() ? b : a;
  return OneTypo(a, b, 5) || (shorter.size() >= 4 && longer.starts_with(shorter));
}

std::size_t CompareFull(const NameParts& pa, const NameParts& pb) {
  const std::string_view sa = WithoutArticle(pa.surname), sb = WithoutArticle(pb.surname);
  const bool same_surname = sa == sb;
  const bool initial = pa.given[0] == pb.given[0] && (pa.given.size() == 1 || pb.given.size() == 1);
  if (same_surname && AreNicknames(pa.given, pb.given)) return kNameNickname;
  if (same_surname && initial) return kNameInitial;
  // Word by word, in the given order and crossed (given name and surname
  // swapped by the source).
  const double jw = std::max(Both(pa.given, pb.given, pa.surname, pb.surname),
                             Both(pa.given, pb.surname, pa.surname, pb.given));
  if (jw >= 0.92) return kNameJw92;
  if (jw >= 0.88) return kNameJw88;
  if (Abbreviated(pa, pb)) return kNameInitial;
  if (TyposInPlace(pa, pb)) return kNameGarbled;
  const auto agree = [&] {
    return GivenAgree(pa.given, pb.given) || MiddleAgrees(pa, pb) || MiddleAgrees(pb, pa);
  };
  if (!same_surname && !SoundAlike(sa, sb) && !WordScrambled(sa, sb)) {
    // Surnames a typo or a cut apart are one misspelt only where the given
    // names agree too (`reggie adam` / `reginald adams`, a nickname Jaro-
    // Winkler cannot see): without that, they are strangers, not relatives.
    // Most strangers stop at the surnames; their given names are not read.
    return SurnameSlip(sa, sb) && agree() ? kNameGarbled : kNameDifferent;
  }
  // The surnames are one, alike or a scramble: the given names decide whether
  // that is one person misspelt or a relative.
  return agree() ? kNameGarbled : kNameSurnameOnly;
}

// The level of two names split into their parts.
std::size_t CompareParts(const NameParts& pa, const NameParts& pb) {
  if (pa.words.empty() || pb.words.empty()) {
    return pa.words == pb.words && pa.suffix == pb.suffix ? kNameExact : kNameDifferent;
  }
  // One side a single word: weak evidence at best, however exact.
  if (pa.words.size() == 1) return CompareSingle(pa.words[0], pb);
  if (pb.words.size() == 1) return CompareSingle(pb.words[0], pa);
  if (!pa.suffix.empty() && !pb.suffix.empty() && pa.suffix != pb.suffix) {
    return kNameSuffixDiffers;
  }
  // A suffix on one side only says nothing: the words decide.
  if (pa.words == pb.words) return kNameExact;
  if (pa.words.size() == pb.words.size() && Within(pa.words, pb.words)) return kNameReordered;
  // Joined neighbours are tried only in names of a few words: the tries
  // grow with the square of a name's length.
  const bool short_names = std::max(pa.words.size(), pb.words.size()) <= kJoinedWordsUpTo;
  if (short_names && (JoinedWithin(pa.words, pb.words) || JoinedWithin(pb.words, pa.words))) {
    return kNameReordered;
  }
  if (Within(pa.words, pb.words) || Within(pb.words, pa.words)) return kNameSubset;
  // Word by word; a name one word longer also with two neighbours written
  // as one (abdul rahman muhammad / abdulrahman mohammed): the best.
  std::size_t best = CompareFull(pa, pb);
  const bool a_longer = pa.words.size() == pb.words.size() + 1;
  if (short_names && (a_longer || pb.words.size() == pa.words.size() + 1)) {
    const NameParts& longer = a_longer ? pa : pb;
    const NameParts& shorter = a_longer ? pb : pa;
    for (std::size_t i = 0; i + 1 < longer.words.size(); ++i) {
      NameParts joined = longer;
      joined.words = JoinedAt(longer.words, i);
      joined.given = joined.words.size() > 1 ? joined.words.front() : std::string();
      joined.surname = joined.words.back();
      best = std::min(best, CompareFull(joined, shorter));
    }
  }
  return best;
}

}  // namespace

const std::vector<std::string>& NameLevelNames() {
  static const std::vector<std::string> kNames = {
      "exact",        "reordered",       "subset",          "nickname",
      "initial",      "jaro_winkler_92", "jaro_winkler_88", "garbled",
      "single_token", "surname_only",    "suffix_differs",  "different"};
  return kNames;
}

bool IsNameSuffix(std::string_view word) {
  static constexpr std::array<std::string_view, 5> kSuffixes = {"jr", "sr", "ii", "iii", "iv"};
  return std::find(kSuffixes.begin(), kSuffixes.end(), word) != kSuffixes.end();
}

std::size_t CompareNames(std::string_view a, std::string_view b) {
  const NameParts sa = SplitName(a), sb = SplitName(b);
  if (!HasArticleWord(sa) && !HasArticleWord(sb)) return CompareParts(sa, sb);  // most names
  const std::size_t joined = CompareParts(WithArticles(sa, true), WithArticles(sb, true));
  if (joined == kNameExact) return joined;
  // Without the article, two names alike are one word apart at best: a
  // subset (ahmed al saud / ahmed saud), as a middle name would be.
  const std::size_t dropped = CompareParts(WithArticles(sa, false), WithArticles(sb, false));
  return std::min<std::size_t>(joined, std::max<std::size_t>(dropped, kNameSubset));
}

}  // namespace idres::matcher_detail
