// The steward console's files (api/console/: its HTML, script, style sheet
// and icon), compiled into the binary by cmake/EmbedConsole.cmake, so that
// `idres serve` reads no file at run time to serve /console/ (docs/console.md,
// "The steward console"). Values with static storage: safe to read from any
// thread.
#pragma once

#include <span>
#include <string_view>

namespace idres::api {

struct ConsoleFile {
  std::string_view name;          // its name in api/console/, e.g. "console.js"
  std::string_view content_type;  // from its ending, e.g. "text/javascript; charset=utf-8"
  std::string_view bytes;         // as the file was at build time
};

// Every file, sorted by name (generated at build time).
std::span<const ConsoleFile> ConsoleFiles();

// The file that /console/<name> serves ("" serves index.html); nullptr when
// no file has that name. Names have no folders: "a/b.js" finds nothing.
const ConsoleFile* FindConsoleFile(std::string_view name);

}  // namespace idres::api
