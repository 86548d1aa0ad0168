// Name and text normalizer kinds: a loose, ASCII spelling, so that
// "  José  MÜLLER " and "jose muller" compare equal.
//
// Text (a city, a place): NFKC, then ICU transliteration "Any-Latin;
// Latin-ASCII" (Cyrillic, Greek, CJK ... to Latin, then diacritics and
// ligatures to ASCII), full lower case, and whitespace runs collapsed to one
// space. Characters that have no ASCII transliteration are kept. Plain ASCII
// input skips ICU.
//
// A person's name, as text and also in one order, given names first: a
// comma means the surname came first ("Nguyen, Thi Hoa" is "thi hoa
// nguyen"), as does a surname written first in capitals ("PAPADOPOULOS
// Giorgos", "МЕДВЕДЕВ Дмитрий"); punctuation goes (a hyphen between two
// surnames becomes a space), forms of address before the name (Mr, Dr,
// Prof ...) and degrees after it (PhD, MD ...) are dropped, and a
// generational suffix is kept at the end in one spelling (Junior and Jr.
// as "jr", 2nd as "ii").
//
// The result is never empty and never contains a control character.
// Thread-safe: each thread uses its own clone of the transliterator.
#pragma once

#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

// The canonical name for `input` (valid UTF-8), or why it is not one.
KindResult NormalizeName(std::string_view input);

// The canonical text (a city) for `input` (valid UTF-8), or why not.
KindResult NormalizeText(std::string_view input);

}  // namespace idres
