// The birth date comparison's levels (matcher/comparisons.h), best first,
// and the comparison itself. Pure; thread-safe. Internal to matcher/.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace idres::matcher_detail {

enum DateLevel : std::size_t {
  kDateExact,
  kDateSwapped,
  kDateOneOff,
  kDateTwoOff,
  kDateSameYear,
  kDateWeeksApart,
  kDateDifferent,
  kDateGeneration
};

const std::vector<std::string>& DateLevelNames();

// The level two dates reach; kNoEvidence (matcher/comparisons.h) when
// either is the placeholder 1900-01-01, a system's "no date" rather than a
// birth date: neither for nor against.
std::size_t CompareDates(std::string_view a, std::string_view b);

}  // namespace idres::matcher_detail
