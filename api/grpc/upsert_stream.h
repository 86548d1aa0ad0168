// UpsertStreamCall: one UpsertStream, a bidirectional stream of records in
// and their results out, in order. Records read while earlier ones are
// being applied wait, and the next BatchUpsert of the service takes all that
// wait (up to --max-batch, and only records with the same receipt job
// together), so a busy database makes larger shared transactions, as the
// engine does with queued Upserts. It reads no further while kWindow
// records (or kWindowBytes) wait to be applied or answers wait to be sent:
// gRPC's flow control then holds the sender, and memory stays bounded.
//
// A failure of a whole group (the database unavailable, the deadline) ends
// the stream with its status after the answers before it; with receipts,
// sending the unanswered records again applies each once. A stop of the
// server ends it with unavailable after the answers of what it applied, or
// with OK when the client had sent its last record and all are answered.
// Internal to api/grpc/.
//
// Thread-safety: gRPC's reactions and the pool's tasks run at once; all
// state is under mu_, and no gRPC call is made with mu_ held.
#pragma once

#include <deque>
#include <vector>

#include "api/grpc/stream_base.h"
#include "api/idres/v1/identity.grpc.pb.h"

namespace idres::api {

class UpsertStreamCall final
    : public grpc::ServerBidiReactor<v1::UpsertStreamRequest, v1::UpsertStreamResponse>,
      public StreamBase {
 public:
  static constexpr std::size_t kWindow = 1024;
  static constexpr std::size_t kWindowBytes = 16 << 20;

  // Starts the stream; it deletes itself when gRPC is done with it.
  static UpsertStreamCall* Start(const grpc::CallbackServerContext& context,
                                 const IdentityService& service, boost::asio::thread_pool& work,
                                 InFlight& in_flight, Streams& streams);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override { Cancel(); }
  void OnDone() override { Done(); }

 private:
  using StreamBase::StreamBase;

  // What Step() does next, decided under mu_ and done without it.
  struct Next {
    bool read = false;
    bool write = false;
    std::vector<v1::UpsertStreamRequest> apply;
    std::optional<grpc::Status> finish;
  };
  Next Decide();
  void Step() override;
  // On the pool: applies one group and queues its answers.
  void Apply(std::vector<v1::UpsertStreamRequest> group);
  // The records at the front of pending_ that go into one BatchUpsert.
  std::vector<v1::UpsertStreamRequest> TakeGroup();

  v1::UpsertStreamRequest incoming_;   // StartRead's target
  v1::UpsertStreamResponse outgoing_;  // StartWrite's source
  // Under mu_:
  std::deque<v1::UpsertStreamRequest> pending_;
  std::size_t pending_bytes_ = 0;
  std::deque<v1::UpsertStreamResponse> outbox_;
  bool reading_ = false;
  // Reads decided, not yet started: a Step() may start the next read while
  // the one before starts its own after OnReadDone.
  int reads_starting_ = 0;
  bool half_closed_ = false;  // the client sent its last record
  bool applying_ = false;
  bool writing_ = false;
};

}  // namespace idres::api
