// The `idres import` command lines the process-level tests share: any input
// with options (ImportArgs), and docs/batch.md's splink mapping (email,
// name, birth date; two traits),
// checkpoint and dead-letter files named by `tag` in `dir`, no progress output.
#pragma once

#include <string>
#include <vector>

#include "tests/batch/data_sets.h"
#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"

namespace idres::testing {

inline std::vector<std::string> SplinkImportArgs(const std::string& input, const TempDir& dir,
                                                 const std::string& tag) {
  return {IdresBinary(),
          "import",
          input,
          "--checkpoint",
          dir.File(tag + ".cp"),
          "--dead-letter",
          dir.File(tag + ".dead"),
          "--progress",
          "off",
          "--source",
          "test",
          "--map",
          "email=email",
          "--map",
          "name=first_name+surname",
          "--map",
          "birth_date=dob",
          "--trait",
          "city=city",
          "--trait",
          "unique_id=unique_id"};
}

// `idres import` with the given input and options, checkpoint and dead
// letters in `dir`, no progress output.
inline std::vector<std::string> ImportArgs(const std::string& input, const TempDir& dir,
                                           std::vector<std::string> options) {
  std::vector<std::string> args{IdresBinary(),    "import",       input,
                                "--checkpoint",   dir.File("cp"), "--dead-letter",
                                dir.File("dead"), "--progress",   "off"};
  args.insert(args.end(), options.begin(), options.end());
  return args;
}

}  // namespace idres::testing
