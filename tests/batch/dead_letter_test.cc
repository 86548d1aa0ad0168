#include "batch/dead_letter.h"

#include <catch2/catch.hpp>

#include <optional>

#include "tests/support/temp_dir.h"

namespace idres::batch {
namespace {

TEST_CASE("a dead letter is one JSON line with the input and the reason", "[dead_letter]") {
  DeadLetter letter{"in.csv", 3, "1,\"x\"", "email: not an email", true};
  CHECK(DeadLetterLine(letter) ==
        R"({"file":"in.csv","input":"1,\"x\"","line":3,"reason":"email: not an email",)"
        R"("rejected":"record"})"
        "\n");
  letter.whole_record = false;
  letter.input = "\xff";
  CHECK(DeadLetterLine(letter).find("\"input\":\"\xEF\xBF\xBD\"") != std::string::npos);
  CHECK(DeadLetterLine(letter).find(R"("rejected":"identifiers")") != std::string::npos);
}

TEST_CASE("the file is cut back to the checkpoint's length before appending", "[dead_letter]") {
  testing::TempDir dir;
  std::string path = dir.File("dead.ndjson");
  std::uint64_t after_first = 0;
  {
    DeadLetterFile file(path, 0);
    file.Append({"f", 1, "a", "r1", true});
    after_first = file.Sync();
    file.Append({"f", 2, "b", "r2", true});
    file.Sync();
  }
  {
    DeadLetterFile file(path, after_first);
    file.Append({"f", 3, "c", "r3", true});
    file.Sync();
  }
  std::string content = testing::ReadFile(path);
  CHECK(content.find("r1") != std::string::npos);
  CHECK(content.find("r2") == std::string::npos);
  CHECK(content.find("r3") != std::string::npos);
}

TEST_CASE("a file shorter than the checkpoint's length is kept, not padded", "[dead_letter]") {
  testing::TempDir dir;
  const std::string path = dir.File("dead.ndjson");
  {
    DeadLetterFile file(path, 600000);  // deleted since its checkpoint was written
    file.Append({"f", 3, "c", "r3", true});
    file.Sync();
  }
  CHECK(testing::ReadFile(path) == DeadLetterLine({"f", 3, "c", "r3", true}));
}

TEST_CASE("a second writer of the same file is refused while the first lives", "[dead_letter]") {
  testing::TempDir dir;
  const std::string path = dir.File("dead.ndjson");
  std::optional<DeadLetterFile> first(std::in_place, path, 0);
  CHECK_THROWS_WITH(DeadLetterFile(path, 0),
                    Catch::Contains("another process is writing the dead-letter file"));
  first.reset();
  CHECK_NOTHROW(DeadLetterFile(path, 0));
  CHECK_NOTHROW(DeadLetterFile("/dev/null", 0));
}

}  // namespace
}  // namespace idres::batch
