#include "train/em.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace idres::train {
namespace {

// The patterns of `pairs` pairs of which a share `lambda` are matches, two
// types of three levels drawn independently with `m` and `u`, a third type
// never compared, as expected counts.
std::vector<PatternCount> Expected(double pairs, double lambda, const LevelTable& m,
                                   const LevelTable& u) {
  std::vector<PatternCount> out;
  for (std::uint8_t a = 0; a < 3; ++a) {
    for (std::uint8_t b = 0; b < 3; ++b) {
      const double share = lambda * m[0][a] * m[1][b] + (1 - lambda) * u[0][a] * u[1][b];
      out.push_back({{a, b, 0xff}, static_cast<std::uint64_t>(std::llround(pairs * share))});
    }
  }
  return out;
}

const LevelTable kM = {{0.7, 0.2, 0.1}, {0.6, 0.3, 0.1}, {0.5, 0.5}};
const LevelTable kU = {{0.01, 0.09, 0.9}, {0.05, 0.15, 0.8}, {0.5, 0.5}};

TEST_CASE("EM finds m and the share of matches with u fixed", "[train]") {
  const auto patterns = Expected(1e7, 0.3, kM, kU);
  // From a flat start: every m = u, every weight 0.
  EmStart start{{true, true, true}, kU, false, kU, 0.1, 500, 1e-7};
  const EmResult r = RunEm(patterns, start);
  REQUIRE(r.converged);
  CHECK(r.lambda == Approx(0.3).margin(1e-3));
  for (std::size_t t = 0; t < 2; ++t) {
    for (std::size_t l = 0; l < 3; ++l) CHECK(r.m[t][l] == Approx(kM[t][l]).margin(1e-3));
  }
  // Expected matching pairs: the matches' share of the pairs, per level.
  CHECK(r.match_pairs[0][0] == Approx(1e7 * 0.3 * 0.7).epsilon(0.01));
}

TEST_CASE("EM started from the pairs' agreement finds the same", "[train]") {
  const auto patterns = Expected(1e7, 0.3, kM, kU);
  EmStart start{{true, true, true}, kU, true, kU, 0.1, 500, 1e-7};
  const EmResult r = RunEm(patterns, start);
  REQUIRE(r.converged);
  CHECK(r.lambda == Approx(0.3).margin(1e-3));
  CHECK(r.m[1][2] == Approx(0.1).margin(1e-3));
}

TEST_CASE("a type EM does not estimate keeps its m and weighs nothing", "[train]") {
  const auto patterns = Expected(1e6, 0.3, kM, kU);
  EmStart start{{true, true, false}, kU, false, kU, 0.1, 500, 1e-7};
  const EmResult r = RunEm(patterns, start);
  REQUIRE(r.converged);
  CHECK(r.m[2] == kU[2]);
}

TEST_CASE("EM that runs out of iterations says so", "[train]") {
  EmStart start{{true, true, true}, kU, false, kU, 0.1, 2, 1e-7};
  const EmResult r = RunEm(Expected(1e6, 0.3, kM, kU), start);
  CHECK_FALSE(r.converged);
  CHECK(r.iterations == 2);
  CHECK(r.last_change > 1e-7);
}

TEST_CASE("the chance of a match multiplies the active types' likelihood ratios", "[train]") {
  const PatternCount p{{0, 0, 0xff}, 1};
  const double odds = 0.3 / 0.7 * (0.7 / 0.01) * (0.6 / 0.05);
  CHECK(MatchPosterior(p, {true, true, true}, kM, kU, 0.3) == Approx(odds / (1 + odds)));
  const double one = 0.3 / 0.7 * (0.7 / 0.01);
  CHECK(MatchPosterior(p, {true, false, true}, kM, kU, 0.3) == Approx(one / (1 + one)));
}

}  // namespace
}  // namespace idres::train
