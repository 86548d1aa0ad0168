// Workload: the records of scenarios (a)-(d), derived from an operation's
// sequence number, and the number of persons the store must hold afterwards.
//
// The preload (preload.h) gives person i (1..N) the email p<i>@preload.example.org,
// the phone +1650<2000000+i>, a name, a birth date and a postal code.
//   (a) all new: every record is a person nobody has seen (email, phone, name,
//       birth date, postal code, traits).
//   (b) updates: an existing person's email with a changed trait.
//   (c) hot: ten people, not preloaded, every client on them: the first
//       upserts create them, the rest update them.
//   (d) mix: 50% new, 40% updates of the upper half of the preload, 10%
//       bridging records (the email of person 2k+1 with the phone of person
//       2k+2), each pair bridged once, so each merges two persons into one;
//       once the pairs run out, those slots become updates.
//
// Thread-safety: Next() is const; Tally's counters are atomic, so both may be
// used from every client thread at once.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "engine/record.h"

namespace idres::bench {

enum class OpKind { kNew, kUpdate, kHot, kBridge };

struct PlannedOp {
  Record record;
  OpKind kind = OpKind::kNew;
  int hot_index = -1;  // which of the ten hot people, for kHot
};

// Successful operations by kind, counted by the load's clients.
struct Tally {
  static constexpr int kHotPeople = 10;
  std::atomic<std::int64_t> created{0};
  std::atomic<std::int64_t> updated{0};
  std::atomic<std::int64_t> bridged{0};
  std::array<std::atomic<bool>, kHotPeople> hot_touched{};

  // Counts one successful `op`.
  void Count(const PlannedOp& op);
};

class Workload {
 public:
  // `scenario` is one of 'a', 'b', 'c', 'd'; `preload` the persons already
  // stored (at least 4 for 'd').
  Workload(char scenario, std::int64_t preload);

  // The record of operation `seq`.
  PlannedOp Next(std::int64_t seq) const;

  // Persons the store must hold once the operations counted in `tally`
  // committed (and nothing else did).
  std::int64_t ExpectedPersons(const Tally& tally) const;

  // Upserts among those counted in `tally` that should have created a
  // person (the new records and each hot person's first); more means
  // duplicates were made, even if later upserts merged them away.
  std::int64_t ExpectedCreations(const Tally& tally) const;

 private:
  PlannedOp New(std::int64_t seq) const;
  PlannedOp Update(std::int64_t person, std::int64_t seq) const;
  PlannedOp Hot(std::int64_t seq) const;
  PlannedOp Bridge(std::int64_t pair, std::int64_t seq) const;

  char scenario_;
  std::int64_t preload_;
};

// The email and phone the preload gives person `i` (1-based).
std::string PreloadEmail(std::int64_t i);
std::string PreloadPhone(std::int64_t i);

// A given name and surname of seven letters each, spread from `n` by a hash
// ("qzkeupa xhbtmrw"): synthetic persons must neither share one name (every
// record's blocking keys, docs/matching.md "Keys become locks", would be the same
// few hot locks, as no real population's are) nor be near-spellings of one
// another (the model would take them for typos of one person).
std::string LetterName(std::int64_t n);

}  // namespace idres::bench
