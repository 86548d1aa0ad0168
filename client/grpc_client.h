// GrpcClient: a C++ gRPC client of `idres serve --grpc-listen`, for the
// benchmark suite and the tests: unary Upsert and one UpsertStream, on a
// channel of its own (its own HTTP/2 connection). A status other than OK
// is thrown as client/status_errors.h maps it. GrpcUpserts: many unary
// Upserts in flight from one thread, the suite's gRPC load generator.
// grpc++ stays inside.
//
// Thread-safety: one thread per object, of either class.
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

// GrpcUpserts: many unary Upserts in flight at once, each on the channel of
// its slot (a connection of its own, as a separate client has), all driven
// by the calling thread through one completion queue — grpc++'s asynchronous
// API, with no thread per call: how a load generator keeps `slots` calls
// outstanding at the least cost of its own. Its channels have no retries
// (each call is sent once, and one that fails is answered with its error)
// and grpc's minimal stack of filters.
//
// Thread-safety: one thread per object.
class GrpcUpserts {
 public:
  GrpcUpserts(const std::string& target, int slots, GrpcClientOptions options = {});
  ~GrpcUpserts();  // waits for the calls still in flight
  GrpcUpserts(const GrpcUpserts&) = delete;
  GrpcUpserts& operator=(const GrpcUpserts&) = delete;

  // Begins an Upsert of `record` on `slot`'s channel; at most one per slot
  // at a time.
  void Start(int slot, const Record& record);

  // An answered call: its slot, and the error (empty when it succeeded) as
  // GrpcClient's thrown error would say it ("unauthenticated: ...").
  struct Answer {
    int slot = 0;
    std::string error;
  };
  // Waits for the next call to end. Only while one is in flight.
  Answer Next();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace idres::client
