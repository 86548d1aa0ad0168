#include "engine/change.h"

#include <array>
#include <utility>

namespace idres {
namespace {

constexpr std::array<std::pair<ChangeKind, std::string_view>, 5> kNames = {{
    {ChangeKind::kCreated, "created"},
    {ChangeKind::kUpdated, "updated"},
    {ChangeKind::kMerged, "merged"},
    {ChangeKind::kSplit, "split"},
    {ChangeKind::kErased, "erased"},
}};

}  // namespace

std::string_view ChangeKindName(ChangeKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<ChangeKind> ParseChangeKind(std::string_view name) {
  for (const auto& [k, n] : kNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

}  // namespace idres
