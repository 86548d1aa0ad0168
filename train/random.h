// Random: the one source of chance in training, a SplitMix64 generator.
// Its sequence is fixed by its seed on every platform and standard library
// (std::uniform_int_distribution is not), which is what makes a trained
// model file the same byte for byte for the same input and seed.
// Thread-safety: one generator belongs to one thread.
#pragma once

#include <cstdint>

namespace idres::train {

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), n > 0: draws above the largest multiple of n are
  // drawn again, so no value is favoured.
  std::uint64_t Below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x = Next();
    while (x >= limit) x = Next();
    return x % n;
  }

  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

// A number fixed by `seed` and the pair (a, b): whether a pair is in a
// sample, decided without drawing in order.
inline std::uint64_t PairHash(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return Random(seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b + 0x632be59bd9b4e019ULL)).Next();
}

}  // namespace idres::train
