// Double Metaphone: the driver and the letters with few rules. C, G and S,
// the letters with many, are in double_metaphone_cgs.cc.
#include "matcher/detail/double_metaphone.h"

#include <algorithm>

namespace idres::detail {

namespace {

// Uppercase ASCII; ç and ñ (either case) as one byte each.
std::string Prepare(std::string_view name) {
  std::string s;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const char next = i + 1 < name.size() ? name[i + 1] : '\0';
    if (c == '\xc3' && (next == '\xa7' || next == '\x87')) {
      s += kCedilla;
      ++i;
    } else if (c == '\xc3' && (next == '\xb1' || next == '\x91')) {
      s += kTilde;
      ++i;
    } else {
      s += c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    }
  }
  return s;
}

}  // namespace

MetaphoneEncoder::MetaphoneEncoder(std::string_view name)
    : s_(Prepare(name)),
      length_(static_cast<int>(s_.size())),
      last_(length_ - 1),
      slavo_germanic_(s_.find_first_of("WK") != std::string::npos ||
                      s_.find("CZ") != std::string::npos) {
  s_ += "     ";
}

PhoneticCodes MetaphoneEncoder::Run() {
  if (Is(0, {"GN", "KN", "PN", "WR", "PS"})) current_ = 1;
  if (At(0) == 'X') current_ = Add("S", 1);  // Xavier
  while ((primary_.size() < kMaxPhoneticCode || alternate_.size() < kMaxPhoneticCode) &&
         current_ < length_) {
    current_ += Letter();
  }
  primary_.resize(std::min(primary_.size(), kMaxPhoneticCode));
  alternate_.resize(std::min(alternate_.size(), kMaxPhoneticCode));
  return {primary_, alternate_};
}

int MetaphoneEncoder::Letter() {
  switch (At(current_)) {
    case 'A':
    case 'E':
    case 'I':
    case 'O':
    case 'U':
    case 'Y':
      if (current_ == 0) Add("A");
      return 1;
    case 'B':
      return Plain("P");
    case kCedilla:
      Add("S");
      return 1;
    case 'C':
      return C();
    case 'D':
      return D();
    case 'F':
      return Plain("F");
    case 'G':
      return G();
    case 'H':
      return H();
    case 'J':
      return J();
    case 'K':
      return Plain("K");
    case 'L':
      return L();
    case 'M':
      return M();
    case 'N':
      return Plain("N");
    case kTilde:
      Add("N");
      return 1;
    case 'P':
      return P();
    case 'Q':
      return Plain("K");
    case 'R':
      return R();
    case 'S':
      return S();
    case 'T':
      return T();
    case 'V':
      return Plain("F");
    case 'W':
      return W();
    case 'X':
      return X();
    case 'Z':
      return Z();
    default:
      return 1;
  }
}

int MetaphoneEncoder::D() {
  if (Is(current_, {"DG"})) {
    if (Is(current_ + 2, {"I", "E", "Y"})) return Add("J", 3);  // edge
    return Add("TK", 2);                                        // Edgar
  }
  Add("T");
  return Is(current_, {"DT", "DD"}) ? 2 : 1;
}

int MetaphoneEncoder::H() {
  // Kept only first or between vowels, and before a vowel.
  if ((current_ == 0 || IsVowel(current_ - 1)) && IsVowel(current_ + 1)) return Add("H", 2);
  return 1;
}

int MetaphoneEncoder::J() {
  const int c = current_;
  if (Is(c, {"JOSE"}) || Is(0, {"SAN "})) {  // Spanish: Jose, San Jacinto
    if ((c == 0 && At(c + 4) == ' ') || Is(0, {"SAN "})) {
      Add("H");
    } else {
      Add("J", "H");
    }
    return 1;
  }
  if (c == 0) {
    Add("J", "A");  // Yankelovich, Jankelowicz
  } else if (IsVowel(c - 1) && !slavo_germanic_ && (At(c + 1) == 'A' || At(c + 1) == 'O')) {
    Add("J", "H");  // Spanish: bajador
  } else if (c == last_) {
    Add("J", "");
  } else if (!Is(c + 1, {"L", "T", "K", "S", "N", "M", "B", "Z"}) && !Is(c - 1, {"S", "K", "L"})) {
    Add("J");
  }
  return At(c + 1) == 'J' ? 2 : 1;
}

int MetaphoneEncoder::L() {
  const int c = current_;
  if (At(c + 1) != 'L') return Add("L", 1);
  // Spanish: Cabrillo, Gallegos.
  if ((c == length_ - 3 && Is(c - 1, {"ILLO", "ILLA", "ALLE"})) ||
      ((Is(last_ - 1, {"AS", "OS"}) || Is(last_, {"A", "O"})) && Is(c - 1, {"ALLE"}))) {
    return Add("L", "", 2);
  }
  return Add("L", 2);
}

int MetaphoneEncoder::M() {
  const int c = current_;
  Add("M");
  // dumb, thumb; plumber
  if (Is(c - 1, {"UMB"}) && (c + 1 == last_ || Is(c + 2, {"ER"}))) return 2;
  return At(c + 1) == 'M' ? 2 : 1;
}

int MetaphoneEncoder::P() {
  if (At(current_ + 1) == 'H') return Add("F", 2);
  Add("P");
  return Is(current_ + 1, {"P", "B"}) ? 2 : 1;  // Campbell, raspberry
}

int MetaphoneEncoder::R() {
  const int c = current_;
  // French: Rogier, but not Hochmeier.
  if (c == last_ && !slavo_germanic_ && Is(c - 2, {"IE"}) && !Is(c - 4, {"ME", "MA"})) {
    Add("", "R");
  } else {
    Add("R");
  }
  return At(c + 1) == 'R' ? 2 : 1;
}

int MetaphoneEncoder::T() {
  const int c = current_;
  if (Is(c, {"TION"})) return Add("X", 3);
  if (Is(c, {"TIA", "TCH"})) return Add("X", 3);
  if (Is(c, {"TH"}) || Is(c, {"TTH"})) {
    // Thomas, Thames, or Germanic
    Is(c + 2, {"OM", "AM"}) || Germanic() ? Add("T") : Add("0", "T");
    return 2;
  }
  Add("T");
  return Is(c + 1, {"T", "D"}) ? 2 : 1;
}

int MetaphoneEncoder::W() {
  const int c = current_;
  if (Is(c, {"WR"})) return Add("R", 2);
  if (c == 0 && (IsVowel(c + 1) || Is(c, {"WH"}))) {
    IsVowel(c + 1) ? Add("A", "F") : Add("A");  // Wasserman meets Vasserman
  }
  // Arnow meets Arnoff.
  if ((c == last_ && IsVowel(c - 1)) || Is(c - 1, {"EWSKI", "EWSKY", "OWSKI", "OWSKY"}) ||
      Is(0, {"SCH"})) {
    return Add("", "F", 1);
  }
  if (Is(c, {"WICZ", "WITZ"})) return Add("TS", "FX", 4);  // Polish: Filipowicz
  return 1;
}

int MetaphoneEncoder::X() {
  const int c = current_;
  // French: Breaux.
  if (!(c == last_ && (Is(c - 3, {"IAU", "EAU"}) || Is(c - 2, {"AU", "OU"})))) Add("KS");
  return Is(c + 1, {"C", "X"}) ? 2 : 1;
}

int MetaphoneEncoder::Z() {
  const int c = current_;
  if (At(c + 1) == 'H') return Add("J", 2);  // Chinese pinyin: Zhao
  if (Is(c + 1, {"ZO", "ZI", "ZA"}) || (slavo_germanic_ && c > 0 && At(c - 1) != 'T')) {
    Add("S", "TS");
  } else {
    Add("S");
  }
  return At(c + 1) == 'Z' ? 2 : 1;
}

}  // namespace idres::detail
