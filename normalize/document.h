// Document normalizer kind (passport, driver's licence, national id, tax
// id): the document number as the issuer prints it, without the separators
// people add or drop.
//
// NFKC, upper case, and every character that is not a letter or a digit
// (spaces, dashes, dots, slashes) removed: "x 1234-567" and "X1234567" are
// one value. A number needs a letter or a digit. Pure function; thread-safe.
// Normalizing the output gives it back.
#pragma once

#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

// The canonical document number for `input` (valid UTF-8), or why not.
KindResult NormalizeDocument(std::string_view input);

}  // namespace idres
