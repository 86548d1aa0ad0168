#include "matcher/nicknames.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "matcher/detail/nicknames_csv.h"

namespace idres {
namespace {

using Names = std::vector<std::string>;

TEST_CASE("AreNicknames on well-known pairs", "[matcher][nicknames]") {
  CHECK(AreNicknames("bob", "robert"));
  CHECK(AreNicknames("robert", "bob"));
  CHECK(AreNicknames("bill", "william"));
  CHECK(AreNicknames("bob", "rob"));  // both robert's
  CHECK(AreNicknames("peggy", "margaret"));
  CHECK(AreNicknames("jim", "james"));
  CHECK(AreNicknames("dick", "richard"));
  CHECK(AreNicknames("jack", "john"));
  CHECK(AreNicknames("liz", "beth"));  // both elizabeth's
  CHECK_FALSE(AreNicknames("robert", "roberta"));
  CHECK_FALSE(AreNicknames("anthony", "antonia"));
  CHECK_FALSE(AreNicknames("jack", "jacob"));
  CHECK_FALSE(AreNicknames("bob", "dick"));
}

TEST_CASE("AreNicknames is not transitive", "[matcher][nicknames]") {
  CHECK(AreNicknames("bob", "robert"));
  CHECK(AreNicknames("robert", "william"));  // bill's row lists both
  CHECK_FALSE(AreNicknames("bob", "william"));
}

TEST_CASE("AreNicknames at the edges", "[matcher][nicknames]") {
  CHECK(AreNicknames("robert", "robert"));
  CHECK(AreNicknames("zebulonx", "zebulonx"));  // not in the table: its own group
  CHECK_FALSE(AreNicknames("zebulonx", "zebulony"));
  CHECK_FALSE(AreNicknames("", ""));
  CHECK_FALSE(AreNicknames("", "bob"));
  CHECK_FALSE(AreNicknames("b", "bob"));
  CHECK(AreNicknames("b", "b"));
  CHECK(AreNicknames("jos\xc3\xa9", "jos\xc3\xa9"));
  CHECK_FALSE(AreNicknames("jos\xc3\xa9", "joseph"));
  CHECK_FALSE(AreNicknames("Bob", "robert"));  // normalized (lowercase) names only
}

TEST_CASE("NameClasses lists every group of a name", "[matcher][nicknames]") {
  CHECK(NameClasses("bob") == Names{"bert", "bob", "bobby", "robert"});
  CHECK(NameClasses("roberta") == Names{"roberta"});
  CHECK(NameClasses("zebulonx") == Names{"zebulonx"});
  CHECK(NameClasses("jos\xc3\xa9") == Names{"jos\xc3\xa9"});
  CHECK(NameClasses("").empty());
  CHECK(NameClasses("chris").size() == 19);
}

TEST_CASE("NameClass is the smallest canonical name", "[matcher][nicknames]") {
  CHECK(NameClass("bob") == "bert");
  CHECK(NameClass("robert") == "bill");
  CHECK(NameClass("bill") == "bill");
  CHECK(NameClass("zebulonx") == "zebulonx");
  CHECK(NameClass("") == "");
  CHECK(NameClass("jim") == NameClass("james"));
}

TEST_CASE("every row of the shipped table is loaded", "[matcher][nicknames]") {
  std::string_view csv = kNicknamesCsv;
  int rows = 0;
  while (!csv.empty()) {
    const std::size_t end = std::min(csv.find('\n'), csv.size());
    std::string line(csv.substr(0, end));
    csv.remove_prefix(std::min(end + 1, csv.size()));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t first = line.find(','), second = line.rfind(',');
    const std::string name1 = line.substr(0, first), name2 = line.substr(second + 1);
    if (name1 == "name1") continue;
    ++rows;
    INFO(line);
    CHECK(AreNicknames(name1, name2));
    const Names classes = NameClasses(name2);
    CHECK(std::binary_search(classes.begin(), classes.end(), name1));
  }
  CHECK(rows == 2691);
}

TEST_CASE("the table is built once for concurrent callers", "[matcher][nicknames]") {
  std::vector<std::thread> threads;
  std::vector<int> found(8);
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&found, i] { found[i] = AreNicknames("bill", "william") ? 1 : 0; });
  }
  for (auto& t : threads) t.join();
  CHECK(found == std::vector<int>(8, 1));
}

}  // namespace
}  // namespace idres
