// Text that JSON can carry. JSON strings are UTF-8; bytes that are not
// (a Latin-1 file name, a cell of a Windows export) cannot travel as they
// are. Pure functions; thread-safe. Internal to batch/.
#pragma once

#include <string>

namespace idres::batch {

// Whether `text` is valid UTF-8.
bool IsJsonText(const std::string& text);

// `text` with each byte that is not part of valid UTF-8 replaced by U+FFFD,
// as a JSON writer that replaces would leave it.
std::string ToJsonText(const std::string& text);

}  // namespace idres::batch
