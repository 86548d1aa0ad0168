#include "engine/detail/begin_sql.h"

#include <string_view>

#include "engine/detail/pg_array.h"
#include "engine/detail/statements.h"

namespace idres::detail {
namespace {

constexpr const char* kBegin = "BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout = '";
constexpr const char* kBeginEnd = "ms'";
constexpr std::string_view kKeysParameter = "$1";

}  // namespace

std::string BeginSql(std::chrono::milliseconds lock_timeout, std::span<const std::int64_t> keys,
                     bool prepared) {
  std::string sql = kBegin + std::to_string(lock_timeout.count()) + kBeginEnd;
  if (keys.empty()) return sql;
  const std::string array = "'" + BigintArray(keys) + "'";
  if (prepared) return sql + "; EXECUTE " + kLockKeys.name + "(" + array + ")";
  // kLockKeys itself, its one parameter replaced by the array literal: one
  // statement text for the prepared and the inlined lock.
  std::string lock = kLockKeys.sql;
  lock.replace(lock.find(kKeysParameter), kKeysParameter.size(), array);
  return sql + "; " + lock;
}

}  // namespace idres::detail
