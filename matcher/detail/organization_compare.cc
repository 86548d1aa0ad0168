#include "matcher/detail/organization_compare.h"

#include <algorithm>
#include <array>

#include "matcher/jaro_winkler.h"

namespace idres::matcher_detail {
namespace {

// Legal forms in their short spelling (normalize/organization.h) and
// words that name no one company.
// (The Russian forms also transliterated: ООО, ОАО, ЗАО, ПАО, АО are ooo,
// oao, zao, pao, ao; in English llc, ojsc, cjsc, pjsc, jsc. Sweden marks a
// public company "(publ)"; cie and cia are compagnie and compañía.)
bool IsLegalForm(std::string_view word) {
  static constexpr std::array<std::string_view, 46> kForms = {
      "ltd", "inc", "corp", "co",  "plc", "llc", "llp",  "lp",   "gmbh", "ag",  "kg",  "sa",
      "spa", "srl", "sarl", "bv",  "nv",  "pty", "ab",   "oy",   "kk",   "sl",  "as",  "asa",
      "se",  "ooo", "oao",  "zao", "pao", "ao",  "pjsc", "ojsc", "cjsc", "jsc", "lda", "ltda",
      "sas", "ug",  "kgaa", "ohg", "gbr", "ev",  "tov",  "publ", "cie",  "cia"};
  return std::find(kForms.begin(), kForms.end(), word) != kForms.end();
}

// The, and, of; and in German and French (gmbh und co kg, dupont et cie).
bool IsFiller(std::string_view word) {
  return word == "the" || word == "and" || word == "of" || word == "und" || word == "et";
}

bool IsFormOrFiller(std::string_view word) { return IsLegalForm(word) || IsFiller(word); }

std::vector<std::string_view> Words(std::string_view organization) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < organization.size();) {
    const std::size_t end = std::min(organization.find(' ', i), organization.size());
    if (end > i) out.push_back(organization.substr(i, end - i));
    i = end + 1;
  }
  return out;
}

// The words of a normalized organization name that name the company: all
// but the legal forms and fillers it starts or ends with (ooo romashka, oy
// karl fazer ab, the ag barr co). A form's letters in the middle may be a
// word of the name (co operative, as good as new), so they stay; a name of
// forms alone keeps them.
std::vector<std::string_view> NamingWords(std::string_view organization) {
  std::vector<std::string_view> out = Words(organization);
  std::size_t first = 0, last = out.size();
  while (last > first && IsFormOrFiller(out[last - 1])) --last;  // acme widgets ltd (the)
  if (last == first) return out;
  while (IsFormOrFiller(out[first])) ++first;  // the ag barr co
  return {out.begin() + static_cast<std::ptrdiff_t>(first),
          out.begin() + static_cast<std::ptrdiff_t>(last)};
}

// Whether `a` is written as the initials of `b` ("ibm corp" and
// "international business machines corp"; "boa" and "bank of america"):
// one word of three letters at least, against the first letters of the
// other's words, with or without the fillers.
bool AcronymOf(std::string_view a, std::string_view b) {
  std::vector<std::string_view> acronym;
  for (std::string_view w : NamingWords(a)) {
    if (!IsFiller(w)) acronym.push_back(w);
  }
  // One word of three letters or more, and no legal form alone (inc, corp).
  if (acronym.size() != 1 || acronym[0].size() < 3 || IsLegalForm(acronym[0])) return false;
  std::string all, core;
  for (std::string_view w : NamingWords(b)) {
    all += w[0];
    if (!IsFiller(w)) core += w[0];
  }
  return acronym[0] == core || acronym[0] == all;
}

// One spelling of letters that transliterations write two ways: a German
// umlaut written out (mueller / muller), a doubled letter.
std::string Fold(std::string_view word) {
  std::string out;
  for (std::size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    if (i > 0 && c == 'e' && (word[i - 1] == 'a' || word[i - 1] == 'o' || word[i - 1] == 'u')) {
      continue;
    }
    if (!out.empty() && out.back() == c) continue;
    out += c;
  }
  return out;
}

// Whether each word of `a` has a word of `b` alike (Jaro–Winkler 0.92), and
// both hold as many.
bool WordsAlike(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.size() != b.size() || a.empty()) return false;
  std::vector<bool> used(b.size(), false);
  for (const std::string& w : a) {
    bool found = false;
    for (std::size_t j = 0; j < b.size() && !found; ++j) {
      if (used[j] || JaroWinkler(w, b[j]) < 0.92) continue;
      used[j] = true;
      found = true;
    }
    if (!found) return false;
  }
  return true;
}

// Whether a legal form is no common word of a name where it stands in the
// middle: three letters or more, or the German ag and kg (se is South-East,
// co county, ao Portuguese, as and ab words of many languages).
bool IsUnmistakableForm(std::string_view word) {
  return IsLegalForm(word) && (word.size() >= 3 || word == "ag" || word == "kg");
}

// The name's words without fillers and the unmistakable legal forms,
// wherever they stand (siemens ag oesterreich, ubs ag london branch),
// sorted and folded.
std::vector<std::string> WordsWithoutForms(std::string_view organization) {
  std::vector<std::string> out;
  for (std::string_view word : NamingWords(organization)) {
    if (!IsFiller(word) && !IsUnmistakableForm(word)) out.push_back(Fold(word));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

const std::vector<std::string>& OrganizationLevelNames() {
  static const std::vector<std::string> kNames = {"exact", "same_core", "similar", "different"};
  return kNames;
}

std::vector<std::string> CoreWords(std::string_view organization) {
  std::vector<std::string> out;
  const std::vector<std::string_view> words = NamingWords(organization);
  // A name of legal forms alone (a typo, a placeholder) has no core.
  if (std::all_of(words.begin(), words.end(), IsFormOrFiller)) {
    return out;
  }
  for (std::string_view word : words) {
    if (!IsFiller(word)) out.push_back(Fold(word));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t CompareOrganizations(std::string_view a, std::string_view b) {
  if (a == b) return kOrganizationExact;
  const std::vector<std::string> ca = CoreWords(a), cb = CoreWords(b);
  if (!ca.empty() && ca == cb) return kOrganizationSameCore;
  if (WordsAlike(ca, cb) || AcronymOf(a, b) || AcronymOf(b, a)) return kOrganizationSimilar;
  // One with a legal form in the middle of its name (siemens ag
  // oesterreich / siemens oesterreich): alike, as the form may be a word.
  const std::vector<std::string> fa = WordsWithoutForms(a), fb = WordsWithoutForms(b);
  if (!fa.empty() && fa == fb) return kOrganizationSimilar;
  return kOrganizationDifferent;
}

}  // namespace idres::matcher_detail
