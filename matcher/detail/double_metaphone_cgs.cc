// Double Metaphone: the rules for C, G and S, the letters with many.
#include "matcher/detail/double_metaphone.h"

namespace idres::detail {

int MetaphoneEncoder::C() {
  const int c = current_;
  // Germanic "ach" (Bacher, Macher), not "achi"/"ache".
  if (c > 1 && !IsVowel(c - 2) && Is(c - 1, {"ACH"}) && At(c + 2) != 'I' &&
      (At(c + 2) != 'E' || Is(c - 2, {"BACHER", "MACHER"}))) {
    Add("K");
    return 2;
  }
  if (c == 0 && Is(c, {"CAESAR"})) return Add("S", 2);
  if (Is(c, {"CHIA"})) return Add("K", 2);  // Chianti
  if (Is(c, {"CH"})) return Ch();
  if (Is(c, {"CZ"}) && !Is(c - 2, {"WICZ"})) return Add("S", "X", 2);  // Czerny
  if (Is(c + 1, {"CIA"})) return Add("X", 3);                          // focaccia
  if (Is(c, {"CC"}) && !(c == 1 && At(0) == 'M')) return Cc();         // not McClellan
  if (Is(c, {"CK", "CG", "CQ"})) return Add("K", 2);
  if (Is(c, {"CI", "CE", "CY"})) {
    if (Is(c, {"CIO", "CIE", "CIA"})) return Add("S", "X", 2);  // Italian
    return Add("S", 2);
  }
  Add("K");
  if (Is(c + 1, {" C", " Q", " G"})) return 3;  // Mac Caffrey, Mac Gregor
  if (Is(c + 1, {"C", "K", "Q"}) && !Is(c + 1, {"CE", "CI"})) return 2;
  return 1;
}

int MetaphoneEncoder::Ch() {
  const int c = current_;
  if (c > 0 && Is(c, {"CHAE"})) return Add("K", "X", 2);  // Michael
  // Greek roots: chemistry, chorus, but not chore.
  if (c == 0 && (Is(c + 1, {"HARAC", "HARIS"}) || Is(c + 1, {"HOR", "HYM", "HIA", "HEM"})) &&
      !Is(0, {"CHORE"})) {
    return Add("K", 2);
  }
  // "ch" for "kh": Germanic, architect, orchestra, orchid, Wachtler, Wechsler.
  if (Germanic() || Is(c - 2, {"ORCHES", "ARCHIT", "ORCHID"}) || Is(c + 2, {"T", "S"}) ||
      ((Is(c - 1, {"A", "O", "U", "E"}) || c == 0) &&
       Is(c + 2, {"L", "R", "N", "M", "B", "H", "F", "V", "W", " "}))) {
    Add("K");
  } else if (c > 0) {
    Is(0, {"MC"}) ? Add("K") : Add("X", "K");  // McHugh
  } else {
    Add("X");
  }
  return 2;
}

int MetaphoneEncoder::Cc() {
  const int c = current_;
  // Bellocchio, but not Bacchus: Pierce's rule.
  if (!Is(c + 2, {"I", "E", "H"}) || Is(c + 2, {"HU"})) return Add("K", 2);
  if ((c == 1 && At(c - 1) == 'A') || Is(c - 1, {"UCCEE", "UCCES"})) {
    Add("KS");  // accident, accede, succeed
  } else {
    Add("X");  // Bacci, Bertucci
  }
  return 3;
}

int MetaphoneEncoder::G() {
  const int c = current_;
  if (At(c + 1) == 'H') return Gh();
  if (At(c + 1) == 'N') return Gn();
  if (Is(c + 1, {"LI"}) && !slavo_germanic_) return Add("KL", "L", 2);  // Tagliaro
  // ges-, gep-, gel-, gie- at the start.
  if (c == 0 && (At(c + 1) == 'Y' ||
                 Is(c + 1, {"ES", "EP", "EB", "EL", "EY", "IB", "IL", "IN", "IE", "EI", "ER"}))) {
    return Add("K", "J", 2);
  }
  // -ger-, -gy-
  if ((Is(c + 1, {"ER"}) || At(c + 1) == 'Y') && !Is(0, {"DANGER", "RANGER", "MANGER"}) &&
      !Is(c - 1, {"E", "I"}) && !Is(c - 1, {"RGY", "OGY"})) {
    return Add("K", "J", 2);
  }
  // Italian: Biaggi.
  if (Is(c + 1, {"E", "I", "Y"}) || Is(c - 1, {"AGGI", "OGGI"})) {
    if (Germanic() || Is(c + 1, {"ET"})) {
      Add("K");
    } else if (Is(c + 1, {"IER "})) {
      Add("J");  // French ending
    } else {
      Add("J", "K");
    }
    return 2;
  }
  Add("K");
  return At(c + 1) == 'G' ? 2 : 1;
}

int MetaphoneEncoder::Gh() {
  const int c = current_;
  if (c > 0 && !IsVowel(c - 1)) return Add("K", 2);
  if (c == 0) return Add(At(c + 2) == 'I' ? "J" : "K", 2);  // Ghislane, Ghiradelli
  // Parker's rule: Hugh, bough, Broughton.
  if ((c > 1 && Is(c - 2, {"B", "H", "D"})) || (c > 2 && Is(c - 3, {"B", "H", "D"})) ||
      (c > 3 && Is(c - 4, {"B", "H"}))) {
    return 2;
  }
  // laugh, McLaughlin, cough, gough, rough, tough
  if (c > 2 && At(c - 1) == 'U' && Is(c - 3, {"C", "G", "L", "R", "T"})) {
    Add("F");
  } else if (At(c - 1) != 'I') {
    Add("K");
  }
  return 2;
}

int MetaphoneEncoder::Gn() {
  if (current_ == 1 && IsVowel(0) && !slavo_germanic_) {
    Add("KN", "N");
  } else if (!Is(current_ + 2, {"EY"}) && !slavo_germanic_) {
    Add("N", "KN");  // not Cagney
  } else {
    Add("KN");
  }
  return 2;
}

int MetaphoneEncoder::S() {
  const int c = current_;
  if (Is(c - 1, {"ISL", "YSL"})) return 1;                  // island, Carlisle
  if (c == 0 && Is(c, {"SUGAR"})) return Add("X", "S", 1);  // sugar
  if (Is(c, {"SH"})) {
    Add(Is(c + 1, {"HEIM", "HOEK", "HOLM", "HOLZ"}) ? "S" : "X");  // Germanic
    return 2;
  }
  if (Is(c, {"SIO", "SIA"}) || Is(c, {"SIAN"})) {  // Italian, Armenian
    slavo_germanic_ ? Add("S") : Add("S", "X");
    return 3;
  }
  // Smith meets Schmidt, Snider meets Schneider; Slavic -sz-.
  if ((c == 0 && Is(c + 1, {"M", "N", "L", "W"})) || Is(c + 1, {"Z"})) {
    Add("S", "X");
    return Is(c + 1, {"Z"}) ? 2 : 1;
  }
  if (Is(c, {"SC"})) return Sc();
  // French: Resnais, Artois.
  if (c == last_ && Is(c - 2, {"AI", "OI"})) {
    Add("", "S");
  } else {
    Add("S");
  }
  return Is(c + 1, {"S", "Z"}) ? 2 : 1;
}

int MetaphoneEncoder::Sc() {
  const int c = current_;
  if (At(c + 2) == 'H') {                                    // Schlesinger's rule
    if (Is(c + 3, {"OO", "ER", "EN", "UY", "ED", "EM"})) {   // Dutch: school, schooner
      Is(c + 3, {"ER", "EN"}) ? Add("X", "SK") : Add("SK");  // Schermerhorn, Schenker
    } else if (c == 0 && !IsVowel(3) && At(3) != 'W') {
      Add("X", "S");
    } else {
      Add("X");
    }
    return 3;
  }
  Add(Is(c + 2, {"I", "E", "Y"}) ? "S" : "SK");
  return 3;
}

}  // namespace idres::detail
