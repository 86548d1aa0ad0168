#include "batch/committer.h"

#include <catch2/catch.hpp>

#include "tests/support/temp_dir.h"

namespace idres::batch {
namespace {

// A batch of `n` records of file 0 ending at `end_offset`; record i of it is
// created, except `rejected_at` which is rejected whole.
ImportBatch MakeBatch(std::uint64_t seq, std::size_t n, std::uint64_t end_offset,
                      std::size_t rejected_at = static_cast<std::size_t>(-1)) {
  ImportBatch b;
  b.seq = seq;
  b.file = "in.ndjson";
  b.end_offset = end_offset;
  for (std::size_t i = 0; i < n; ++i) {
    InputRecord input;
    input.line = seq * n + i + 1;
    input.raw = "line " + std::to_string(input.line);
    input.parsed = Record{};
    b.inputs.push_back(input);
    b.record_of.push_back(i);
    b.records.push_back(Record{});
    UpsertResult result;
    result.outcome = Outcome::kCreated;
    if (i == rejected_at) result.error = "no valid identifier";
    b.results.push_back(result);
  }
  return b;
}

Checkpoint Read(const std::string& path) {
  auto c = ReadCheckpoint(path);
  if (auto* error = std::get_if<std::string>(&c)) FAIL(*error);
  return std::get<Checkpoint>(c);
}

TEST_CASE("the checkpoint only advances over the gap-free prefix of finished batches",
          "[committer]") {
  testing::TempDir dir;
  std::string cp = dir.File("cp");
  DeadLetterFile dead(dir.File("dead"), 0);
  Committer committer(Checkpoint{}, cp, &dead, nullptr, 9, std::chrono::milliseconds(0));

  committer.Complete(MakeBatch(2, 3, 300, 0));  // finished first, but third in input order
  committer.Complete(MakeBatch(1, 3, 200));
  CHECK_FALSE(std::filesystem::exists(cp));  // nothing committed in order yet
  committer.Complete(MakeBatch(0, 3, 100, 1));
  Checkpoint c = Read(cp);
  CHECK(c.offset == 300);
  CHECK(c.summary.created == 7);
  CHECK(c.summary.rejected == 2);
  // Dead letters are in input order: line 2 (batch 0) before line 7 (batch 2).
  std::string letters = testing::ReadFile(dir.File("dead"));
  CHECK(letters.find("\"line\":2") < letters.find("\"line\":7"));
  CHECK(c.dead_letter_bytes == letters.size());
}

TEST_CASE("a gap left by a failed batch holds the checkpoint back", "[committer]") {
  testing::TempDir dir;
  std::string cp = dir.File("cp");
  Committer committer(Checkpoint{}, cp, nullptr, nullptr, 9, std::chrono::milliseconds(0));
  committer.Complete(MakeBatch(0, 3, 100));
  committer.Complete(MakeBatch(2, 3, 300));  // batch 1 never finishes
  ImportSummary summary = committer.Finish(false, 1.0);
  Checkpoint c = Read(cp);
  CHECK(c.offset == 100);
  CHECK_FALSE(c.complete);
  CHECK(summary.total() == 3);
  CHECK(committer.Position() == "after in.ndjson:3");
}

TEST_CASE("a resumed committer counts on from the checkpoint", "[committer]") {
  testing::TempDir dir;
  Checkpoint start;
  start.offset = 100;
  start.summary.created = 3;
  Committer committer(start, dir.File("cp"), nullptr, nullptr, 6, std::chrono::milliseconds(0));
  committer.Complete(MakeBatch(0, 3, 200));
  ImportSummary summary = committer.Finish(true, 1.0);
  CHECK(summary.created == 6);
  CHECK(summary.resumed_records == 3);
  CHECK(summary.run_records == 3);
  CHECK(Read(dir.File("cp")).complete);
}

}  // namespace
}  // namespace idres::batch
