// How many people hold each value: what the engine divides the exact
// level's u by (term frequency counts persons, not records). Training
// knows records, so it groups them: the candidate pairs the fitted model
// calls matches join their records into one estimated person (union-find),
// and a value's holders are the groups holding it.
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "train/blocking_keys.h"
#include "train/record_table.h"

namespace idres::train {

// Per value of the table's dictionary, the estimated persons holding it;
// `matches(a, b)` says whether candidate pair (a, b) is one person.
std::vector<std::uint32_t> EstimatedHolders(
    const RecordTable& table, const BlockingKeys& keys,
    const std::function<bool(std::size_t, std::size_t)>& matches);

}  // namespace idres::train
