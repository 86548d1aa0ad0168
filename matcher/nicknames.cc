#include "matcher/nicknames.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

#include "matcher/detail/nicknames_csv.h"

namespace idres {
namespace {

// Name -> sorted canonical names of the groups that hold it.
using Groups = std::map<std::string, std::vector<std::string>, std::less<>>;

// The next line of `text` from `pos`, without its line ending.
std::string_view NextLine(std::string_view text, std::size_t& pos) {
  const std::size_t end = std::min(text.find('\n', pos), text.size());
  std::string_view line = text.substr(pos, end - pos);
  pos = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// Adds the row `name1,has_nickname,name2`; other rows (the header) add nothing.
void AddRow(std::string_view line, Groups& groups) {
  const std::size_t first = line.find(',');
  if (first == 0 || first == std::string_view::npos) return;
  const std::size_t second = line.find(',', first + 1);
  if (second == std::string_view::npos) return;
  if (line.substr(first + 1, second - first - 1) != "has_nickname") return;
  const std::string canonical(line.substr(0, first));
  const std::string_view nickname = line.substr(second + 1);
  if (nickname.empty()) return;
  groups[canonical].push_back(canonical);
  groups[std::string(nickname)].push_back(canonical);
}

Groups Parse(std::string_view csv) {
  Groups groups;
  for (std::size_t pos = 0; pos < csv.size();) AddRow(NextLine(csv, pos), groups);
  for (auto& [name, canonicals] : groups) {
    std::sort(canonicals.begin(), canonicals.end());
    canonicals.erase(std::unique(canonicals.begin(), canonicals.end()), canonicals.end());
  }
  return groups;
}

const Groups& Table() {
  static const Groups groups = Parse(kNicknamesCsv);  // initialized once, thread-safe
  return groups;
}

}  // namespace

std::vector<std::string> NameClasses(std::string_view given) {
  if (given.empty()) return {};
  const auto it = Table().find(given);
  if (it == Table().end()) return {std::string(given)};
  return it->second;
}

std::string NameClass(std::string_view given) {
  std::vector<std::string> classes = NameClasses(given);
  return classes.empty() ? std::string() : std::move(classes.front());
}

bool AreNicknames(std::string_view a, std::string_view b) {
  const std::vector<std::string> left = NameClasses(a), right = NameClasses(b);
  std::vector<std::string> both;
  std::set_intersection(left.begin(), left.end(), right.begin(), right.end(),
                        std::back_inserter(both));
  return !both.empty();
}

}  // namespace idres
