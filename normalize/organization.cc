#include "normalize/organization.h"

#include <array>
#include <string>
#include <vector>

#include "normalize/detail/icu.h"
#include "normalize/detail/utf8.h"
#include "normalize/name.h"

namespace idres {
namespace {

namespace nd = normalize_detail;

// Legal forms written out, by word, and their short spelling; longest
// first, so "limited liability company" wins over "limited".
struct LongForm {
  std::vector<std::string_view> words;
  std::string_view short_form;
};

const std::vector<LongForm>& LongForms() {
  static const std::vector<LongForm> kForms = {
      // Chinese 股份有限公司 and 有限公司, Japanese 株式会社, as
      // transliterated (pinyin of the characters).
      {{"gu", "fen", "you", "xian", "gong", "si"}, "co ltd"},
      {{"public", "joint", "stock", "company"}, "pjsc"},
      {{"open", "joint", "stock", "company"}, "ojsc"},
      {{"closed", "joint", "stock", "company"}, "cjsc"},
      {{"you", "xian", "gong", "si"}, "ltd"},
      {{"zhu", "shi", "hui", "she"}, "kk"},
      {{"joint", "stock", "company"}, "jsc"},
      {{"gesellschaft", "mit", "beschrankter", "haftung"}, "gmbh"},
      {{"societe", "a", "responsabilite", "limitee"}, "sarl"},
      {{"limited", "liability", "company"}, "llc"},
      {{"limited", "liability", "partnership"}, "llp"},
      {{"public", "limited", "company"}, "plc"},
      {{"societa", "per", "azioni"}, "spa"},
      {{"limited", "partnership"}, "lp"},
      {{"proprietary", "limited"}, "pty ltd"},
      {{"societe", "anonyme"}, "sa"},
      {{"sociedad", "anonima"}, "sa"},
      {{"besloten", "vennootschap"}, "bv"},
      {{"naamloze", "vennootschap"}, "nv"},
      {{"kabushiki", "kaisha"}, "kk"},
      {{"aktiengesellschaft"}, "ag"},
      {{"kommanditgesellschaft"}, "kg"},
      {{"aktiebolag"}, "ab"},
      {{"aktiebolaget"}, "ab"},
      {{"osakeyhtio"}, "oy"},
      {{"limited"}, "ltd"},
      {{"incorporated"}, "inc"},
      {{"corporation"}, "corp"},
      {{"company"}, "co"},
      {{"proprietary"}, "pty"},
  };
  return kForms;
}

// `words` with each legal form written out in its short spelling.
std::string ShortForms(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size();) {
    std::string_view next = words[i];
    std::size_t used = 1;
    for (const LongForm& form : LongForms()) {
      const std::size_t n = form.words.size();
      if (i + n > words.size()) continue;
      bool all = true;
      for (std::size_t k = 0; k < n && all; ++k) all = words[i + k] == form.words[k];
      if (!all) continue;
      next = form.short_form;
      used = n;
      break;
    }
    out += (out.empty() ? "" : " ") + std::string(next);
    i += used;
  }
  return out;
}

}  // namespace

KindResult NormalizeOrganization(std::string_view input) {
  const KindResult text = NormalizeText(input);
  if (!text.ok()) return text;
  std::string spaced;
  for (char c : text.value) {
    // Inside abbreviations (g.m.b.h., s.a., inc.) and possessives (mcdonald's).
    if (c == '.' || c == '\'') continue;
    if (c == '&' || c == '+') {
      spaced += " and ";
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c & 0x80) != 0) {
      spaced += c;
    } else {
      spaced += ' ';
    }
  }
  std::string name = ShortForms(nd::Words(spaced));
  if (name.empty() || !nd::HasLetter(name)) {
    return KindResult::Reject("the organization name has no letter");
  }
  return KindResult::Ok(std::move(name));
}

}  // namespace idres
