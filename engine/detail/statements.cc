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
                                       kWriteRecords,
                                       kShrinkPersons,
                                       kDropRecords,
                                       kReadNamedRecords,
                                       kReadRecordsOf,
                                       kErasePerson,
                                       kReadRemoval,
                                       kJudgeNever,
                                       kJudgeAlways,
                                       kReadNever,
                                       kReadAllNever,
                                       kReadHistory,
                                       kResolveId,
                                       kFindByIdentifier,
                                       kStats,
                                       kReadAllIdentifiers,
                                       kDropStaleValues,
                                       kRenormalizeRecords,
                                       kReadReceipts,
                                       kWriteReceipts,
                                       kForgetReceipts,
                                       kLockStreamPosition,
                                       kInsertStreamPosition,
                                       kMoveStreamPosition,
                                       kReadStreamPositions,
                                       kAppendChanges,
                                       kNumberChanges,
                                       kReadChanges,
                                       kReadChangesBySeq,
                                       kPing,
                                       kWritePossibleMatches,
                                       kListPossibleMatches,
                                       kListPossibleMatchesOf,
                                       kJitOff,
                                       kSynchronousCommit};
  return kAll;
}

}  // namespace idres::detail
