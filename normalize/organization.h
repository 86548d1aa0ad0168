// Organization normalizer kind: a company's or an institution's name in one
// spelling, so that "ACME Widgets Ltd." and "Acme Widgets Limited", or
// "Müller G.m.b.H." and "MÜLLER GmbH", are one value.
//
// As text (normalize/name.h: ASCII, lower case), then "&" and "+" read as
// "and", dots dropped inside abbreviations ("g.m.b.h." is "gmbh", "s.a." is
// "sa"), other punctuation as spaces, and each legal form in its short
// spelling ("limited" -> "ltd", "incorporated" -> "inc", "gesellschaft mit
// beschrankter haftung" -> "gmbh", "societe anonyme" -> "sa" ...). Word
// order and the legal form itself are kept: the comparison sets them aside
// (matcher/comparisons.h, OrganizationCore). Thread-safe.
#pragma once

#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

// The canonical organization name for `input` (valid UTF-8), or why not.
KindResult NormalizeOrganization(std::string_view input);

}  // namespace idres
