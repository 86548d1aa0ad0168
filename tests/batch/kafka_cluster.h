// What the Kafka tests share: a mock Kafka cluster in a process of its own
// (tests/batch/kafka_mock_cluster.cc, its path compiled in as
// IDRES_KAFKA_MOCK), and producing to and reading back from its topics.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "batch/stream_message.h"
#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"

namespace idres::testing {

class MockKafka {
 public:
  // Starts the cluster with `topics` ("name:partitions"); fails the test
  // when it does not come up.
  MockKafka(const TempDir& dir, const std::vector<std::string>& topics);
  const std::string& bootstrap() const { return bootstrap_; }

 private:
  std::unique_ptr<ChildProcess> process_;
  std::string bootstrap_;
};

// Produces `values` to `topic`'s `partition`, in order, and waits for the
// broker's acknowledgement of every one.
void ProduceTo(const std::string& bootstrap, const std::string& topic, std::int32_t partition,
               const std::vector<std::string>& values);

// Every message of `topic` (partitions 0..partitions-1) from the first to
// the end, each partition in offset order.
std::vector<batch::StreamMessage> ReadTopic(const std::string& bootstrap, const std::string& topic,
                                            std::int32_t partitions);

// How many messages `topic` holds in all (the partitions' end offsets).
std::int64_t TopicSize(const std::string& bootstrap, const std::string& topic,
                       std::int32_t partitions);

// The value of header `name` (the last one), "" when absent.
std::string Header(const batch::StreamMessage& m, const std::string& name);

}  // namespace idres::testing
