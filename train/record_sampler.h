// RecordSampler: which records of a stream of known length training keeps
// when it holds at most `wanted` of them: each record is kept with the
// chance that leaves exactly `wanted` of `total` taken, every subset
// equally likely (Knuth's selection sampling, algorithm S). One pass, in
// order, nothing held back; the same seed keeps the same records.
// Thread-safety: one sampler belongs to one thread.
#pragma once

#include <cstdint>

#include "train/random.h"

namespace idres::train {

class RecordSampler {
 public:
  RecordSampler(std::uint64_t total, std::uint64_t wanted, std::uint64_t seed)
      : total_(total), wanted_(wanted), random_(seed) {}

  // Whether to keep the next record. Past `total` (a stream longer than
  // announced), records are kept while fewer than `wanted` are.
  bool Take() {
    bool take = taken_ < wanted_;
    if (take && seen_ < total_) take = random_.Below(total_ - seen_) < wanted_ - taken_;
    ++seen_;
    if (take) ++taken_;
    return take;
  }

  std::uint64_t seen() const { return seen_; }
  std::uint64_t taken() const { return taken_; }

 private:
  std::uint64_t total_, wanted_;
  std::uint64_t seen_ = 0, taken_ = 0;
  Random random_;
};

}  // namespace idres::train
