// The text of matcher/data/nicknames.csv, embedded at build time
// (cmake/EmbedText.cmake). Only matcher/nicknames.cc reads it.
#pragma once

#include <string_view>

namespace idres {
extern const std::string_view kNicknamesCsv;
}  // namespace idres
