// Name normalizer kind: a loose, ASCII spelling of a person's name, so that
// "  José  MÜLLER " and "jose muller" compare equal.
//
// NFKC, then ICU transliteration "Any-Latin; Latin-ASCII" (Cyrillic, Greek,
// CJK ... to Latin, then diacritics and ligatures to ASCII), full lower case,
// and whitespace runs collapsed to one space. Characters that have no ASCII
// transliteration are kept. The result is never empty and never contains a
// control character. Plain ASCII input skips ICU.
// Thread-safe: each thread uses its own clone of the transliterator.
#pragma once

#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

// The canonical name for `input` (valid UTF-8), or why it is not one.
KindResult NormalizeName(std::string_view input);

}  // namespace idres
