#include "engine/detail/begin_sql.h"

#include <string>

#include "engine/detail/pg_array.h"
#include "engine/detail/statements.h"

namespace idres::detail {
namespace {

// Not prepared: a transaction-control statement; its parse costs nothing.
constexpr const char* kBegin = "BEGIN ISOLATION LEVEL READ COMMITTED";

std::string Milliseconds(std::chrono::milliseconds ms) { return std::to_string(ms.count()) + "ms"; }

}  // namespace

std::vector<Call> BeginCalls(const Timeouts& timeouts, std::span<const std::int64_t> keys) {
  std::vector<Call> out{{nullptr, kBegin, {}},
                        {kSetLockTimeout.name, kSetLockTimeout.sql, {Milliseconds(timeouts.lock)}}};
  if (timeouts.statement) {
    out.push_back(
        {kSetStatementTimeout.name, kSetStatementTimeout.sql, {Milliseconds(*timeouts.statement)}});
  }
  if (!keys.empty()) out.push_back({kLockKeys.name, kLockKeys.sql, {BigintArray(keys)}});
  return out;
}

}  // namespace idres::detail
