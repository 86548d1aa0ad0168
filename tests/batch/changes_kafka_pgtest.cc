// `idres changes --follow --to-kafka`: the change feed published to a
// topic while writers change persons, the publisher killed (kill -9) and
// started again: the topic holds every change once, each person's changes
// in one partition in feed order, byte for byte as `idres changes` prints
// them (read back with kcat).
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/batch/consume_steps.h"
#include "tests/batch/kafka_cluster.h"
#include "tests/batch/stream_workload.h"

namespace idres::testing {
namespace {

std::unique_ptr<ChildProcess> StartPublisher(const TempDir& dir, const TestDatabase& db,
                                             const std::string& bootstrap,
                                             const std::string& name) {
  return std::make_unique<ChildProcess>(
      std::vector<std::string>{IdresBinary(), "changes", "--follow", "--to-kafka", "feed",
                               "--brokers", bootstrap, "--database-url", db.url(), "--poll-ms",
                               "50"},
      dir.File(name + ".log"));
}

// Every change as `idres changes` prints it, by position.
std::map<std::int64_t, std::string> FeedLines(const TempDir& dir, const TestDatabase& db) {
  REQUIRE(RunToEnd({IdresBinary(), "changes", "--database-url", db.url()}, dir.File("feed")) == 0);
  std::map<std::int64_t, std::string> lines;
  std::istringstream in(ReadFile(dir.File("feed")));
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("{\"position\":")) continue;  // a log line
    lines[std::stoll(line.substr(12))] = line;
  }
  return lines;
}

struct KcatLine {
  int partition = 0;
  std::int64_t offset = 0;
  std::string key;
  std::int64_t position = 0;  // header idres.position
  std::string value;
};

// The topic as Debian's kcat reads it, each partition in offset order.
std::vector<KcatLine> ReadWithKcat(const TempDir& dir, const std::string& bootstrap) {
  REQUIRE(RunToEnd({"kcat", "-C", "-b", bootstrap, "-t", "feed", "-e", "-q", "-f",
                    "%p\t%o\t%k\t%h\t%s\n"},
                   dir.File("kcat")) == 0);
  std::vector<KcatLine> lines;
  std::istringstream in(ReadFile(dir.File("kcat")));
  for (std::string line; std::getline(in, line);) {
    std::istringstream cells(line);
    KcatLine l;
    std::string headers;
    cells >> l.partition >> l.offset >> l.key >> headers;
    cells.get();  // the tab before the value
    std::getline(cells, l.value);
    INFO(line);
    REQUIRE(headers.starts_with("idres.position="));
    l.position = std::stoll(headers.substr(15));
    lines.push_back(l);
  }
  std::stable_sort(lines.begin(), lines.end(), [](const KcatLine& a, const KcatLine& b) {
    return std::pair(a.partition, a.offset) < std::pair(b.partition, b.offset);
  });
  return lines;
}

TEST_CASE(
    "changes --to-kafka: every change once and per person in order across a kill -9 of "
    "the publisher",
    "[pg][kafka][changes]") {
  TempDir dir;
  MockKafka kafka(dir, {"feed:4"});
  TestDatabase db;
  std::string text;
  for (const std::string& r : StreamWorkload(6000, 1500)) text += r + "\n";
  const std::string file = dir.Write("records.ndjson", text);
  auto first = StartPublisher(dir, db, kafka.bootstrap(), "p1");
  ChildProcess import(
      {IdresBinary(), "import", file, "--database-url", db.url(), "--workers", "2", "--batch", "20",
       "--no-checkpoint", "--dead-letter", dir.File("import.dead"), "--progress", "off"},
      dir.File("import.log"));
  WaitFor("the first changes on the topic",
          [&] { return TopicSize(kafka.bootstrap(), "feed", 4) > 0; }, {first.get()});
  first->Signal(SIGKILL);
  first->Wait();
  auto second = StartPublisher(dir, db, kafka.bootstrap(), "p2");
  // Running, its stop handler in place: a SIGTERM before would kill it
  // outright, however little was left to publish.
  WaitFor("the second publisher to start",
          [&] { return ReadFile(dir.File("p2.log")).find("publishing to") != std::string::npos; },
          {second.get()});
  REQUIRE(import.Wait() == 0);
  const std::int64_t changes = db.Count("SELECT count(*) FROM changes");
  WaitFor("every change on the topic",
          [&] { return TopicSize(kafka.bootstrap(), "feed", 4) >= changes; }, {second.get()});
  REQUIRE(second->Stop() == 0);
  const std::map<std::int64_t, std::string> feed = FeedLines(dir, db);
  REQUIRE(static_cast<std::int64_t>(feed.size()) == changes);
  std::map<std::int64_t, int> seen;
  std::map<std::string, std::int64_t> last_of_person;
  for (const KcatLine& m : ReadWithKcat(dir, kafka.bootstrap())) {
    ++seen[m.position];
    INFO("position " << m.position << " of person " << m.key);
    REQUIRE(m.value == feed.at(m.position));
    // Within the partition, a person's changes come in feed order.
    REQUIRE(last_of_person[m.key] < m.position);
    last_of_person[m.key] = m.position;
  }
  REQUIRE(static_cast<std::int64_t>(seen.size()) == changes);
  for (const auto& [position, times] : seen) {
    INFO("position " << position);
    REQUIRE(times == 1);
  }
}

}  // namespace
}  // namespace idres::testing
