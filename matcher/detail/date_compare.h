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
  kDateYearOneOff,
  kDateWeeksApart,
  kDateDifferent,
  kDateGeneration
};

const std::vector<std::string>& DateLevelNames();

// Whether `date` is 1900-01-01, the placeholder systems write when they
// have no birth date (CompareValues, matcher/comparisons.h, compares it
// with nothing).
bool IsPlaceholderDate(std::string_view date);

std::size_t CompareDates(std::string_view a, std::string_view b);

}  // namespace idres::matcher_detail
