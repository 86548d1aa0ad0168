#include "batch/kafka_producer.h"

#include <catch2/catch.hpp>

#include "tests/batch/kafka_cluster.h"
#include "tests/support/temp_dir.h"

namespace idres::batch {
namespace {

TEST_CASE("a failed delivery fails every later Flush, whichever thread saw it first", "[kafka]") {
  testing::TempDir dir;
  testing::MockKafka kafka(dir, {"letters:1"});
  KafkaSettings settings;
  settings.brokers = kafka.bootstrap();
  KafkaProducer producer(settings);
  // A partition the topic does not have, asked of a producer that has not
  // read the topic's metadata yet: queued, then failed by a delivery report
  // that goes to whichever thread polls.
  REQUIRE_NOTHROW(producer.Produce("letters", 7, "k", "a worker's letter", {}));
  // Another worker's flush sees the failure first; the worker whose letter
  // failed must see it too, or it would store a position past it.
  CHECK_THROWS_AS(producer.Flush(), KafkaDeliveryError);
  CHECK_THROWS_AS(producer.Flush(), KafkaDeliveryError);
  CHECK_THROWS_AS(producer.Produce("letters", 0, "k", "the next letter", {}), KafkaDeliveryError);
}

}  // namespace
}  // namespace idres::batch
