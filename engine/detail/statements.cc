#include "engine/detail/statements.h"

namespace idres::detail {

std::span<const Statement> AllStatements() {
  static constexpr Statement kAll[] = {kSetLockTimeout,
                                       kSetStatementTimeout,
                                       kLockKeys,
                                       kReadCandidates,
                                       kLockPersons,
                                       kReadPersons,
                                       kMoveIdentifiers,
                                       kRedirectAndDelete,
                                       kCreatePersons,
                                       kUpdatePersons,
                                       kResolveId,
                                       kFindByIdentifier,
                                       kStats,
                                       kReadAllIdentifiers,
                                       kDropStaleValues,
                                       kReadReceipts,
                                       kWriteReceipts,
                                       kForgetReceipts,
                                       kAppendChanges,
                                       kNumberChanges,
                                       kReadChanges,
                                       kReadChangesBySeq,
                                       kPing};
  return kAll;
}

}  // namespace idres::detail
