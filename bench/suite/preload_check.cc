#include "bench/suite/preload_check.h"

#include <algorithm>
#include <pqxx/pqxx>

#include <variant>
#include <vector>

#include "bench/suite/preload_sql.h"
#include "bench/suite/workload.h"
#include "matcher/lock_plan.h"
#include "matcher/model.h"
#include "normalize/normalizer.h"

namespace idres::bench {

std::optional<std::string> PreloadShapeProblem(const Cluster& cluster, const std::string& dbname) {
  pqxx::connection conn(cluster.Url(dbname));
  pqxx::nontransaction tx(conn);
  std::vector<Identifier> stored;
  for (const auto& row : tx.exec(kPreloadSample)) {
    stored.push_back({row[0].c_str(), row[1].c_str()});
  }
  const auto key_rows = tx.exec(kPreloadSampleKey);
  if (stored.size() != 5 || key_rows.size() != 1) {
    return "person 1 should hold 5 identifiers and 1 match key";
  }

  const Normalizer normalizer(Model::Defaults().Normalizing());
  for (const auto& id : stored) {
    const auto result = normalizer.Normalize(id.type, id.value);
    const auto* normalized = std::get_if<Identifier>(&result);
    if (normalized == nullptr) {
      return id.type + " '" + id.value + "' is rejected: " + std::get<Rejection>(result).reason;
    }
    if (normalized->value != id.value) {
      return id.type + " '" + id.value + "' normalizes to '" + normalized->value + "'";
    }
  }
  if (Identifier{"email", PreloadEmail(1)} != stored[1] ||
      Identifier{"phone", PreloadPhone(1)} != stored[3]) {
    return "workload.cc and preload_sql.h disagree on person 1's email or phone";
  }

  const LockPlanner planner(Model::Defaults());
  bool truncated = false;
  const auto keys = planner.MatchKeys(stored, Model::Defaults().max_keys, &truncated);
  const auto stored_key = key_rows[0][0].as<std::int64_t>();
  if (std::find(keys.begin(), keys.end(), stored_key) == keys.end()) {
    return "the SQL match key " + std::to_string(stored_key) +
           " differs from the lock planner's (" + std::to_string(keys.size()) + " key(s))";
  }
  return std::nullopt;
}

}  // namespace idres::bench
