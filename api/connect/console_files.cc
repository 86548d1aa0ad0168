#include "api/connect/console_files.h"

namespace idres::api {

const ConsoleFile* FindConsoleFile(std::string_view name) {
  if (name.empty()) name = "index.html";
  for (const ConsoleFile& file : ConsoleFiles()) {
    if (file.name == name) return &file;
  }
  return nullptr;
}

}  // namespace idres::api
