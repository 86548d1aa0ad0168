#include "matcher/weak_sets.h"

#include <algorithm>
#include <cstdint>

namespace idres {

bool ReachesThreshold(double score, double threshold) {
  return score >= threshold - kWeightEpsilon;
}

bool IsStrong(const MatchConfig& config, std::string_view type) {
  const TypeRule* rule = config.Find(type);
  return rule != nullptr && ReachesThreshold(rule->weight, config.threshold);
}

std::vector<std::vector<std::string>> MinimalWeakSets(const MatchConfig& config) {
  std::vector<std::pair<std::string, double>> weak;
  for (const auto& [type, rule] : config.types) {
    if (rule.weight > 0 && !ReachesThreshold(rule.weight, config.threshold)) {
      weak.emplace_back(type, rule.weight);
    }
  }
  // 2^20 subsets is the most we are willing to enumerate once per engine.
  if (weak.size() > 20) weak.resize(20);
  const std::uint32_t n = static_cast<std::uint32_t>(weak.size());
  std::vector<std::uint32_t> reaching;
  for (std::uint32_t mask = 1; mask < (1u << n); ++mask) {
    double sum = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (mask & (1u << i)) sum += weak[i].second;
    }
    if (ReachesThreshold(sum, config.threshold)) reaching.push_back(mask);
  }
  std::vector<std::vector<std::string>> sets;
  for (std::uint32_t mask : reaching) {
    // Minimal: removing any one member drops below the threshold.
    bool minimal = true;
    for (std::uint32_t i = 0; i < n && minimal; ++i) {
      if ((mask & (1u << i)) &&
          std::binary_search(reaching.begin(), reaching.end(), mask & ~(1u << i))) {
        minimal = false;
      }
    }
    if (!minimal) continue;
    std::vector<std::string> set;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (mask & (1u << i)) set.push_back(weak[i].first);
    }
    sets.push_back(std::move(set));
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

}  // namespace idres
