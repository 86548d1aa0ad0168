// `idres consume` in a group: partitions handed over between consumers
// (a third joining mid-way) without a gap or a double; and messages that
// cannot be applied going to the dead-letter topic without stopping their
// partition.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/batch/consume_steps.h"
#include "tests/batch/kafka_cluster.h"
#include "tests/batch/store_snapshot.h"
#include "tests/batch/stream_workload.h"

namespace idres::testing {
namespace {

TEST_CASE(
    "consume: two consumers of a group and a third joining mid-way: each message once "
    "and the store is the import's",
    "[pg][kafka][consume]") {
  constexpr std::int64_t kRecords = 40000;
  TempDir dir;
  MockKafka kafka(dir, {"in:4"});
  const std::vector<std::string> records = StreamWorkload(kRecords, 10000);
  for (int p = 0; p < 4; ++p) ProduceTo(kafka.bootstrap(), "in", p, PartitionShare(records, p, 4));
  TestDatabase consumed, imported;
  // Small batches: more transactions, so the rebalance finds work in flight.
  const std::vector<std::string> small{"--batch", "50"};
  auto a = StartConsumer(dir, consumed, kafka.bootstrap(), "a", small);
  auto b = StartConsumer(dir, consumed, kafka.bootstrap(), "b", small);
  WaitFor("a quarter of the records", [&] { return RecordsStored(consumed) >= kRecords / 4; },
          {a.get(), b.get()});
  auto c = StartConsumer(dir, consumed, kafka.bootstrap(), "c", small);
  WaitFor("the third consumer to be given partitions",
          [&] { return c->Log().find("consume: assigned in/") != std::string::npos; },
          {a.get(), b.get(), c.get()});
  WaitFor("every position stored", [&] { return PositionsStored(consumed) == kRecords; },
          {a.get(), b.get(), c.get()});
  REQUIRE(RecordsPastPositions(consumed) == 0);
  REQUIRE(a->Stop() == 0);
  REQUIRE(b->Stop() == 0);
  REQUIRE(c->Stop() == 0);
  // The partitions moved: the first two gave some up when the third came.
  CHECK((a->Log().find("consume: revoked in/") != std::string::npos ||
         b->Log().find("consume: revoked in/") != std::string::npos));
  REQUIRE(RecordsStored(consumed) == kRecords);
  ImportRecords(dir, imported, records);
  REQUIRE(PersonsByIdentifiers(consumed, true) == PersonsByIdentifiers(imported, true));
}

// A record of one cookie id, as a message's value.
std::string Cookie(const std::string& id) {
  return R"({"identifiers":[{"type":"cookie","value":")" + id + R"("}]})";
}

TEST_CASE(
    "consume: a message that is no record and a record with only invalid identifiers "
    "go to the dead-letter topic with the reason and the partition goes on",
    "[pg][kafka][consume]") {
  TempDir dir;
  MockKafka kafka(dir, {"in:1", "dead:1"});
  ProduceTo(kafka.bootstrap(), "in", 0,
            {Cookie("ok-1"), "{not json", Cookie("ok-2"),
             R"({"identifiers":[{"type":"email","value":"no at sign"}]})", Cookie("ok-3"),
             R"({"identifiers":[{"type":"cookie","value":"x"}],"colour":"red"})"});
  TestDatabase db;
  auto consumer = StartConsumer(dir, db, kafka.bootstrap(), "d", {"--dead-letter-topic", "dead"});
  WaitFor("every position stored", [&] { return PositionsStored(db) == 6; }, {consumer.get()});
  REQUIRE(consumer->Stop() == 0);
  REQUIRE(RecordsStored(db) == 3);
  // Letters of one batch may come in any order; each names its offset.
  auto letters = ReadTopic(kafka.bootstrap(), "dead", 1);
  REQUIRE(letters.size() == 3);
  std::sort(letters.begin(), letters.end(), [](const auto& x, const auto& y) {
    return std::stoll(Header(x, "idres.offset")) < std::stoll(Header(y, "idres.offset"));
  });
  const std::vector<std::string> offsets{"1", "3", "5"};
  for (std::size_t i = 0; i < letters.size(); ++i) {
    INFO(Header(letters[i], "idres.reason"));
    CHECK(Header(letters[i], "idres.topic") == "in");
    CHECK(Header(letters[i], "idres.partition") == "0");
    CHECK(Header(letters[i], "idres.offset") == offsets[i]);
  }
  CHECK(letters[0].value == "{not json");
  CHECK(Header(letters[0], "idres.reason").starts_with("not a record: "));
  CHECK(Header(letters[1], "idres.reason").starts_with("refused: "));
  CHECK(Header(letters[1], "idres.reason").find("email") != std::string::npos);
  CHECK(Header(letters[2], "idres.reason").find("colour") != std::string::npos);
}

TEST_CASE(
    "consume: a dead letter the topic will never take stops the consumer before any position "
    "past it",
    "[pg][kafka][consume]") {
  TempDir dir;
  MockKafka kafka(dir, {"in:1", "dead:1"});
  // No record, and larger than the producer may send (message.max.bytes).
  ProduceTo(kafka.bootstrap(), "in", 0,
            {Cookie("ok-1"), "{" + std::string(3000, 'x'), Cookie("ok-2")});
  TestDatabase db;
  auto consumer = StartConsumer(dir, db, kafka.bootstrap(), "d",
                                {"--dead-letter-topic", "dead", "-X", "message.max.bytes=2000"});
  std::optional<int> status;
  for (int i = 0; i < 6000 && !status; ++i) {  // 10 minutes: a consumer that never stops
    status = consumer->Poll();
    if (!status) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  INFO(consumer->Log(4000));
  REQUIRE(status == 1);
  CHECK(consumer->Log(4000).find("dead letters cannot be delivered") != std::string::npos);
  // The first record may have been applied in a batch of its own.
  CHECK(PositionsStored(db) <= 1);
  CHECK(RecordsStored(db) == PositionsStored(db));
  CHECK(TopicSize(kafka.bootstrap(), "dead", 1) == 0);
}

TEST_CASE(
    "consume: without a dead-letter topic the dead letters go to the file as import "
    "writes them",
    "[pg][kafka][consume]") {
  TempDir dir;
  MockKafka kafka(dir, {"in:1"});
  ProduceTo(kafka.bootstrap(), "in", 0,
            {"[1,2]", R"({"identifiers":[{"type":"cookie","value":"fine"}]})"});
  TestDatabase db;
  auto consumer = StartConsumer(dir, db, kafka.bootstrap(), "f");
  WaitFor("every position stored", [&] { return PositionsStored(db) == 2; }, {consumer.get()});
  REQUIRE(consumer->Stop() == 0);
  REQUIRE(RecordsStored(db) == 1);
  const std::string letters = ReadFile(dir.File("f.dead"));
  INFO(letters);
  CHECK(letters.find(R"("file":"in/0")") != std::string::npos);
  CHECK(letters.find(R"("line":0)") != std::string::npos);
  CHECK(letters.find(R"("input":"[1,2]")") != std::string::npos);
  CHECK(std::count(letters.begin(), letters.end(), '\n') == 1);
}

}  // namespace
}  // namespace idres::testing
