// Generated people for the training benchmark: a population with the
// shapes real data has — given names and surnames of very unequal
// frequency (Zipf), cities likewise, birth dates spread over 75 years,
// email for most, and duplicates: each person one to four records, a
// quarter of the extra ones with a typo in the name, the date or the email.
// Values are written as the normalizers write them, so a store can be
// filled with them directly. Deterministic: the seed makes the records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace idres::bench {

struct TrainRecord {
  std::uint64_t person = 0;                   // 1-based
  std::string name, birth_date, city, email;  // empty: absent
};

// About `records` records (the last person's copies may add up to three).
std::vector<TrainRecord> GenerateTrainRecords(std::uint64_t records, std::uint64_t seed);

}  // namespace idres::bench
