// Request bodies for clients of the IdentityService written in C++ (the
// benchmark suite, tests): the binary protobuf encoding ("application/proto"
// in the Connect protocol) of a request, built from the engine's plain
// values so that the caller needs no protobuf type. The encoding a
// high-volume client would send: a server decodes it several times faster
// than the JSON mapping. Pure functions; thread-safe.
#pragma once

#include <string>

#include "engine/record.h"

namespace idres::api {

// The Content-Type of the bodies below.
inline constexpr const char* kProtoContentType = "application/proto";

// An UpsertRequest for `record`, binary protobuf.
std::string UpsertRequestProto(const Record& record);

}  // namespace idres::api
