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
                                       kAppendChanges,
                                       kNumberChanges,
                                       kReadChanges,
                                       kReadChangesBySeq,
                                       kPing,
                                       kWritePossibleMatches,
                                       kListPossibleMatches,
                                       kListPossibleMatchesOf,
                                       kJitOff,
                                       kSynchronousCommit,
                                       kTryAnalyzeLock,
                                       kAnalyzeHotTables,
                                       kRecordsAnalyzed};
  return kAll;
}

}  // namespace idres::detail
