#include "batch/importer.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <functional>
#include <set>
#include <vector>

#include "base/mutex.h"
#include "batch/checkpoint.h"
#include "tests/support/temp_dir.h"

namespace idres::batch {
namespace {

// Stands in for the store: remembers which emails it was sent, rejects
// records with no identifier, fails its first `busy_failures` calls as busy,
// and breaks on the email `fail_on`.
class FakeSink : public UpsertSink {
 public:
  explicit FakeSink(std::string fail_on = "", int busy_failures = 0)
      : fail_on_(std::move(fail_on)), busy_failures_(busy_failures) {}

  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records) override EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    ++calls_;
    if (busy_failures_ > 0) {
      --busy_failures_;
      throw BusyError("lock timeout");
    }
    std::vector<UpsertResult> results;
    for (const Record& r : records) {
      UpsertResult result;
      if (r.identifiers.empty()) {
        result.error = "no valid identifier";
      } else if (r.identifiers[0].value == fail_on_) {
        throw InternalError("the store broke");
      } else {
        sent_.insert(r.identifiers[0].value);
        regions_.insert(r.default_region);
        result.outcome = Outcome::kCreated;
      }
      results.push_back(result);
    }
    return results;
  }

  void ForgetReceipts(std::int64_t /*job*/) override {
    if (on_forget) on_forget();
  }
  std::function<void()> on_forget;  // set before the run

  std::set<std::string> sent() const EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    return sent_;
  }
  std::set<std::string> regions() const EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    return regions_;
  }
  int calls() const EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    return calls_;
  }

 private:
  const std::string fail_on_;
  mutable Mutex mutex_;
  std::set<std::string> sent_ GUARDED_BY(mutex_);
  std::set<std::string> regions_ GUARDED_BY(mutex_);
  int busy_failures_ GUARDED_BY(mutex_);
  int calls_ GUARDED_BY(mutex_) = 0;
};

std::string Email(int i) { return "p" + std::to_string(i) + "@x.org"; }

std::string Ndjson(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text += R"({"identifiers":[{"type":"email","value":")" + Email(i) + "\"}]}\n";
  }
  return text;
}

ImportOptions Options(const testing::TempDir& dir, const std::string& input) {
  ImportOptions o;
  o.inputs = {input};
  o.workers = 3;
  o.batch_size = 4;
  o.checkpoint_path = dir.File("cp");
  o.dead_letter_path = dir.File("dead");
  o.progress = ProgressMode::kOff;
  return o;
}

// Runs the import `o` told to stop before it starts: the run writes its
// starting checkpoint and sends nothing, leaving something to --resume.
void StopAtOnce(const ImportOptions& o, FakeSink& sink) {
  std::atomic<bool> stop{true};
  ImportOptions stopped = o;
  stopped.stop = &stop;
  REQUIRE_FALSE(RunImport(stopped, sink).complete);
  REQUIRE(sink.calls() == 0);
}

TEST_CASE("every record reaches the sink once and the checkpoint ends complete", "[importer]") {
  testing::TempDir dir;
  FakeSink sink;
  ImportOptions o = Options(dir, dir.Write("in.ndjson", Ndjson(50)));
  o.default_region = "DE";
  ImportRun run = RunImport(o, sink);
  REQUIRE_FALSE(run.error);
  CHECK(run.complete);
  CHECK(sink.sent().size() == 50);
  CHECK(sink.regions() == std::set<std::string>{"DE"});
  CHECK(run.summary.created == 50);
  CHECK(std::get<Checkpoint>(ReadCheckpoint(o.checkpoint_path)).complete);
}

TEST_CASE("a complete run forgets its receipts only once its checkpoint says complete",
          "[importer]") {
  // Forgotten before, a kill in between would leave a checkpoint behind the
  // last records, and --resume would send them again without receipts.
  testing::TempDir dir;
  FakeSink sink;
  const ImportOptions o = Options(dir, dir.Write("in.ndjson", Ndjson(50)));
  std::vector<bool> complete_when_forgotten;
  sink.on_forget = [&] {
    const auto read = ReadCheckpoint(o.checkpoint_path);
    const auto* checkpoint = std::get_if<Checkpoint>(&read);
    complete_when_forgotten.push_back(checkpoint != nullptr && checkpoint->complete);
  };
  REQUIRE(RunImport(o, sink).complete);
  // Once before the run (a fresh run starts without receipts), once after.
  CHECK(complete_when_forgotten == std::vector<bool>{false, true});
}

TEST_CASE("unreadable lines and rejected records go to the dead-letter file", "[importer]") {
  testing::TempDir dir;
  FakeSink sink;
  std::string input = dir.Write("in.ndjson", Ndjson(3) + "garbage\n" + "{\"identifiers\":[]}\n");
  ImportRun run = RunImport(Options(dir, input), sink);
  REQUIRE(run.complete);
  CHECK(run.summary.rejected == 2);
  CHECK(run.summary.rejections.at("not valid JSON") == 1);
  CHECK(run.summary.rejections.at("no valid identifier") == 1);
  std::string dead = testing::ReadFile(dir.File("dead"));
  CHECK(dead.find(R"("input":"garbage","line":4,"reason":"not valid JSON")") != std::string::npos);
  CHECK(dead.find(R"("line":5,"reason":"no valid identifier")") != std::string::npos);
}

TEST_CASE("retryable failures are retried, the run still completes", "[importer]") {
  testing::TempDir dir;
  FakeSink sink(/*fail_on=*/"", /*busy_failures=*/2);
  ImportRun run = RunImport(Options(dir, dir.Write("in.ndjson", Ndjson(10))), sink);
  REQUIRE_FALSE(run.error);
  CHECK(sink.sent().size() == 10);
}

TEST_CASE("after a failure, --resume sends only what is not behind the checkpoint", "[importer]") {
  testing::TempDir dir;
  ImportOptions o = Options(dir, dir.Write("in.ndjson", Ndjson(40)));
  o.workers = 1;  // a deterministic failure point
  FakeSink failing(/*fail_on=*/Email(21));
  ImportRun first = RunImport(o, failing);
  REQUIRE(first.error);
  CHECK_FALSE(first.complete);
  CHECK(first.error->find("the store broke") != std::string::npos);
  CHECK(first.error->find("--resume") != std::string::npos);
  Checkpoint cp = std::get<Checkpoint>(ReadCheckpoint(o.checkpoint_path));
  CHECK(cp.summary.created == 20);  // batches of 4: records 0..19 committed

  FakeSink healthy;
  o.resume = true;
  ImportRun second = RunImport(o, healthy);
  REQUIRE_FALSE(second.error);
  CHECK(second.complete);
  CHECK(healthy.sent().size() == 20);
  CHECK(healthy.sent().count(Email(19)) == 0);
  CHECK(healthy.sent().count(Email(20)) == 1);
  CHECK(second.summary.created == 40);
  CHECK(second.summary.resumed_records == 20);

  // A third --resume finds the checkpoint complete and sends nothing.
  FakeSink idle;
  ImportRun third = RunImport(o, idle);
  CHECK(third.complete);
  CHECK(idle.calls() == 0);
}

TEST_CASE("resuming refuses a checkpoint written for other inputs", "[importer]") {
  testing::TempDir dir;
  FakeSink sink;
  ImportOptions o = Options(dir, dir.Write("in.ndjson", Ndjson(5)));
  REQUIRE(RunImport(o, sink).complete);
  dir.Write("in.ndjson", Ndjson(6));
  o.resume = true;
  ImportRun run = RunImport(o, sink);
  REQUIRE(run.error);
  CHECK(run.error->find("was written for other inputs") != std::string::npos);
}

TEST_CASE("a stop request ends the run early with a resumable checkpoint", "[importer]") {
  testing::TempDir dir;
  FakeSink sink;
  std::atomic<bool> stop{true};
  ImportOptions o = Options(dir, dir.Write("in.ndjson", Ndjson(10)));
  o.stop = &stop;
  ImportRun run = RunImport(o, sink);
  CHECK_FALSE(run.complete);
  CHECK(run.error->find("interrupted") == 0);
  CHECK(sink.sent().empty());
}

TEST_CASE("bad options are reported before anything runs", "[importer]") {
  testing::TempDir dir;
  FakeSink sink;
  ImportOptions o = Options(dir, dir.File("absent.ndjson"));
  CHECK(RunImport(o, sink).error.value() == "cannot open " + dir.File("absent.ndjson"));
  o.workers = 0;
  CHECK(RunImport(o, sink).error.value() == "--workers must be at least 1");
}

TEST_CASE("inputs that cannot be imported whole stop the run before anything is sent",
          "[importer]") {
  testing::TempDir dir;
  FakeSink sink;
  // A pipe: read once to count, it would be empty for the import.
  REQUIRE(::mkfifo(dir.File("pipe").c_str(), 0600) == 0);
  ImportRun pipe = RunImport(Options(dir, dir.File("pipe")), sink);
  CHECK(pipe.error.value().find("is not a regular file") != std::string::npos);
  CHECK(pipe.before_any_write);

  // A second input whose header lacks a mapped column: not even the first
  // file's records go out.
  ImportOptions o = Options(dir, dir.Write("a.csv", "email\np1@x.org\n"));
  o.inputs.push_back(dir.Write("b.csv", "mail\np2@x.org\n"));
  REQUIRE_FALSE(o.mapping.AddIdentifier("email=email"));
  ImportRun header = RunImport(o, sink);
  CHECK(header.error.value() == dir.File("b.csv") + ": no column \"email\" in the header");
  CHECK(header.before_any_write);

  // A checkpoint that cannot be written would leave nothing to resume from.
  ImportOptions unwritable = Options(dir, dir.Write("in.ndjson", Ndjson(5)));
  unwritable.checkpoint_path = dir.File("absent/cp");
  ImportRun checkpoint = RunImport(unwritable, sink);
  CHECK(checkpoint.error.has_value());
  CHECK(checkpoint.before_any_write);

  CHECK(sink.calls() == 0);
}

TEST_CASE("an input whose name is not UTF-8 resumes", "[importer]") {
  testing::TempDir dir;
  FakeSink sink;
  ImportOptions o = Options(dir, dir.Write("caf\xe9.ndjson", Ndjson(5)));
  StopAtOnce(o, sink);
  o.resume = true;
  ImportRun run = RunImport(o, sink);
  CHECK_FALSE(run.error);
  CHECK(run.complete);
}

TEST_CASE("resuming refuses a file edited in place to the same size", "[importer]") {
  testing::TempDir dir;
  FakeSink sink;
  const std::string input = dir.Write("in.ndjson", Ndjson(5));
  ImportOptions o = Options(dir, input);
  StopAtOnce(o, sink);
  const auto written = std::filesystem::last_write_time(input);
  std::string text = Ndjson(5);
  text.replace(text.find("p1@"), 3, "q1@");
  dir.Write("in.ndjson", text);
  // Set apart explicitly: two writes may share a clock tick.
  std::filesystem::last_write_time(input, written + std::chrono::seconds(1));
  o.resume = true;
  ImportRun run = RunImport(o, sink);
  REQUIRE(run.error);
  CHECK(run.error->find("was written for other inputs") != std::string::npos);
}

}  // namespace
}  // namespace idres::batch
