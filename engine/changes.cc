// Engine::ListChanges: the change feed read by position, with the sequencer
// run first when committed rows wait for a position (docs/batch.md, "The change
// feed"; engine/detail/change_log.h).
#include <algorithm>

#include "engine/detail/change_log.h"
#include "engine/detail/engine_impl.h"
#include "engine/engine.h"

namespace idres {

std::vector<Change> Engine::ListChanges(std::int64_t after_position, std::size_t limit,
                                        const Deadline& deadline) {
  const auto most = static_cast<std::int64_t>(std::min(limit, kMaxListChanges));
  if (most == 0) return {};
  if (impl_->seams.skip_sequencer) {
    std::vector<Change> by_seq;
    impl_->RunTx(
        [&](detail::Tx& tx) { by_seq = detail::ReadChangesBySeq(tx, after_position, most); },
        deadline);
    return by_seq;
  }
  detail::ChangeRead read;
  impl_->RunTx([&](detail::Tx& tx) { read = detail::ReadChanges(tx, after_position, most); },
               deadline);
  // A full page needs no new positions now: the caller comes back for more.
  if (!read.unnumbered || static_cast<std::int64_t>(read.changes.size()) == most) {
    return std::move(read.changes);
  }
  // The sequencer's round and the read again, in one round trip: BEGIN, the
  // advisory lock, the numbering (a new statement: it sees what the previous
  // round committed), the read (which sees the numbering), COMMIT. The read
  // only counts once the COMMIT has answered.
  const std::int64_t key[] = {detail::SequencerLockKey()};
  impl_->RunAttempts(
      [&](detail::Tx& tx) {
        detail::DeferNumberChanges(tx, detail::kSequencerRound);
        read = detail::ReadChangesAndCommit(tx, after_position, most);
      },
      key, false, deadline);
  return std::move(read.changes);
}

}  // namespace idres
