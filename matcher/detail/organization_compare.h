// The organization comparison's levels (matcher/comparisons.h), best first,
// the comparison itself, and an organization name's core words. Pure;
// thread-safe. Internal to matcher/.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace idres::matcher_detail {

enum OrganizationLevel : std::size_t {
  kOrganizationExact,
  kOrganizationSameCore,
  kOrganizationSimilar,
  kOrganizationDifferent
};

const std::vector<std::string>& OrganizationLevelNames();

std::size_t CompareOrganizations(std::string_view a, std::string_view b);

// The core words of a canonical organization name, sorted (see
// OrganizationCore in matcher/comparisons.h).
std::vector<std::string> CoreWords(std::string_view organization);

}  // namespace idres::matcher_detail
