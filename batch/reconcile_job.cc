#include "batch/reconcile_job.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

namespace idres::batch {
namespace {

std::string Ids(const std::vector<std::int64_t>& ids) {
  return fmt::format("{}", fmt::join(ids, ", "));
}

std::string Reasons(const ReconcileGroup& group) {
  return fmt::format("{}", fmt::join(group.reasons, "; "));
}

// Persons the applied group took in beyond those found: they match the
// group's values taken together (a dry run cannot know them).
std::string PulledIn(const ReconcileGroup& group, const ReconcileResult& r) {
  std::vector<std::int64_t> extra;
  for (std::int64_t id : r.merged_person_ids) {
    if (std::find(group.person_ids.begin(), group.person_ids.end(), id) == group.person_ids.end()) {
      extra.push_back(id);
    }
  }
  if (extra.empty()) return "";
  return "; and " + Ids(extra) + ", matching the group's values together";
}

ProgressSnapshot Snapshot(const ReconcileSummary& s, std::uint64_t done) {
  return {done,
          s.groups,
          done,
          {{"merged away", s.persons_merged_away}, {"rewritten", s.identifiers_rewritten}}};
}

using Print = std::function<void(const std::string&)>;

// What applying `group` would do, printed and counted.
void Preview(const ReconcileGroup& group, ReconcileSummary& s, const Print& print) {
  const std::size_t away = group.person_ids.size() - 1;
  s.merges += away > 0;
  s.persons_merged_away += away;
  print((away > 0 ? "would merge persons " : "would rewrite person ") + Ids(group.person_ids) +
        ": " + Reasons(group));
}

// Applies `group`, printed and counted. A group busy under live traffic
// waits for the next run; the others need not wait for it. A database gone
// ends the run.
void Apply(Engine& engine, const ReconcileGroup& group, ReconcileSummary& s, const Print& print) {
  ReconcileResult r;
  try {
    r = engine.Reconcile(group);
  } catch (const EngineError& e) {
    if (dynamic_cast<const BusyError*>(&e) == nullptr &&
        dynamic_cast<const ConflictError*>(&e) == nullptr) {
      throw;
    }
    ++s.groups_skipped;
    print("skipped persons " + Ids(group.person_ids) + " for now: " + e.what());
    return;
  }
  ++s.groups_applied;
  s.merges += !r.merged_person_ids.empty();
  s.persons_merged_away += r.merged_person_ids.size();
  s.identifiers_rewritten += r.identifiers_rewritten;
  if (!r.merged_person_ids.empty()) {
    print("merged " + Ids(r.merged_person_ids) + " into " + std::to_string(r.survivor) + ": " +
          Reasons(group) + PulledIn(group, r));
  } else if (r.identifiers_rewritten > 0) {
    print("rewrote " + std::to_string(r.identifiers_rewritten) + " stored values of person " +
          std::to_string(r.survivor) + ": " + Reasons(group));
  }
}

}  // namespace

std::string ReconcileSummary::ToText() const {
  std::string text =
      std::string(dry_run ? "dry run, nothing written: " : "") +
      "groups: " + std::to_string(groups) +
      (dry_run ? "" : "  applied: " + std::to_string(groups_applied)) +
      (groups_skipped > 0 ? "  skipped (busy): " + std::to_string(groups_skipped) : "") +
      "  merges: " + std::to_string(merges) +
      "  persons merged away: " + std::to_string(persons_merged_away) +
      (dry_run ? "" : "  identifiers rewritten: " + std::to_string(identifiers_rewritten)) + "\n";
  return text + fmt::format("{:.1f} s ({:.0f} groups/s)\n", seconds,
                            seconds > 0 ? static_cast<double>(groups) / seconds : 0.0);
}

std::string ReconcileSummary::ToJson() const {
  nlohmann::json doc = {{"dry_run", dry_run},
                        {"groups", groups},
                        {"groups_applied", groups_applied},
                        {"groups_skipped", groups_skipped},
                        {"merges", merges},
                        {"persons_merged_away", persons_merged_away},
                        {"identifiers_rewritten", identifiers_rewritten},
                        {"duration_seconds", seconds}};
  return doc.dump(2);
}

ReconcileRun RunReconcile(Engine& engine, const std::string& region, bool dry_run,
                          ProgressMode progress_mode,
                          const std::function<void(const std::string&)>& print,
                          const std::atomic<bool>* stop) {
  ReconcileRun run;
  ReconcileSummary& s = run.summary;
  s.dry_run = dry_run;
  const auto started = std::chrono::steady_clock::now();
  const std::vector<ReconcileGroup> groups = engine.FindReconcileGroups(region);
  s.groups = groups.size();
  Progress progress(progress_mode, "groups");
  std::uint64_t done = 0;
  for (const ReconcileGroup& group : groups) {
    if (stop != nullptr && stop->load()) {
      run.error = "interrupted; run reconcile again (it is idempotent)";
      run.interrupted = true;
      break;
    }
    if (dry_run) {
      Preview(group, s, print);
    } else {
      Apply(engine, group, s, print);
    }
    progress.Update(Snapshot(s, ++done));
  }
  if (!run.error && s.groups_skipped > 0) {
    run.error = std::to_string(s.groups_skipped) +
                " groups were skipped (busy); run reconcile again (it is idempotent)";
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  progress.Finish(Snapshot(s, done));
  return run;
}

}  // namespace idres::batch
