// The model file (TOML): how a deployment changes the built-in model
// (matcher/model.h) without code, and how `idres model` prints the
// effective one. The file starts from the defaults:
//
//   threshold = 15.0                 # also max_keys, key_cap, max_candidates
//   [types.loyalty_id]               # a new type: kind is required
//   kind = "opaque"                  # email phone opaque name date
//                                    # postal_code address document
//   comparison = "opaque"            # default: the kind's own
//   strong = true                    # also exclusive, generic_cap, group
//   levels = [{ name = "exact", m = 0.9, u = 1e-6 },
//             { name = "different", m = 0.5, u = 0.5 }]
//   [[blocking]]                     # present: replaces the built-in rules
//   name = "surname_year"
//   parts = ["name.surname", "birth_date.year"]
//
// A table for a built-in type changes only the fields it names; levels,
// when given, name every level of the comparison in order. Pure; thread-safe.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "matcher/model.h"

namespace idres {

// The defaults with `toml` applied, or why it cannot be (with the TOML
// parser's line and column, or the field at fault).
std::variant<Model, std::string> ParseModel(std::string_view toml);

// ParseModel of the file at `path`; its error names the file.
std::variant<Model, std::string> LoadModelFile(const std::string& path);

// Per type, per level (in the model's order): a remark to print beside the
// level, such as how it was fitted (`idres train`).
using LevelNotes = std::map<std::string, std::vector<std::string>, std::less<>>;

// `model` as a model file that ParseModel reads back to the same model,
// each level's weight written beside its m and u, and its note if any.
std::string ModelToToml(const Model& model, const LevelNotes& notes = {});

}  // namespace idres
