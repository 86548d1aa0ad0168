#include "api/connect/console_files.h"

#include <catch2/catch.hpp>
#include <string>

namespace idres::api {
namespace {

TEST_CASE("The console's files are embedded, each with the content type of its ending") {
  REQUIRE(ConsoleFiles().size() >= 4);
  for (const ConsoleFile& file : ConsoleFiles()) {
    INFO(file.name);
    CHECK(FindConsoleFile(file.name) == &file);
    CHECK_FALSE(file.bytes.empty());
  }
  const ConsoleFile* index = FindConsoleFile("index.html");
  REQUIRE(index != nullptr);
  CHECK(index->content_type == "text/html; charset=utf-8");
  CHECK(index->bytes.find("<script type=\"module\" src=\"console.js\">") != std::string::npos);
  REQUIRE(FindConsoleFile("console.js") != nullptr);
  CHECK(FindConsoleFile("console.js")->content_type == "text/javascript; charset=utf-8");
  REQUIRE(FindConsoleFile("console.css") != nullptr);
  CHECK(FindConsoleFile("console.css")->content_type == "text/css; charset=utf-8");
  REQUIRE(FindConsoleFile("favicon.svg") != nullptr);
  CHECK(FindConsoleFile("favicon.svg")->content_type == "image/svg+xml");
}

TEST_CASE("The console's root serves index.html, other names find nothing") {
  CHECK(FindConsoleFile("") == FindConsoleFile("index.html"));
  CHECK(FindConsoleFile("missing.js") == nullptr);
  CHECK(FindConsoleFile("/index.html") == nullptr);
  CHECK(FindConsoleFile("../index.html") == nullptr);
  CHECK(FindConsoleFile("x/index.html") == nullptr);
}

TEST_CASE("No console file fetches anything from another site") {
  for (const ConsoleFile& file : ConsoleFiles()) {
    INFO(file.name);
    // The SVG namespace is a name, not a fetch; nothing else may be a URL.
    const std::string kSvgNamespace = "http://www.w3.org/2000/svg";
    std::string rest(file.bytes);
    for (auto at = rest.find(kSvgNamespace); at != std::string::npos;
         at = rest.find(kSvgNamespace)) {
      rest.erase(at, kSvgNamespace.size());
    }
    CHECK(rest.find("http://") == std::string::npos);
    CHECK(rest.find("https://") == std::string::npos);
    CHECK(rest.find("//cdn") == std::string::npos);
  }
}

}  // namespace
}  // namespace idres::api
