// RpcSink: sends import batches to a running idres service instead of the
// database: POST <url>/idres.v1.IdentityService/BatchUpsert with the Connect
// protocol's unary JSON encoding over HTTP/1.1 (api/idres/v1/identity.proto).
//
// A batch too large for one request (the service caps records and body
// bytes) is split into several. Connect errors map onto engine/errors.h so
// the importer retries the same ones it retries against the engine:
// unavailable, resource_exhausted and deadline_exceeded -> UnavailableError
// or BusyError, aborted -> ConflictError, anything else -> InternalError.
// A record the service refuses alone comes back as that record's error.
//
// Thread-safety: BatchUpsert() may be called from many threads at once; each
// call uses its own connection.
#pragma once

#include <string>

#include "batch/upsert_sink.h"

namespace idres::batch {

class RpcSink : public UpsertSink {
 public:
  // `url` is http://host[:port][/prefix]; `token`, when set, is sent as
  // "Authorization: Bearer <token>". Throws std::invalid_argument on a URL
  // that is not http://.
  explicit RpcSink(const std::string& url, std::string token = {});

  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records) override;

 private:
  std::vector<UpsertResult> Post(std::span<const Record> records);

  std::string host_;
  std::string port_;
  std::string target_;
  std::string token_;
};

}  // namespace idres::batch
