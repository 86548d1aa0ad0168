#include "matcher/edit_distance.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

namespace idres {
namespace {

// The textbook full-table optimal string alignment distance, for comparison.
std::size_t Osa(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

TEST_CASE("WithinOneEdit takes each kind of edit", "[matcher][edit_distance]") {
  CHECK(WithinOneEdit("john", "john"));
  CHECK(WithinOneEdit("jon", "john"));   // insert
  CHECK(WithinOneEdit("john", "jon"));   // delete
  CHECK(WithinOneEdit("john", "joan"));  // substitute
  CHECK(WithinOneEdit("john", "jonh"));  // adjacent transposition
  CHECK(WithinOneEdit("anna", "nana"));  // transposition at the start
  CHECK_FALSE(WithinOneEdit("john", "jane"));
  CHECK_FALSE(WithinOneEdit("john", "nhoj"));
  CHECK_FALSE(WithinOneEdit("abc", "cba"));  // a swap of non-adjacent bytes is two
  CHECK_FALSE(WithinOneEdit("jo", "john"));
}

TEST_CASE("WithinOneEdit at the edges", "[matcher][edit_distance]") {
  CHECK(WithinOneEdit("", ""));
  CHECK(WithinOneEdit("", "a"));
  CHECK(WithinOneEdit("a", ""));
  CHECK(WithinOneEdit("a", "b"));
  CHECK_FALSE(WithinOneEdit("", "ab"));
  CHECK(WithinOneEdit("ab", "ba"));
}

TEST_CASE("WithinOneEdit counts UTF-8 bytes", "[matcher][edit_distance]") {
  CHECK(WithinOneEdit("jos\xc3\xa9", "jos\xc3\xa8"));  // é -> è: last byte only
  CHECK_FALSE(WithinOneEdit("jos\xc3\xa9", "jose"));   // é -> e: two bytes
  CHECK(WithinOneEdit("jos\xc3\xa9", "jos\xc3"));      // a broken sequence is one byte short
  CHECK(WithinOneEdit("\xff", "\xfe"));
}

TEST_CASE("BoundedDamerauLevenshtein golden distances", "[matcher][edit_distance]") {
  CHECK(BoundedDamerauLevenshtein("kitten", "sitting", 5) == 3);
  CHECK(BoundedDamerauLevenshtein("ca", "abc", 5) == 3);  // restricted: not 2
  CHECK(BoundedDamerauLevenshtein("smith", "smyth", 5) == 1);
  CHECK(BoundedDamerauLevenshtein("", "abc", 5) == 3);
  CHECK(BoundedDamerauLevenshtein("kitten", "sitting", 2) == 3);  // bound + 1
  CHECK(BoundedDamerauLevenshtein("a", "abcdef", 1) == 2);
  CHECK(BoundedDamerauLevenshtein("abc", "abc", 0) == 0);
  CHECK(BoundedDamerauLevenshtein("abc", "abd", 0) == 1);
}

TEST_CASE("BoundedDamerauLevenshtein agrees with the full table", "[matcher][edit_distance]") {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> length(0, 8), letter('a', 'c'), bound(0, 4);
  for (int i = 0; i < 5000; ++i) {
    std::string a, b;
    for (int n = length(rng); n > 0; --n) a += static_cast<char>(letter(rng));
    for (int n = length(rng); n > 0; --n) b += static_cast<char>(letter(rng));
    const std::size_t k = static_cast<std::size_t>(bound(rng));
    INFO(a << " / " << b << " bound " << k);
    CHECK(BoundedDamerauLevenshtein(a, b, k) == std::min(Osa(a, b), k + 1));
    CHECK(WithinOneEdit(a, b) == (Osa(a, b) <= 1));
  }
}

}  // namespace
}  // namespace idres
