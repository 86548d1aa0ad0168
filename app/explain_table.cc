#include "app/explain_table.h"

#include <fmt/format.h>

namespace idres::app {
namespace {

std::string Values(const std::vector<Identifier>& values) {
  std::string out;
  for (const Identifier& v : values) out += (out.empty() ? "" : ", ") + v.type + " " + v.value;
  return out.empty() ? "(none)" : out;
}

std::string Decision(const Explanation& e) {
  if (e.decision == "create") {
    return e.person_id == 0 ? "create a new person" : fmt::format("created person {}", e.person_id);
  }
  std::string out = fmt::format("{} person {}", e.decision, e.person_id);
  if (e.decision == "merge") {
    out += " with";
    for (std::int64_t id : e.merged_person_ids) out += fmt::format(" {}", id);
  }
  return out;
}

void AppendCandidate(const CandidateScore& c, const Explanation& e, std::string& out) {
  std::string flags = c.chosen     ? "chosen"
                      : c.matched  ? "matched, not chosen"
                      : c.possible ? "possible match (review)"
                                   : "not a match";
  for (std::int64_t id : c.never_with) flags += fmt::format("; never-match with {}", id);
  out += fmt::format("\ncandidate person {}: {}\n", c.person_id, flags);
  out += fmt::format("  {:<14} {:<20} {:>8} {:>8} {:>9}\n", "comparison", "level", "weight", "tf",
                     "running");
  double running = 0;
  for (const Comparison& x : c.score.comparisons) {
    const std::string tf = x.tf_adjustment == 0 ? "" : fmt::format("{:+.2f}", -x.tf_adjustment);
    if (x.counted) {
      running += x.weight;
      out += fmt::format("  {:<14} {:<20} {:>+8.2f} {:>8} {:>9.2f}\n", x.type, x.level, x.weight,
                         tf, running);
    } else {
      out += fmt::format("  {:<14} {:<20} {:>+8.2f} {:>8} {:>9}\n", x.type, x.level, x.weight, tf,
                         "(group)");
    }
  }
  // Each bound the total is measured against, with its own number.
  const std::string verdict =
      c.score.total >= e.threshold ? fmt::format(">= threshold {:.2f}", e.threshold)
      : c.score.total >= e.review_threshold
          ? fmt::format("< threshold {:.2f}, >= review {:.2f}", e.threshold, e.review_threshold)
          : fmt::format("< review {:.2f}", e.review_threshold);
  out += fmt::format("  {:<14} {:<20} {:>8} {:>8} {:>9.2f}  {}\n", "total", "", "", "",
                     c.score.total, verdict);
}

}  // namespace

std::string ExplanationTable(const Explanation& e) {
  std::string out = "record: " + Values(e.normalized) + "\n";
  for (const Rejection& r : e.rejected) {
    out += fmt::format("rejected: {} \"{}\": {}\n", r.type, r.input, r.reason);
  }
  if (e.error) return out + "refused: " + *e.error + "\n";
  if (!e.generic.empty()) out += "generic (not compared): " + Values(e.generic) + "\n";
  out += fmt::format("keys ({}):\n", e.keys.size());
  for (const ExplainedKey& k : e.keys) {
    out += fmt::format("  {:<26} {}{}\n", k.rule, k.parts, k.generic ? "  [generic]" : "");
  }
  if (e.candidates.empty()) out += "\nno candidate\n";
  for (const CandidateScore& c : e.candidates) AppendCandidate(c, e, out);
  out += "\ndecision: " + Decision(e) + "\n";
  if (!e.note.empty()) out += "note: " + e.note + "\n";
  return out;
}

}  // namespace idres::app
