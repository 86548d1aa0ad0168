// The ICU objects the normalizer kinds share, created once per process, and
// UTF-8 wrappers around them. Internal to normalize/ (ICU must not leak into
// other modules' headers).
//
// Thread-safety: Normalizer2 and UTS46 UIDNA instances are documented by ICU
// as usable concurrently, so one of each is shared. A Transliterator is not
// (compound and Any-* transliterators keep internal state), so each thread
// gets its own clone of one prototype; cloning is far cheaper than creating.
#pragma once

#include <string>
#include <string_view>
#include <utility>

struct UIDNA;

namespace idres::normalize_detail {

// Creates the shared ICU objects now; throws std::runtime_error when ICU or its
// data is unusable (an installation problem, not bad input). Idempotent.
void InitIcu();

// NFKC / NFC of valid UTF-8 `s`.
std::string Nfkc(std::string_view s);
std::string Nfc(std::string_view s);

// Full Unicode lower / upper case of valid UTF-8 `s` in the root locale
// (never the process locale: Turkish dotless i must not depend on it).
std::string Lower(std::string_view s);
std::string Upper(std::string_view s);

// `step` applied to `text` until the text no longer changes, at most `rounds`
// times: case mapping, NFKC and removing characters can each undo what
// another did, and a canonical form must be a fixpoint.
template <typename Step>
std::string UntilStable(std::string text, int rounds, Step step) {
  for (int round = 0; round < rounds; ++round) {
    std::string next = step(text);
    if (next == text) break;
    text = std::move(next);
  }
  return text;
}

// The shared UTS #46 IDNA instance (nontransitional, STD3 rules, BiDi and
// CONTEXTJ checks).
const UIDNA* Uts46();

// Valid UTF-8 `s` without its format characters (general category Cf:
// bidirectional controls, zero-width spaces and joiners, the byte order
// mark, soft hyphens): invisible, they would make one visible value two.
std::string WithoutFormatCharacters(std::string_view s);

// Whether valid UTF-8 `s` holds a letter (general category L).
bool HasLetter(std::string_view s);

// `s` transliterated "Any-Latin; Latin-ASCII" with this thread's clone.
// False when no transliterator could be made (ICU data missing).
bool TransliterateToAscii(std::string_view s, std::string& out);

}  // namespace idres::normalize_detail
