// StoreFingerprint: the parts of a model that shape what the store holds,
// as one readable text. Two models with the same fingerprint leave the same
// stored data: the same types exclusive (identifiers.is_unique) and the same
// blocking keys for the same values (match_keys). Weights, levels, caps and
// the threshold only shape decisions, and are not in it. The engine keeps
// the fingerprint of the model that last shaped a store and re-shapes the
// store at start-up when the model differs (docs/operations.md, "The store and its
// migrations"). Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "matcher/model.h"

namespace idres {

// Changes whenever the keys that given values make change without the model
// changing: a derivation of matcher/lock_plan.cc, Double Metaphone, the
// nickname table, or the composite key of normalize/lock_key.h. Bump it with
// such a change, and stores rebuild their match keys at the next start.
// Version 2: a person's keys are the union of its records' keys, not the keys
// of the union of its values. Version 3: the Russian legal forms (pao, ao,
// ojsc, cjsc, tov) are no part of an organization's core; an address's
// street is found before its number too, and past a flat's number.
// Version 4: fl and ste mark a floor or suite only beside a number (they are
// Florida and Sainte elsewhere), a postcode alone is no house number, and
// a numbered street (5th ave) is a street, not a house or a postcode.
// Version 5: a post office box is the house and the town the street, a
// house number may be a range (1200-1210), a unit's number may be 1203b; an
// organization's core drops the fillers and forms it starts with (the ag
// barr co is barr). Version 6: the placeholder birth date 1900-01-01 makes
// no key. Version 7: an organization's core drops und and et as it drops
// and, and publ, cie and cia as legal forms (gmbh und co kg, ab volvo publ,
// dupont et cie). Version 8: an initial is a whole character, not a byte
// (a name a transliteration leaves starting with ǂ made a key part of half
// a character, which no Explain response could carry).
inline constexpr int kKeyDerivationVersion = 8;

// Lines: the key derivation version; the exclusive types, sorted; each
// blocking rule in model order with its parts.
std::string StoreFingerprint(const Model& model);

// The model's exclusive types, sorted.
std::vector<std::string> ExclusiveTypes(const Model& model);

}  // namespace idres
