// Given-name equivalence from the nickname table shipped in matcher/data/
// (carltonnorthern/nicknames @ 21d7505, Apache-2.0; embedded at build time).
//
// A row `robert,has_nickname,bob` puts bob in robert's *group*: a canonical
// name (a left-hand name of the table) with all its nicknames. Two given
// names are nicknames of one another when one group holds both: one is a
// nickname of the other (bob/robert), or both are nicknames of one name
// (bob/rob, both robert's). Not transitive: bob/robert are, robert/william
// are (the table lists both as bill's nicknames), bob/william are not. A
// name that the table does not hold is a group of its own.
//
// Names are compared as given, byte for byte: pass normalized (lowercase)
// given names. The table is parsed once, on first use; every function is
// thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace idres {

// The canonical names of every group that holds `given`, sorted: at most 19
// for the shipped table ("chris"); `{given}` when the table does not hold it;
// empty for an empty name. Two names are AreNicknames exactly when these
// lists share a name, so one blocking key per entry finds every pair.
std::vector<std::string> NameClasses(std::string_view given);

// One deterministic class key: the smallest of NameClasses(given) ("" for
// ""). Equal keys imply AreNicknames, but not the converse for a name in
// several groups (bob -> "bert", robert -> "bill", yet they are nicknames):
// blocking that must find every nickname pair uses NameClasses.
std::string NameClass(std::string_view given);

// Whether one group holds both names (so equal non-empty names are); false
// when either is empty.
bool AreNicknames(std::string_view a, std::string_view b);

}  // namespace idres
