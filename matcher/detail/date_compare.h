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

// Whether `date` is 1900-01-01, the placeholder systems write when they
// have no birth date.
bool IsPlaceholderDate(std::string_view date);

// The level two dates reach; kNoEvidence (matcher/comparisons.h) when
// either is the placeholder: neither for nor against.
std::size_t CompareDates(std::string_view a, std::string_view b);

}  // namespace idres::matcher_detail
