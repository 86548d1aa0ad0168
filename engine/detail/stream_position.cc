#include "engine/detail/stream_position.h"

#include <string>

#include "engine/errors.h"

namespace idres::detail {
namespace {

std::string Describe(std::optional<std::int64_t> position) {
  return position ? std::to_string(*position) : std::string("none");
}

}  // namespace

void LockStreamPosition(Tx& tx, const StreamPosition& p, std::optional<std::int64_t> expected) {
  const Rows rows = tx.Exec(kLockStreamPosition, p.group, p.topic, std::int64_t{p.partition});
  std::optional<std::int64_t> stored;
  if (!rows.empty()) stored = rows[0][0].as<std::int64_t>();
  if (stored == expected) return;
  throw PositionMovedError("group \"" + p.group + "\" has position " + Describe(stored) + " of " +
                           p.topic + "/" + std::to_string(p.partition) + " stored, not " +
                           Describe(expected) + ": another consumer applied the partition");
}

void WriteStreamPosition(Tx& tx, const StreamPosition& p, std::optional<std::int64_t> expected,
                         std::int64_t next) {
  const Statement& s = expected ? kMoveStreamPosition : kInsertStreamPosition;
  tx.Defer(s, p.group, p.topic, std::int64_t{p.partition}, next);
}

}  // namespace idres::detail
