#include "engine/detail/begin_sql.h"

#include <string_view>

#include "engine/detail/pg_array.h"
#include "engine/detail/statements.h"

namespace idres::detail {
namespace {

constexpr const char* kBegin = "BEGIN ISOLATION LEVEL READ COMMITTED";
constexpr const char* kLockTimeout = "SET LOCAL lock_timeout = '";
constexpr const char* kLockTimeoutEnd = "ms'";
constexpr std::string_view kKeysParameter = "$1";

}  // namespace

std::vector<std::string> BeginStatements(std::chrono::milliseconds lock_timeout,
                                         std::span<const std::int64_t> keys, bool prepared) {
  std::vector<std::string> out{
      kBegin, kLockTimeout + std::to_string(lock_timeout.count()) + kLockTimeoutEnd};
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
