#include "train/random_pairs.h"

#include <vector>

#include "train/random.h"

namespace idres::train {

RandomPairSample SampleRandomPairs(const RecordTable& table, const PairLevels& levels,
                                   std::uint64_t pairs, std::uint64_t seed) {
  RandomPairSample out;
  const std::uint64_t n = table.size();
  std::vector<std::uint8_t> pattern(levels.types());
  if (n < 2) return out;
  if (n * (n - 1) / 2 <= pairs) {
    out.every_pair = true;
    for (std::uint64_t a = 0; a < n; ++a) {
      for (std::uint64_t b = a + 1; b < n; ++b) {
        levels.Levels(a, b, pattern);
        out.patterns.Add(pattern);
      }
    }
    return out;
  }
  Random random(seed);
  for (std::uint64_t i = 0; i < pairs; ++i) {
    const std::uint64_t a = random.Below(n);
    std::uint64_t b = random.Below(n - 1);
    if (b >= a) ++b;
    levels.Levels(a, b, pattern);
    out.patterns.Add(pattern);
  }
  return out;
}

}  // namespace idres::train
