#include "matcher/jaro_winkler.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>

namespace idres {
namespace {

using Catch::Detail::Approx;

// Winkler (1990) and the usual textbook figures, to three places.
TEST_CASE("Jaro-Winkler matches the published figures", "[matcher][jaro_winkler]") {
  CHECK(Jaro("martha", "marhta") == Approx(0.944).margin(5e-4));
  CHECK(JaroWinkler("martha", "marhta") == Approx(0.961).margin(5e-4));
  CHECK(Jaro("dwayne", "duane") == Approx(0.822).margin(5e-4));
  CHECK(JaroWinkler("dwayne", "duane") == Approx(0.840).margin(5e-4));
  CHECK(Jaro("dixon", "dicksonx") == Approx(0.767).margin(5e-4));
  CHECK(JaroWinkler("dixon", "dicksonx") == Approx(0.813).margin(5e-4));
}

TEST_CASE("Jaro-Winkler of exact fractions from the definition", "[matcher][jaro_winkler]") {
  // jon/john: m = 3, t = 0: J = (1 + 3/4 + 1) / 3 = 11/12, prefix 2.
  CHECK(JaroWinkler("jon", "john") == Approx(11.0 / 12 + 0.2 * (1.0 / 12)));
  // abcd/badc: window 1, m = 4, all four out of order: t = 2.
  CHECK(Jaro("abcd", "badc") == Approx((1 + 1 + 0.5) / 3));
  // The prefix counts at most 4 bytes.
  const double j = Jaro("abcdefgh", "abcdefxy");
  CHECK(JaroWinkler("abcdefgh", "abcdefxy") == Approx(j + 0.4 * (1 - j)));
}

TEST_CASE("Jaro-Winkler at the edges", "[matcher][jaro_winkler]") {
  CHECK(JaroWinkler("", "") == 1.0);
  CHECK(JaroWinkler("", "a") == 0.0);
  CHECK(JaroWinkler("a", "") == 0.0);
  CHECK(JaroWinkler("a", "a") == 1.0);
  CHECK(JaroWinkler("a", "b") == 0.0);
  CHECK(JaroWinkler("ab", "ba") == 0.0);  // window 0: nothing matches out of place
  CHECK(JaroWinkler("abc", "xyz") == 0.0);
}

TEST_CASE("Jaro-Winkler compares UTF-8 bytes", "[matcher][jaro_winkler]") {
  CHECK(JaroWinkler("jos\xc3\xa9", "jos\xc3\xa9") == 1.0);
  // "josé" against "jose": 4 of 5 bytes against 4 of 4 match.
  CHECK(Jaro("jos\xc3\xa9", "jose") == Approx((3.0 / 5 + 3.0 / 4 + 1) / 3));
  CHECK(JaroWinkler("\xc3\xa9", "\xc3\xa8") < 1.0);
  CHECK(JaroWinkler("\xff\xfe", "\xff\xfe") == 1.0);
}

TEST_CASE("Jaro-Winkler stays in [0, 1] and is symmetric", "[matcher][jaro_winkler]") {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> length(0, 9), letter('a', 'e');
  for (int i = 0; i < 5000; ++i) {
    std::string a, b;
    for (int n = length(rng); n > 0; --n) a += static_cast<char>(letter(rng));
    for (int n = length(rng); n > 0; --n) b += static_cast<char>(letter(rng));
    const double ab = JaroWinkler(a, b);
    INFO(a << " / " << b);
    CHECK(ab >= 0.0);
    CHECK(ab <= 1.0);
    CHECK(ab == Approx(JaroWinkler(b, a)));
    CHECK((ab == 1.0) == (a == b));
  }
}

}  // namespace
}  // namespace idres
