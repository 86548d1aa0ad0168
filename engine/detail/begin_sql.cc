#include "engine/detail/begin_sql.h"

#include "engine/detail/pg_array.h"

namespace idres::detail {
namespace {

constexpr const char* kBegin = "BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout = '";
constexpr const char* kBeginEnd = "ms'";
// The same statement as kLockKeys (engine/detail/statements.h): every key
// in one statement, ascending, so upserts sharing keys cannot deadlock.
constexpr const char* kLockKeysHead = "; SELECT pg_advisory_xact_lock(k) FROM unnest('";
constexpr const char* kLockKeysTail = "'::bigint[]) AS k ORDER BY k";

}  // namespace

std::string BeginSql(std::chrono::milliseconds lock_timeout, std::span<const std::int64_t> keys) {
  std::string sql = kBegin + std::to_string(lock_timeout.count()) + kBeginEnd;
  if (!keys.empty()) sql += kLockKeysHead + BigintArray(keys) + kLockKeysTail;
  return sql;
}

}  // namespace idres::detail
