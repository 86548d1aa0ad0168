// Date normalizer kind (used for birth_date): an ISO 8601 calendar date, YYYY-MM-DD.
//
// Accepts "YYYY-MM-DD" and "YYYYMMDD" (after trimming and NFKC; decimal
// digits of any script count, e.g. full-width or Arabic-Indic). Dates that do not exist
// ("2023-02-30", month 13, year 0000) are rejected. Pure function; thread-safe.
#pragma once

#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

// The ISO date for `input` (valid UTF-8), or why it is not a date.
KindResult NormalizeDate(std::string_view input);

}  // namespace idres
