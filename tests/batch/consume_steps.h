// What the `idres consume` tests do with the real binary: start a consumer
// on a mock Kafka cluster (tests/batch/kafka_cluster.h), wait for the store
// to reach a state, import the same records for comparison.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_db.h"

namespace idres::testing {

// A consumer of `topic` in group `group`, logging to `name`.log. A short
// session and heartbeat, so that the group notices a killed consumer soon.
inline std::unique_ptr<ChildProcess> StartConsumer(const TempDir& dir, const TestDatabase& db,
                                                   const std::string& bootstrap,
                                                   const std::string& name,
                                                   std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{IdresBinary(),
                                "consume",
                                "--brokers",
                                bootstrap,
                                "--topic",
                                "in",
                                "--group",
                                "g",
                                "--database-url",
                                db.url(),
                                "--dead-letter",
                                dir.File(name + ".dead"),
                                "-X",
                                "session.timeout.ms=6000",
                                "-X",
                                "heartbeat.interval.ms=500"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return std::make_unique<ChildProcess>(argv, dir.File(name + ".log"));
}

// Waits until `done` holds, polling; fails the test (with `what` and the
// consumers' logs) when it does not within a bound far beyond any run, or
// when a consumer ended.
inline void WaitFor(const std::string& what, const std::function<bool()>& done,
                    const std::vector<ChildProcess*>& consumers = {}) {
  for (int i = 0; i < 6000; ++i) {  // 10 minutes: a hang, not a slow run
    if (done()) return;
    for (ChildProcess* c : consumers) {
      INFO(c->Log(4000));
      REQUIRE_FALSE(c->Poll().has_value());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::string logs;
  for (ChildProcess* c : consumers) logs += c->Log(4000);
  INFO(logs);
  FAIL("waited in vain for " + what);
}

// Records stored, and positions stored by group g: equal whenever every
// message was applied once (one record per message, generated ids).
inline std::int64_t RecordsStored(const TestDatabase& db) {
  return db.Count("SELECT count(*) FROM records");
}
inline std::int64_t PositionsStored(const TestDatabase& db) {
  return db.Count(
      "SELECT COALESCE(sum(next_offset), 0) FROM stream_positions WHERE consumer_group = 'g'");
}
// Both in one statement, hence one snapshot: records minus positions.
inline std::int64_t RecordsPastPositions(const TestDatabase& db) {
  return db.Count(
      "SELECT (SELECT count(*) FROM records) - (SELECT COALESCE(sum(next_offset), 0)"
      " FROM stream_positions WHERE consumer_group = 'g')");
}

// `idres import` of `records` (in that order) into `db`, four workers.
inline void ImportRecords(const TempDir& dir, const TestDatabase& db,
                          const std::vector<std::string>& records) {
  std::string text;
  for (const std::string& r : records) text += r + "\n";
  const std::string file = dir.Write("records.ndjson", text);
  const int status =
      RunToEnd({IdresBinary(), "import", file, "--database-url", db.url(), "--workers", "4",
                "--no-checkpoint", "--dead-letter", dir.File("import.dead"), "--progress", "off"},
               dir.File("import.log"));
  INFO(ReadFile(dir.File("import.log")));
  REQUIRE(status == 0);
}

}  // namespace idres::testing
