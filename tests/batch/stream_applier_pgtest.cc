#include "batch/stream_applier.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tests/support/test_db.h"

namespace idres::batch {
namespace {

using testing::TestDatabase;

// Dead letters kept in memory; or refused, to show nothing passes them.
class Letters : public StreamDeadLetters {
 public:
  void Deliver(const std::vector<StreamDeadLetter>& letters) override {
    if (fail) throw std::runtime_error("the dead-letter topic is away");
    for (const auto& l : letters) delivered.emplace_back(l.message->offset, l.reason);
  }
  bool fail = false;
  std::vector<std::pair<std::int64_t, std::string>> delivered;
};

std::string Cookie(const std::string& value) {
  return R"({"identifiers":[{"type":"cookie","value":")" + value + R"("}]})";
}

PartitionBatch Batch(std::int64_t first, const std::vector<std::string>& values,
                     std::optional<std::int64_t> stored) {
  PartitionBatch b;
  b.from = {"in", 0};
  b.generation = 1;
  b.stored = stored;
  for (std::size_t i = 0; i < values.size(); ++i) {
    StreamMessage& m = b.messages.emplace_back();
    m.from = b.from;
    m.offset = first + static_cast<std::int64_t>(i);
    m.value = values[i];
  }
  return b;
}

struct Fixture {
  TestDatabase db;
  std::unique_ptr<Engine> engine = [&] {
    EngineOptions o;
    o.database_url = db.url();
    o.pool_size = 4;
    return std::make_unique<Engine>(std::move(o));
  }();
  Letters letters;
  ConsumeMetrics metrics;
  StreamApplier applier{*engine, letters, metrics, [] {
                          ApplierOptions o;
                          o.group = "g";
                          return o;
                        }()};

  std::int64_t Records() const { return db.Count("SELECT count(*) FROM records"); }
  std::optional<std::int64_t> Stored() {
    const auto positions = engine->StreamPositions("g", "in");
    if (!positions.contains(0)) return std::nullopt;
    return positions.at(0);
  }
};

TEST_CASE("stream applier: each batch stores its records and the position after them",
          "[pg][consume]") {
  Fixture f;
  REQUIRE(f.applier.Apply(Batch(0, {Cookie("a"), Cookie("b")}, std::nullopt)));
  CHECK(f.Stored() == 2);
  REQUIRE(f.applier.Apply(Batch(2, {Cookie("a"), Cookie("c")}, 2)));
  CHECK(f.Stored() == 4);
  CHECK(f.Records() == 4);
  CHECK(f.db.Count("SELECT count(*) FROM persons") == 3);
}

TEST_CASE("stream applier: a batch from a position no longer stored writes nothing",
          "[pg][consume]") {
  Fixture f;
  REQUIRE(f.applier.Apply(Batch(0, {Cookie("a"), Cookie("b")}, std::nullopt)));
  // Another consumer's view: it started before the batch above committed.
  CHECK_FALSE(f.applier.Apply(Batch(0, {Cookie("a"), Cookie("b")}, std::nullopt)));
  CHECK_FALSE(f.applier.Apply(Batch(1, {Cookie("b")}, 1)));
  CHECK(f.Records() == 2);
  CHECK(f.Stored() == 2);
}

TEST_CASE("stream applier: of consumers applying one partition from one position, one writes",
          "[pg][consume]") {
  Fixture f;
  REQUIRE(f.applier.Apply(Batch(0, {Cookie("seed")}, std::nullopt)));
  std::vector<std::string> values;
  for (int i = 0; i < 200; ++i) values.push_back(Cookie("v" + std::to_string(i)));
  std::atomic<int> applied{0};
  std::vector<std::thread> racers;
  for (int i = 0; i < 4; ++i) {
    racers.emplace_back([&] {
      if (f.applier.Apply(Batch(1, values, 1))) ++applied;
    });
  }
  for (auto& t : racers) t.join();
  CHECK(applied == 1);
  CHECK(f.Records() == 201);
  CHECK(f.Stored() == 201);
}

TEST_CASE(
    "stream applier: what is no record and what is refused goes to the dead letters "
    "before the position passes it",
    "[pg][consume]") {
  Fixture f;
  const std::string invalid = R"({"identifiers":[{"type":"email","value":"no at sign"}]})";
  f.letters.fail = true;
  CHECK_THROWS_AS(f.applier.Apply(Batch(0, {Cookie("a"), "{oops"}, std::nullopt)),
                  std::runtime_error);
  CHECK_THROWS_AS(f.applier.Apply(Batch(0, {Cookie("a"), invalid}, std::nullopt)),
                  std::runtime_error);
  CHECK(f.Records() == 0);
  CHECK_FALSE(f.Stored());
  f.letters.fail = false;
  REQUIRE(f.applier.Apply(Batch(0, {Cookie("a"), "{oops", invalid, Cookie("b")}, std::nullopt)));
  CHECK(f.Records() == 2);
  CHECK(f.Stored() == 4);
  REQUIRE(f.letters.delivered.size() == 2);
  // A batch of nothing but dead letters still moves the position.
  REQUIRE(f.applier.Apply(Batch(4, {"[]", invalid}, 4)));
  CHECK(f.Stored() == 6);
  CHECK(f.Records() == 2);
}

}  // namespace
}  // namespace idres::batch
