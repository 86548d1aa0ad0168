#include "batch/checkpoint.h"

#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/support/temp_dir.h"

namespace idres::batch {
namespace {

TEST_CASE("a checkpoint is written atomically and read back", "[checkpoint]") {
  testing::TempDir dir;
  std::string path = dir.File("cp.json");
  Checkpoint c;
  c.fingerprint = "fp";
  c.file_index = 1;
  c.offset = 1234;
  c.dead_letter_bytes = 99;
  c.summary.created = 5;
  REQUIRE_FALSE(WriteCheckpoint(path, c));
  c.offset = 2000;
  REQUIRE_FALSE(WriteCheckpoint(path, c));
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));

  auto back = ReadCheckpoint(path);
  REQUIRE(std::holds_alternative<Checkpoint>(back));
  const Checkpoint& b = std::get<Checkpoint>(back);
  CHECK(b.fingerprint == "fp");
  CHECK(b.file_index == 1);
  CHECK(b.offset == 2000);
  CHECK(b.dead_letter_bytes == 99);
  CHECK(b.summary.created == 5);
  CHECK_FALSE(b.complete);
}

TEST_CASE("a missing or garbled checkpoint is a reason, not a crash", "[checkpoint]") {
  testing::TempDir dir;
  CHECK(std::get<std::string>(ReadCheckpoint(dir.File("none"))) ==
        "no checkpoint file " + dir.File("none"));
  std::string garbled = dir.Write("g", "{\"offset\":");
  CHECK(std::get<std::string>(ReadCheckpoint(garbled)) == garbled + " is not a checkpoint");
}

}  // namespace
}  // namespace idres::batch
