#include "batch/change_follow.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "engine/errors.h"

namespace idres::batch {
namespace {

// The most changes one poll asks for (Engine::kMaxListChanges).
constexpr std::size_t kPage = 1000;
// How often a pause looks at the stop flag.
constexpr auto kStopCheck = std::chrono::milliseconds(20);

bool Stopped(const FollowOptions& o) { return o.stop != nullptr && o.stop->load(); }

// Waits `o.poll`, or less once the run is stopped.
void Pause(const FollowOptions& o) {
  const auto until = std::chrono::steady_clock::now() + o.poll;
  while (!Stopped(o)) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(kStopCheck, until - now));
  }
}

}  // namespace

FollowRun FollowChanges(const ChangeLister& list, const FollowOptions& options,
                        const std::function<void(const std::string&)>& line) {
  return FollowChangeValues(list, options, [&](const Change& c) { line(ChangeJson(c)); });
}

FollowRun FollowChangeValues(const ChangeLister& list, const FollowOptions& options,
                             const std::function<void(const Change&)>& each) {
  FollowRun run;
  run.last = options.after;
  while (!Stopped(options) && (options.most == 0 || run.printed < options.most)) {
    std::size_t limit = kPage;
    if (options.most != 0) limit = std::min<std::uint64_t>(limit, options.most - run.printed);
    std::vector<Change> page;
    try {
      page = list(run.last, limit);
    } catch (const EngineError& e) {
      if (!options.follow || !e.retryable()) {
        run.error = e.what();
        return run;
      }
      spdlog::warn("changes: {}; asking again after position {}", e.what(), run.last);
      Pause(options);
      continue;
    }
    for (const Change& c : page) {
      try {
        each(c);
      } catch (const std::exception& e) {
        run.error = e.what();
        return run;
      }
      run.last = c.position;
      ++run.printed;
    }
    if (!page.empty()) continue;
    if (!options.follow) break;
    Pause(options);
  }
  return run;
}

std::string ChangeJson(const Change& change) {
  nlohmann::ordered_json doc = {{"position", change.position},
                                {"personId", change.person_id},
                                {"kind", ChangeKindName(change.kind)}};
  if (change.other_id) doc["otherId"] = *change.other_id;
  doc["changedAt"] = FormatRfc3339(change.changed_at);
  return doc.dump();
}

}  // namespace idres::batch
