#include "batch/partition_queues.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

namespace idres::batch {
namespace {

const TopicPartition kA{"in", 0};
const TopicPartition kB{"in", 1};

StreamMessage At(const TopicPartition& tp, std::int64_t offset) {
  StreamMessage m;
  m.from = tp;
  m.offset = offset;
  m.value = "m" + std::to_string(offset);
  return m;
}

TEST_CASE("partition queues: a partition's messages in offset order, one batch in flight",
          "[consume]") {
  PartitionQueues q(2);
  q.Assign(kA, std::nullopt);
  for (int i = 0; i < 5; ++i) REQUIRE(q.Push(At(kA, i)));
  REQUIRE(q.Buffered() == 5);
  auto first = q.Take();
  REQUIRE(first);
  CHECK(first->messages.size() == 2);
  CHECK(first->messages.front().offset == 0);
  CHECK_FALSE(first->stored);
  q.Stop();  // nothing else is ready while the batch is in flight
  CHECK_FALSE(q.Take());
}

TEST_CASE("partition queues: applied moves the stored position and put back comes again first",
          "[consume]") {
  PartitionQueues q(3);
  q.Assign(kA, 10);
  CHECK_FALSE(q.Push(At(kA, 9)));  // before the stored position: covered already
  for (int i = 10; i < 16; ++i) REQUIRE(q.Push(At(kA, i)));
  auto batch = q.Take();
  REQUIRE(batch);
  CHECK(*batch->stored == 10);
  CHECK(batch->End() == 13);
  q.PutBack(std::move(*batch));
  auto again = q.Take();
  REQUIRE(again->messages.front().offset == 10);
  q.Applied(*again);
  auto next = q.Take();
  CHECK(*next->stored == 13);
  CHECK(next->messages.front().offset == 13);
  q.Applied(*next);
  CHECK(q.StoredPositions().at(kA) == 16);
}

TEST_CASE("partition queues: partitions are taken in parallel", "[consume]") {
  PartitionQueues q(10);
  q.Assign(kA, std::nullopt);
  q.Assign(kB, std::nullopt);
  REQUIRE(q.Push(At(kA, 0)));
  REQUIRE(q.Push(At(kB, 0)));
  auto a = q.Take();
  auto b = q.Take();
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->from != b->from);
  CHECK_FALSE(q.Push(At({"other", 0}, 0)));  // not assigned
}

TEST_CASE("partition queues: a revocation waits for the batch in flight, then drops the rest",
          "[consume]") {
  PartitionQueues q(1);
  q.Assign(kA, std::nullopt);
  REQUIRE(q.Push(At(kA, 0)));
  REQUIRE(q.Push(At(kA, 1)));
  auto batch = q.Take();
  // Whichever thread gets there first, the revocation ends after the batch
  // settles: it waits for it.
  std::atomic<int> events{0};
  int revoked_at = -1;
  std::optional<std::int64_t> handed_on;
  std::thread revoker([&] {
    handed_on = q.Revoke(kA);
    revoked_at = events++;
  });
  const int applied_at = events++;
  q.Applied(*batch);
  revoker.join();
  CHECK(applied_at < revoked_at);
  CHECK(handed_on == 1);
  CHECK(q.Buffered() == 0);
  CHECK_FALSE(q.Push(At(kA, 2)));  // no longer assigned
  CHECK(q.StoredPositions().empty());
}

TEST_CASE("partition queues: a batch applied elsewhere drops what waits until read again",
          "[consume]") {
  PartitionQueues q(1);
  q.Assign(kA, 0);
  REQUIRE(q.Push(At(kA, 0)));
  REQUIRE(q.Push(At(kA, 1)));
  auto batch = q.Take();
  q.Moved(*batch);
  CHECK(q.Buffered() == 0);
  CHECK_FALSE(q.Push(At(kA, 2)));
  REQUIRE(q.TakeMoved() == std::vector<TopicPartition>{kA});
  q.Reread(kA, 5);
  CHECK_FALSE(q.Push(At(kA, 4)));
  REQUIRE(q.Push(At(kA, 5)));
  auto next = q.Take();
  CHECK(*next->stored == 5);
}

}  // namespace
}  // namespace idres::batch
