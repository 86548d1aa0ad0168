// Edit distances between short strings, compared byte by byte.
//
// One edit is inserting, deleting or substituting one byte, or swapping two
// adjacent bytes (Damerau's transposition: "jonh" is one edit from "john").
// The distance is the optimal string alignment one (restricted
// Damerau–Levenshtein): no byte is edited twice, so "ca" -> "abc" is 3, not 2.
// Bytes, not characters: a two-byte UTF-8 letter replaced by an ASCII one is
// two edits ("josé" -> "jose"), by another two-byte letter one or two. Pure;
// thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

namespace idres {

// The restricted Damerau–Levenshtein distance of `a` and `b` when it is at
// most `bound`, else `bound + 1`. Costs O(|a| * |b|) at most, and stops as
// soon as the bound cannot be met.
std::size_t BoundedDamerauLevenshtein(std::string_view a, std::string_view b, std::size_t bound);

// Whether `a` and `b` are equal or one edit (as above) apart.
bool WithinOneEdit(std::string_view a, std::string_view b);

}  // namespace idres
