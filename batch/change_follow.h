// FollowChanges: what `idres changes` does with the change feed (docs/batch.md,
// "The change feed"): lists the changes after a position, page by page, as
// one NDJSON line each, in position order; with `follow`, goes on polling
// for new ones until stopped. The position a run ends at is the last one
// printed, so a consumer that passes it as the next run's `after` sees
// every change once.
//
// Thread-safety: one run per thread; `stop` may be raised from anywhere (a
// signal handler).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/change.h"

namespace idres::batch {

// Where the feed is read: the changes after `after`, at most `limit`, as
// Engine::ListChanges answers (batch/change_listers.h). Throws the
// EngineErrors of engine/errors.h.
using ChangeLister = std::function<std::vector<Change>(std::int64_t after, std::size_t limit)>;

struct FollowOptions {
  std::int64_t after = 0;               // the last position already processed
  std::uint64_t most = 0;               // stop once this many changes are printed; 0: no bound
  bool follow = false;                  // at the end of the feed, wait for more instead of ending
  std::chrono::milliseconds poll{200};  // the wait between polls that found nothing
  const std::atomic<bool>* stop = nullptr;  // raised: end before the next poll
};

struct FollowRun {
  std::int64_t last = 0;  // the last position printed (options.after if none)
  std::uint64_t printed = 0;
  std::optional<std::string> error;  // why the run ended early
};

// Prints each change with `line` (its NDJSON text, without the newline) and
// returns where the run ended. Without `follow` it ends at the first poll
// that lists nothing. With it, a retryable failure (the database or the
// service restarting, a lock held too long) is logged and the same
// position asked for again after `poll`; only others end the run.
FollowRun FollowChanges(const ChangeLister& list, const FollowOptions& options,
                        const std::function<void(const std::string&)>& line);

// The same, handing each change on as it is (`idres changes --to-kafka`).
// An exception from `each` ends the run with it as the error; the change
// it was thrown for does not count as printed.
FollowRun FollowChangeValues(const ChangeLister& list, const FollowOptions& options,
                             const std::function<void(const Change&)>& each);

// `change` as one JSON object, ids as numbers:
// {"position":4,"personId":2,"kind":"merged","otherId":1,"changedAt":"...Z"}
// (otherId only when the change has one).
std::string ChangeJson(const Change& change);

}  // namespace idres::batch
