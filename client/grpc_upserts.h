// GrpcUpserts: the benchmark suite's gRPC load generator. Many unary
// Upserts in flight at once, one per slot (a client), on a connection per
// slot (as separate services have) or on fewer shared by the slots (as one
// service's callers share a channel, which gRPC's performance guide
// advises), all driven by the calling thread: the gRPC
// protocol (HTTP/2, the length-prefixed message, the status in the
// trailers) spoken through nghttp2 over plaintext, with nothing in between,
// because the generator shares a core with the server it measures
// (BENCHMARKS.md, "gRPC's load generator on nghttp2"). Applications call
// idres through grpc++ or another gRPC library (client/grpc_client.h).
//
// Thread-safety: one thread per object.
#pragma once

#include <memory>
#include <string>

#include "client/grpc_client.h"
#include "engine/record.h"

namespace idres::client {

class GrpcUpserts {
 public:
  // Connects to `target` ("host:port") for `slots` slots: `connections`
  // connections, slot s's calls on connection s % connections, each
  // connection an HTTP/2 session with as many calls at once as slots on it
  // (a number outside 1..slots: one per slot). Throws when one cannot be
  // made, or when `options` asks for TLS (plaintext only).
  GrpcUpserts(const std::string& target, int slots, GrpcClientOptions options = {},
              int connections = 0);
  ~GrpcUpserts();  // waits for the calls still in flight
  GrpcUpserts(const GrpcUpserts&) = delete;
  GrpcUpserts& operator=(const GrpcUpserts&) = delete;

  // Begins an Upsert of `record` on `slot`'s connection; at most one per
  // slot at a time. Each call is sent once; one unanswered for 60 s ends as
  // deadline_exceeded, and its connection with it (every call open on it).
  void Start(int slot, const Record& record);

  // An answered call: its slot, and the error (empty when it succeeded) as
  // GrpcClient's thrown error would say it ("unauthenticated: ..."). A call
  // on a connection that broke is answered unavailable, as is every later
  // call on its slot.
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
