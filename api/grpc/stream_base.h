// StreamBase: what the two stream reactors (api/grpc/upsert_stream.h,
// api/grpc/watch_changes.h) share: the call, its refusal or registration
// (Streams), a stop, a cancel, and the end of its life. gRPC says when it is
// done with a reactor (OnDone), but a task of ours may still hold it (a
// group being applied on the pool, a timer); it deletes itself when both
// are over. A stream is recorded in the metrics once, when it ends, with
// the code it ended with. Internal to api/grpc/.
//
// Thread-safety: state is under mu_ (std::mutex, see api/grpc/streams.h);
// the derived reactor's Step() decides under it and calls gRPC without it.
#pragma once

#include <boost/asio/thread_pool.hpp>

#include <mutex>
#include <optional>

#include "api/grpc/grpc_call.h"
#include "api/grpc/streams.h"

namespace idres::api {

class StreamBase : public Stream {
 public:
  // Ends the stream soon: Step() sees stopping_.
  void Stop() final;

 protected:
  StreamBase(Call call, const IdentityService& service, boost::asio::thread_pool& work,
             InFlight& in_flight, Streams& streams);

  // From the reactor's Start, before its first Step(): refuses the call for
  // its token, its deadline or (for a caller who may make it) `invalid`, or
  // registers it for a stop.
  void Open(std::optional<RpcError> invalid);
  // The reactor's OnCancel: the client ended the call.
  void Cancel();
  // The reactor's OnDone.
  void Done();
  // Sets failure_ unless one is set; with mu_ held.
  void Fail(RpcError error);
  // With mu_ held, once failure_ or stopping_ (or the stream's own end) has
  // ended the stream: the status to finish with (`on_stop` when stopped),
  // kept for the metrics.
  grpc::Status End(const grpc::Status& on_stop);
  // A task of ours lets the stream go (it took ++holds_ under mu_).
  void Release();
  // Decides what to do next and does it.
  virtual void Step() = 0;

  Call call_;  // its caller set once, by Open
  const IdentityService& service_;
  boost::asio::thread_pool& work_;
  std::mutex mu_;  // guards what follows
  std::optional<RpcError> failure_;
  bool stopping_ = false;
  bool finished_ = false;  // Finish() was decided
  int holds_ = 0;          // tasks of ours that still use the stream

 private:
  InFlight& in_flight_;
  Streams& streams_;
  std::optional<Code> code_;  // the end's, for the metrics
  // Refused by Authorize or Start, which recorded it (or, unauthenticated,
  // did not, as a unary call without a token is not): not recorded again.
  bool recorded_ = false;
  bool done_ = false;  // gRPC is done with the stream
};

}  // namespace idres::api
