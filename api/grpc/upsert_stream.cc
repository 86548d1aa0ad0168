#include "api/grpc/upsert_stream.h"

#include <boost/asio/post.hpp>

#include <utility>

namespace idres::api {

UpsertStreamCall* UpsertStreamCall::Start(const grpc::CallbackServerContext& context,
                                          const IdentityService& service,
                                          boost::asio::thread_pool& work, InFlight& in_flight,
                                          Streams& streams) {
  auto* stream =
      new UpsertStreamCall(CallOf(context, "UpsertStream"), service, work, in_flight, streams);
  stream->Open(std::nullopt);
  stream->Step();
  return stream;
}

UpsertStreamCall::Next UpsertStreamCall::Decide() {
  Next next;
  if (finished_) return next;
  const bool ending = failure_ || stopping_;
  if (!writing_ && !outbox_.empty()) {
    outgoing_ = std::move(outbox_.front());
    outbox_.pop_front();
    writing_ = next.write = true;
  }
  if (!applying_ && !ending && !pending_.empty() && outbox_.size() < kWindow) {
    next.apply = TakeGroup();
    applying_ = true;
    ++holds_;
  }
  if (!reading_ && !half_closed_ && !ending && pending_.size() < kWindow &&
      pending_bytes_ < kWindowBytes && outbox_.size() < kWindow) {
    reading_ = next.read = true;
    ++reads_starting_;
  }
  // Every record the client sent is applied (once nothing is applying): a
  // stop that comes now leaves nothing unanswered.
  const bool complete = half_closed_ && pending_.empty();
  // Not while another Step() has yet to start the read it decided: after
  // Finish, gRPC may be done with the stream before that read starts.
  if ((complete || ending) && !applying_ && !writing_ && outbox_.empty() && reads_starting_ == 0) {
    next.finish = End(complete ? grpc::Status::OK
                               : grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                              "the server is stopping; send the unanswered "
                                              "records again"));
  }
  return next;
}

std::vector<v1::UpsertStreamRequest> UpsertStreamCall::TakeGroup() {
  std::vector<v1::UpsertStreamRequest> group;
  const bool receipts = pending_.front().has_receipt();
  const auto job = pending_.front().receipt().job();
  while (!pending_.empty() && group.size() < service_.options().limits.max_batch &&
         pending_.front().has_receipt() == receipts && pending_.front().receipt().job() == job) {
    pending_bytes_ -= pending_.front().ByteSizeLong();
    group.push_back(std::move(pending_.front()));
    pending_.pop_front();
  }
  return group;
}

void UpsertStreamCall::Step() {
  // Again after starting a read: the end another Step() may have left to
  // this one (Decide finishes no stream while a decided read is unstarted).
  for (bool again = true; again;) {
    Next next;
    {
      std::lock_guard lock(mu_);
      next = Decide();
    }
    if (!next.apply.empty()) {
      boost::asio::post(
          work_, [this, group = std::move(next.apply)]() mutable { Apply(std::move(group)); });
    }
    if (next.write) StartWrite(&outgoing_);
    again = next.read;
    if (next.read) {
      StartRead(&incoming_);
      std::lock_guard lock(mu_);
      --reads_starting_;
    }
    if (next.finish) Finish(*next.finish);
  }
}

void UpsertStreamCall::Apply(std::vector<v1::UpsertStreamRequest> group) {
  v1::BatchUpsertRequest batch;
  for (auto& one : group) {
    *batch.add_records() = std::move(*one.mutable_record());
    if (one.has_receipt()) {
      batch.mutable_receipt()->set_job(one.receipt().job());
      batch.mutable_receipt()->add_items(one.receipt().item());
    }
  }
  auto reply = service_.Apply<&IdentityMethods::BatchUpsert>(call_, batch);
  {
    std::lock_guard lock(mu_);
    applying_ = false;
    if (auto* error = std::get_if<RpcError>(&reply)) {
      Fail(std::move(*error));
    } else {
      for (auto& result : *std::get<v1::BatchUpsertResponse>(reply).mutable_results()) {
        *outbox_.emplace_back().mutable_result() = std::move(result);
      }
    }
  }
  Step();
  Release();
}

void UpsertStreamCall::OnReadDone(bool ok) {
  {
    std::lock_guard lock(mu_);
    reading_ = false;
    if (ok) {
      pending_bytes_ += incoming_.ByteSizeLong();
      pending_.push_back(std::move(incoming_));
      incoming_.Clear();
    } else {
      half_closed_ = true;
    }
  }
  Step();
}

void UpsertStreamCall::OnWriteDone(bool ok) {
  {
    std::lock_guard lock(mu_);
    writing_ = false;
    if (!ok) Fail({Code::kCanceled, "the client went away"});
  }
  Step();
}

}  // namespace idres::api
