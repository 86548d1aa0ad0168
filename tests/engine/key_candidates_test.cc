// KeyCandidates: which persons met through blocking keys alone a record is
// compared with, when more hold its keys than the model's max_candidates.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "engine/detail/store.h"

namespace idres::detail {
namespace {

using Ids = std::vector<std::int64_t>;

TEST_CASE("key candidates: all of them while they fit", "[engine]") {
  const KeyHolders holders = {{1, {30, 10}}, {2, {20}}, {3, {99}}};
  // Key 3 is not the record's; 10 and 30 are kept in id order.
  CHECK(KeyCandidates(Ids{1, 2}, holders, 3) == Ids{10, 20, 30});
  CHECK(KeyCandidates(Ids{4}, holders, 3).empty());
}

TEST_CASE("key candidates: those sharing the most keys come first", "[engine]") {
  // 50 shares both keys, though it is the newest and key 1 is common.
  const KeyHolders holders = {{1, {10, 11, 12, 13, 50}}, {2, {50}}};
  CHECK(KeyCandidates(Ids{1, 2}, holders, 1) == Ids{50});
}

TEST_CASE("key candidates: then those met through the rarer key, then the oldest", "[engine]") {
  const KeyHolders holders = {{1, {10, 11, 12, 13}}, {2, {40, 41}}};
  // One key each: key 2 (two holders) before key 1 (four).
  CHECK(KeyCandidates(Ids{1, 2}, holders, 2) == Ids{40, 41});
  // Within key 1, the oldest.
  CHECK(KeyCandidates(Ids{1}, holders, 2) == Ids{10, 11});
  CHECK(KeyCandidates(Ids{1, 2}, holders, 3) == Ids{10, 40, 41});
}

}  // namespace
}  // namespace idres::detail
