// WatchChangesCall: one WatchChanges, the change feed pushed to the client:
// from the position it sent, each page ListChanges finds is written as one
// message as soon as the previous one was taken (gRPC's flow control holds
// a slow reader), and once the feed has nothing new the server looks again
// every kIdlePoll, one indexed statement each time (docs/batch.md, "The change
// feed"). Positions are the feed's: a client that keeps the last one it
// processed and calls again after it sees every change once. A stop of the
// server ends the stream with status OK; a failure of the database ends it
// with its status (unavailable), and the client calls again. Internal to
// api/grpc/.
//
// Thread-safety: gRPC's reactions, the pool's tasks and the timer run at
// once; all state is under mu_, and no gRPC call is made with mu_ held.
#pragma once

#include <boost/asio/steady_timer.hpp>

#include <chrono>

#include "api/grpc/stream_base.h"
#include "api/idres/v1/identity.grpc.pb.h"

namespace idres::api {

class WatchChangesCall final : public grpc::ServerWriteReactor<v1::WatchChangesResponse>,
                               public StreamBase {
 public:
  static constexpr std::chrono::milliseconds kIdlePoll{100};

  // Starts the stream; it deletes itself when gRPC is done with it.
  static WatchChangesCall* Start(const grpc::CallbackServerContext& context,
                                 const v1::WatchChangesRequest& request,
                                 const IdentityService& service, boost::asio::thread_pool& work,
                                 InFlight& in_flight, Streams& streams);

  void OnWriteDone(bool ok) override;
  void OnCancel() override { Cancel(); }
  void OnDone() override { Done(); }

 private:
  WatchChangesCall(Call call, std::int64_t after, const IdentityService& service,
                   boost::asio::thread_pool& work, InFlight& in_flight, Streams& streams);

  enum class Task { kNone, kFetch, kWait };
  struct Next {
    Task task = Task::kNone;
    bool write = false;
    std::optional<grpc::Status> finish;
  };
  Next Decide();
  void Step() override;
  // On the pool: reads the next page of the feed.
  void Fetch();

  boost::asio::steady_timer timer_;    // only the task that holds kWait uses it
  v1::WatchChangesResponse outgoing_;  // StartWrite's source
  // Under mu_:
  std::int64_t after_;
  std::optional<v1::WatchChangesResponse> page_;  // read, not yet written
  bool fetch_ = true;                             // look now (else: after kIdlePoll)
  bool busy_ = false;                             // a fetch or a wait is under way
  bool writing_ = false;
};

}  // namespace idres::api
