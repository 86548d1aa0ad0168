// `idres consume` killed at any moment applies every message once: the
// positions in the store, written in the records' transaction, prove it
// (docs/batch.md, "Streams: idres consume and the change feed to Kafka"). And
// the same run with the positions stored outside that transaction applies
// records twice.
#include <catch2/catch.hpp>

#include <csignal>
#include <random>
#include <string>
#include <vector>

#include "tests/batch/consume_steps.h"
#include "tests/batch/kafka_cluster.h"
#include "tests/batch/store_snapshot.h"
#include "tests/batch/stream_workload.h"

namespace idres::testing {
namespace {

constexpr int kPartitions = 4;

void ProduceWorkload(const MockKafka& kafka, const std::vector<std::string>& records) {
  for (int p = 0; p < kPartitions; ++p) {
    ProduceTo(kafka.bootstrap(), "in", p, PartitionShare(records, p, kPartitions));
  }
}

TEST_CASE(
    "consume: 100000 records in 4 partitions and the consumer killed three times: "
    "each applied once and the store is the import's",
    "[pg][kafka][consume]") {
  constexpr std::int64_t kRecords = 100000;
  TempDir dir;
  MockKafka kafka(dir, {"in:4"});
  const std::vector<std::string> records = StreamWorkload(kRecords, 25000);
  ProduceWorkload(kafka, records);
  TestDatabase consumed, imported;
  // Three points at random in the run, in order.
  std::mt19937 rng(std::random_device{}());
  std::vector<std::int64_t> kills;
  for (int i = 0; i < 3; ++i) kills.push_back(kRecords / 20 + rng() % (kRecords * 17 / 20));
  std::sort(kills.begin(), kills.end());
  for (std::size_t run = 0; run <= kills.size(); ++run) {
    auto consumer = StartConsumer(dir, consumed, kafka.bootstrap(), "c" + std::to_string(run));
    if (run == kills.size()) {
      WaitFor("every position stored", [&] { return PositionsStored(consumed) == kRecords; },
              {consumer.get()});
      REQUIRE(consumer->Stop() == 0);
      break;
    }
    WaitFor("the store to reach the kill point",
            [&] { return RecordsStored(consumed) >= kills[run]; }, {consumer.get()});
    consumer->Signal(SIGKILL);
    consumer->Wait();
    // The records and the positions committed together: as many records
    // as messages the positions cover, whenever it died.
    INFO("killed at " << RecordsStored(consumed) << " records");
    REQUIRE(RecordsPastPositions(consumed) == 0);
  }
  REQUIRE(RecordsStored(consumed) == kRecords);
  REQUIRE(RecordsPastPositions(consumed) == 0);
  for (const auto& row : consumed.Rows("SELECT partition, next_offset FROM stream_positions")) {
    CHECK(row.at(1) == std::to_string(kRecords / kPartitions));
  }
  ImportRecords(dir, imported, records);
  REQUIRE(PersonsByIdentifiers(consumed, true) == PersonsByIdentifiers(imported, true));
}

// The protection switched off: records applied without a position, the
// positions stored by transactions of their own once a second, as a
// consumer that commits its offsets after loading does. A kill between the
// two must apply records twice; the test requires that failure.
TEST_CASE(
    "consume: with the positions stored outside the records' transaction a killed "
    "consumer applies records twice",
    "[pg][kafka][consume]") {
  constexpr std::int64_t kRecords = 20000;
  TempDir dir;
  MockKafka kafka(dir, {"in:4"});
  ProduceWorkload(kafka, StreamWorkload(kRecords, 5000));
  TestDatabase consumed;
  const std::vector<std::string> unsafe{"--unsafe-positions-outside-tx"};
  bool killed_past_positions = false;
  for (int attempt = 0; attempt < 20 && !killed_past_positions; ++attempt) {
    auto consumer =
        StartConsumer(dir, consumed, kafka.bootstrap(), "u" + std::to_string(attempt), unsafe);
    WaitFor("records past the stored positions", [&] { return RecordsPastPositions(consumed) > 0; },
            {consumer.get()});
    consumer->Signal(SIGKILL);
    consumer->Wait();
    killed_past_positions = RecordsPastPositions(consumed) > 0;
  }
  REQUIRE(killed_past_positions);
  auto consumer = StartConsumer(dir, consumed, kafka.bootstrap(), "u-last", unsafe);
  WaitFor("every position stored", [&] { return PositionsStored(consumed) == kRecords; },
          {consumer.get()});
  REQUIRE(consumer->Stop() == 0);
  // Every message once would be kRecords records.
  REQUIRE(RecordsStored(consumed) > kRecords);
}

}  // namespace
}  // namespace idres::testing
