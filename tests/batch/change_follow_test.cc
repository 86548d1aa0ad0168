#include "batch/change_follow.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/errors.h"

namespace idres::batch {
namespace {

// A feed of `n` changes that a lister pages through, failing with `fail`
// on the calls whose number is in `failing` (1-based).
struct FakeFeed {
  std::int64_t n = 0;
  std::vector<int> failing;
  std::function<void()> fail = [] { throw UnavailableError("the database is down"); };
  std::function<void(int)> on_call;  // after each call
  int calls = 0;
  std::vector<std::pair<std::int64_t, std::size_t>> asked;
  std::vector<std::string> lines;  // printed by Run

  ChangeLister Lister() {
    return [this](std::int64_t after, std::size_t limit) {
      ++calls;
      asked.emplace_back(after, limit);
      if (on_call) on_call(calls);
      if (std::find(failing.begin(), failing.end(), calls) != failing.end()) fail();
      std::vector<Change> page;
      for (std::int64_t p = after + 1; p <= n && page.size() < limit; ++p) {
        Change c;
        c.position = p;
        c.person_id = 100 + p;
        page.push_back(c);
      }
      return page;
    };
  }
  // FollowChanges over this feed, its lines kept in `lines`.
  FollowRun Run(const FollowOptions& o) {
    return FollowChanges(Lister(), o, [this](const std::string& l) { lines.push_back(l); });
  }
};

std::vector<std::int64_t> Positions(const std::vector<std::string>& lines) {
  std::vector<std::int64_t> out;
  for (const std::string& l : lines) out.push_back(nlohmann::json::parse(l)["position"]);
  return out;
}

TEST_CASE("without follow every change after the position is printed once, page by page") {
  FakeFeed feed;
  feed.n = 2500;
  FollowOptions o;
  o.after = 7;
  const FollowRun run = feed.Run(o);
  CHECK_FALSE(run.error);
  CHECK(run.last == 2500);
  CHECK(run.printed == 2493);
  REQUIRE(feed.lines.size() == 2493);
  CHECK(Positions(feed.lines).front() == 8);
  CHECK(Positions(feed.lines).back() == 2500);
  // Pages of the most one call lists, then the empty one that ends the run.
  CHECK(feed.asked.front() == std::pair<std::int64_t, std::size_t>{7, 1000});
  CHECK(feed.calls == 4);
}

TEST_CASE("a bound on the changes printed asks for no more than it needs") {
  FakeFeed feed;
  feed.n = 50;
  FollowOptions o;
  o.most = 3;
  o.follow = true;  // the bound ends a followed run too
  const FollowRun run = feed.Run(o);
  CHECK(Positions(feed.lines) == std::vector<std::int64_t>{1, 2, 3});
  CHECK(run.last == 3);
  CHECK(feed.asked == std::vector<std::pair<std::int64_t, std::size_t>>{{0, 3}});
}

TEST_CASE("following, a retryable failure asks for the same position again, others end the run") {
  FakeFeed feed;
  feed.n = 2;
  feed.failing = {2, 3};
  std::atomic<bool> stop{false};
  feed.on_call = [&](int call) {
    if (call == 3) feed.n = 4;  // written while the database was away
    if (call == 5) stop = true;
  };
  FollowOptions o;
  o.follow = true;
  o.poll = std::chrono::milliseconds(1);
  o.stop = &stop;
  const FollowRun run = feed.Run(o);
  CHECK_FALSE(run.error);
  CHECK(Positions(feed.lines) == std::vector<std::int64_t>{1, 2, 3, 4});
  CHECK(feed.asked[1].first == 2);
  CHECK(feed.asked[2].first == 2);
  CHECK(feed.asked[3].first == 2);

  stop = false;
  FakeFeed broken;
  broken.n = 1;
  broken.failing = {2};
  broken.fail = [] { throw InternalError("a bug"); };
  const FollowRun ended = broken.Run(o);
  CHECK(ended.error == "a bug");
  CHECK(ended.last == 1);
}

TEST_CASE("without follow a retryable failure ends the run with its reason") {
  FakeFeed feed;
  feed.n = 1;
  feed.failing = {1};
  const FollowRun run = feed.Run(FollowOptions{});
  CHECK(run.error == "the database is down");
  CHECK(run.printed == 0);
}

TEST_CASE("a change is one JSON object, its other id only when it has one") {
  Change c{.position = 4,
           .person_id = 2,
           .kind = ChangeKind::kMerged,
           .other_id = 1,
           .changed_at = FromMicros(1767323045123456)};
  CHECK(ChangeJson(c) == R"({"position":4,"personId":2,"kind":"merged","otherId":1,)"
                         R"("changedAt":"2026-01-02T03:04:05.123456Z"})");
  c.kind = ChangeKind::kCreated;
  c.other_id.reset();
  CHECK(
      ChangeJson(c) ==
      R"({"position":4,"personId":2,"kind":"created","changedAt":"2026-01-02T03:04:05.123456Z"})");
}

}  // namespace
}  // namespace idres::batch
