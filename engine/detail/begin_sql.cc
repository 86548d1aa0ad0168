#include "engine/detail/begin_sql.h"

#include <string_view>

#include "engine/detail/pg_array.h"
#include "engine/detail/statements.h"

namespace idres::detail {
namespace {

constexpr const char* kBegin = "BEGIN ISOLATION LEVEL READ COMMITTED";
constexpr const char* kLockTimeout = "SET LOCAL lock_timeout = '";
constexpr const char* kStatementTimeout = "SET LOCAL statement_timeout = '";
constexpr const char* kTimeoutEnd = "ms'";
constexpr std::string_view kKeysParameter = "$1";

}  // namespace

std::vector<std::string> BeginStatements(const Timeouts& timeouts,
                                         std::span<const std::int64_t> keys, bool prepared) {
  std::vector<std::string> out{kBegin,
                               kLockTimeout + std::to_string(timeouts.lock.count()) + kTimeoutEnd};
  if (timeouts.statement) {
    out.push_back(kStatementTimeout + std::to_string(timeouts.statement->count()) + kTimeoutEnd);
  }
  if (keys.empty()) return out;
  const std::string array = "'" + BigintArray(keys) + "'";
  if (prepared) {
    out.push_back(std::string("EXECUTE ") + kLockKeys.name + "(" + array + ")");
    return out;
  }
  // kLockKeys itself, its one parameter replaced by the array literal: one
  // statement text for the prepared and the inlined lock.
  std::string lock = kLockKeys.sql;
  lock.replace(lock.find(kKeysParameter), kKeysParameter.size(), array);
  out.push_back(std::move(lock));
  return out;
}

}  // namespace idres::detail
