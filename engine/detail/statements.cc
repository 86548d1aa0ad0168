#include "engine/detail/statements.h"

namespace idres::detail {

std::span<const Statement> AllStatements() {
  static constexpr Statement kAll[] = {kLockKeys,
                                       kReadCandidates,
                                       kLockPersons,
                                       kReadPersons,
                                       kInsertPerson,
                                       kWritePerson,
                                       kMoveIdentifiers,
                                       kRedirectAndDelete,
                                       kAllocatePersonIds,
                                       kWriteBatch,
                                       kResolveId,
                                       kFindByIdentifier,
                                       kStats,
                                       kReadAllIdentifiers,
                                       kDropStaleValues,
                                       kReadReceipts,
                                       kWriteReceipts,
                                       kForgetReceipts,
                                       kPing};
  return kAll;
}

}  // namespace idres::detail
