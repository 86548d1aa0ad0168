// Jaro–Winkler similarity of two strings, compared byte by byte.
//
// Jaro: m matching bytes (equal and no farther apart than
// max(|a|, |b|) / 2 - 1), t half the matched bytes out of order,
// J = (m/|a| + m/|b| + (m - t)/m) / 3. Winkler: JW = J + l * 0.1 * (1 - J),
// l the common prefix, at most 4 bytes. The prefix bonus applies at every J
// (no 0.7 boost threshold), as in the published MARTHA/MARHTA = 0.961.
// Bytes, not characters: a UTF-8 letter of two bytes counts as two, which
// only lowers the score of names that differ in such letters. Pure;
// thread-safe.
#pragma once

#include <string_view>

namespace idres {

// Jaro similarity in [0, 1]: 1 for equal strings (two empty strings
// included), 0 when either is empty and the other is not, or nothing matches.
double Jaro(std::string_view a, std::string_view b);

// Jaro–Winkler similarity in [0, 1], symmetric; 1 exactly for equal strings.
double JaroWinkler(std::string_view a, std::string_view b);

}  // namespace idres
