// Romanization of scripts ICU's Any-Latin leaves alone or writes otherwise
// than their holders do: Korean names in Hangul and Khmer. Internal to
// normalize/ (the name kind). Pure functions; thread-safe.
#pragma once

#include <string>

namespace idres::normalize_detail {

// `text` (NFKC, one space between words) as a romanized Korean name, given
// name first ("minjun kim"), when it is written in Hangul syllables only;
// `ordered` is the name kind's reading of it with given names first (a
// comma put the surname last). Empty when it is not such a name.
std::string KoreanName(const std::string& text, const std::string& ordered);

// `text` with its Khmer words romanized (simplified UNGEGN: ហ៊ុន សែន "hun
// saen"); the rest unchanged. ICU 72 has no Khmer-Latin.
std::string KhmerRomanized(const std::string& text);

}  // namespace idres::normalize_detail
