// Bearer-token check for --auth-token. Internal to api/. Pure; thread-safe.
#pragma once

#include <string_view>

namespace idres::api {

// Whether `authorization` (the header, verbatim) is "Bearer <token>" for
// exactly `token`. The comparison takes the same time wherever the first
// difference is, and does not reveal the token's length: both sides are
// hashed with SHA-256 and the digests compared with CRYPTO_memcmp.
bool BearerMatches(std::string_view authorization, std::string_view token);

}  // namespace idres::api
