// Curl: calls the server with the machine's curl binary, exactly as a person
// following the README would. Test-only.
#pragma once

#include <string>
#include <vector>

#include "tests/api/http_client.h"

namespace idres::testing {

// POST /idres.v1.IdentityService/<method> with `json` as curl -d sends it
// (plus `extra` curl arguments); the status and body that came back.
HttpReply CurlCall(int port, const std::string& method, const std::string& json,
                   const std::vector<std::string>& extra = {});

// GET `path` with curl.
HttpReply CurlGet(int port, const std::string& path, const std::vector<std::string>& extra = {});

}  // namespace idres::testing
