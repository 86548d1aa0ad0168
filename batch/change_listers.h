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

// Engine::ListChanges of an engine on `options`, opened at the first call
// and again after an opening failed: a database that is down when a
// follower starts is one more retryable failure (UnavailableError), as a
// restart while it runs.
ChangeLister EngineChanges(EngineOptions options);

// ListChanges of the service at `url` (http://host[:port][/prefix]), in
// binary proto, with `token` as the bearer token when set. Throws
// std::invalid_argument on a URL that is not http://.
ChangeLister ServiceChanges(const std::string& url, std::string token);

}  // namespace idres::batch
