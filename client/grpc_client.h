// GrpcClient: a C++ gRPC client of `idres serve --grpc-listen`, for the
// benchmark suite and the tests: unary Upsert and one UpsertStream, on a
// channel of its own (its own HTTP/2 connection). A status other than OK
// is thrown as client/status_errors.h maps it. grpc++ stays inside.
//
// Thread-safety: one thread per object.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/record.h"

namespace idres::client {

struct GrpcClientOptions {
  bool tls = false;      // with the server's certificate as the trusted root
  std::string root_pem;  // that certificate (PEM), with tls
  std::string token;     // sent as "authorization: Bearer <token>" when set
};

class GrpcClient {
 public:
  // A channel to `target` ("host:port"); connects on the first call.
  explicit GrpcClient(const std::string& target, GrpcClientOptions options = {});
  ~GrpcClient();
  GrpcClient(const GrpcClient&) = delete;
  GrpcClient& operator=(const GrpcClient&) = delete;

  // The store's counts (Stats).
  StoreStats Stats();

  // One Upsert of `record`.
  UpsertResult Upsert(const Record& record);

  // Sends `records` through one UpsertStream (with receipt job `job` and
  // items first_item, first_item + 1, ... when set) while reading the
  // answers into `answered`, one per record, in order. Throws when the
  // stream ends with an error; `answered` then holds the records answered
  // before it (with receipts, send the rest again).
  void UpsertStream(std::span<const Record> records, std::optional<std::int64_t> job,
                    std::int64_t first_item, std::vector<UpsertResult>& answered);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace idres::client
