// RpcSink: sends import batches to a running idres service instead of the
// database: POST <url>/idres.v1.IdentityService/BatchUpsert with the Connect
// protocol's unary JSON encoding over HTTP/1.1 (api/idres/v1/identity.proto).
//
// A batch too large for one request (the service caps records and body
// bytes) is split into several. A receipt (engine/record.h, BatchReceipt)
// travels with its records, split alike, so the service applies each record
// of a resumed import once; ForgetReceipts() calls the service's
// ForgetReceipts. Connect error codes map onto engine/errors.h
// (batch/service_call.h) so the importer retries the same ones it retries
// against the engine; resource_exhausted (the request's size, see below)
// splits the request.
// A record the service refuses alone comes back as that record's error; so
// does one with a trait JSON cannot carry (not UTF-8), which is never sent.
// An identifier that is not UTF-8 is left out and rejected, as the engine
// would. A request the service refuses for its size is halved until only
// the record it cannot take is refused.
//
// Thread-safety: BatchUpsert() may be called from many threads at once; each
// call uses its own connection.
#pragma once

#include <string>
#include <vector>

#include "batch/service_call.h"
#include "batch/upsert_sink.h"

namespace idres::batch {

class RpcSink : public UpsertSink {
 public:
  // `url` is http://host[:port][/prefix]; `token`, when set, is sent as
  // "Authorization: Bearer <token>". Throws std::invalid_argument on a URL
  // that is not http://.
  explicit RpcSink(const std::string& url, std::string token = {});

  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records) override;
  std::vector<UpsertResult> BatchUpsert(std::span<const Record> records,
                                        const BatchReceipt& receipt) override;
  void ForgetReceipts(std::int64_t job) override;

 private:
  // Splits `records` into requests; `receipt` may be null.
  std::vector<UpsertResult> Send(std::span<const Record> records, const BatchReceipt* receipt);
  // Posts the records `indexes` of the batch (their JSON in `jsons`) and
  // puts their results there in `results`; a request the service refuses
  // for its size is halved, down to the single record it cannot take,
  // which gets that as its error. `receipt` (may be null) is the batch's.
  void PostSplitting(const std::vector<std::size_t>& indexes, const std::vector<std::string>& jsons,
                     const BatchReceipt* receipt, std::vector<UpsertResult>& results);
  // One BatchUpsert request of `record_jsons` (RecordJson); `receipt` (may
  // be null) matches them.
  std::vector<UpsertResult> PostBatch(const std::vector<std::string>& record_jsons,
                                      const BatchReceipt* receipt);
  // POSTs `body` to the service's `method`; the 200 response's body, or
  // throws (see the file comment).
  std::string Call(const std::string& method, std::string body);

  ServiceUrl url_;
  std::string token_;
};

}  // namespace idres::batch
