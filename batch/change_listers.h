// The two places `idres changes` reads the change feed from
// (batch/change_follow.h): the engine on the database (--database-url), or
// a running service's ListChanges (--server), through the one C++ client.
//
// Thread-safety: a lister is called from one thread at a time.
#pragma once

#include <string>

#include "batch/change_follow.h"
#include "engine/engine.h"

namespace idres::batch {

// Engine::ListChanges of `engine`, which must outlive the lister.
ChangeLister EngineChanges(Engine& engine);

// ListChanges of the service at `url` (http://host[:port][/prefix]), in
// binary proto, with `token` as the bearer token when set. Throws
// std::invalid_argument on a URL that is not http://.
ChangeLister ServiceChanges(const std::string& url, std::string token);

}  // namespace idres::batch
