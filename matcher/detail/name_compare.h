// The name comparison's levels (matcher/comparisons.h), best first, and
// the comparison itself. Pure; thread-safe. Internal to matcher/.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace idres::matcher_detail {

enum NameLevel : std::size_t {
  kNameExact,
  kNameReordered,
  kNameSubset,
  kNameNickname,
  kNameInitial,
  kNameJw92,
  kNameJw88,
  kNameGarbled,
  kNameSingleToken,
  kNameSurnameOnly,
  kNameSuffixDiffers,
  kNameDifferent
};

const std::vector<std::string>& NameLevelNames();

std::size_t CompareNames(std::string_view a, std::string_view b);

// Whether `word` is a generational suffix (jr, sr, ii, iii, iv).
bool IsNameSuffix(std::string_view word);

}  // namespace idres::matcher_detail
