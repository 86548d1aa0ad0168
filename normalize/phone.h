// Phone normalizer kind: one E.164 string per number, via libphonenumber.
//
// The number is parsed with the record's region, else the configured default
// region, so "+49 170 1234567", "0170 1234567" (DE), "0049-170-1234567" and
// "+49 (0)170 1234567" all give "+491701234567". Full-width and Arabic-Indic
// digits work; extensions are dropped. A number that is not a possible number
// (or, when required, not a valid one) is rejected with libphonenumber's
// reason in words, and so is an all-zero number.
// Pure function; thread-safe (libphonenumber's PhoneNumberUtil is).
#pragma once

#include <string>
#include <string_view>

#include "normalize/kind_result.h"

namespace idres {

struct PhoneOptions {
  std::string default_region = "US";  // ISO 3166-1 alpha-2
  bool require_valid = false;         // also require IsValidNumber
};

// The E.164 form of `input` (valid UTF-8), parsed with `region` when not
// empty, else options.default_region; or the reason it is not a phone number.
KindResult NormalizePhone(std::string_view input, std::string_view region,
                          const PhoneOptions& options);

// Silences libphonenumber's logging (it writes parse failures to stdout).
// Called once by the Normalizer; idempotent.
void InitPhoneLibrary();

}  // namespace idres
