#include "api/grpc/stream_base.h"

#include <boost/asio/post.hpp>

namespace idres::api {

StreamBase::StreamBase(Call call, const IdentityService& service, boost::asio::thread_pool& work,
                       InFlight& in_flight, Streams& streams)
    : call_(std::move(call)),
      service_(service),
      work_(work),
      in_flight_(in_flight),
      streams_(streams) {
  in_flight_.Begin();
}

void StreamBase::Open(std::optional<RpcError> invalid) {
  // The caller first, as for a unary call: a request no one may make
  // learns nothing of what is wrong with it. Authorize and Start record
  // their refusals; the stream's own is recorded when it ends.
  std::optional<RpcError> refused = service_.Authorize(call_);
  if (!refused) refused = service_.Start(call_);
  recorded_ = refused.has_value();
  if (!refused) refused = std::move(invalid);
  const bool open = !refused && streams_.Add(this);
  std::lock_guard lock(mu_);
  failure_ = std::move(refused);
  // Never cleared here: a stop may have come between Add and this lock.
  if (!open && !failure_) stopping_ = true;
}

void StreamBase::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    ++holds_;
  }
  boost::asio::post(work_, [this] {
    Step();
    Release();
  });
}

void StreamBase::Cancel() {
  {
    std::lock_guard lock(mu_);
    Fail({Code::kCanceled, "the call was cancelled"});
  }
  Step();
}

void StreamBase::Fail(RpcError error) {
  if (!failure_) failure_ = std::move(error);
}

grpc::Status StreamBase::End(const grpc::Status& on_stop) {
  finished_ = true;
  if (failure_) {
    code_ = failure_->code;
    return ToStatus(*failure_);
  }
  if (stopping_) {
    code_ = CodeNumbered(static_cast<int>(on_stop.error_code()));
    return on_stop;
  }
  return grpc::Status::OK;
}

void StreamBase::Done() {
  streams_.Remove(this);
  std::optional<Code> code;
  bool last = false;
  {
    std::lock_guard lock(mu_);
    code = code_;
    done_ = true;
    last = holds_ == 0;
  }
  if (!recorded_) service_.Observe(call_, code);
  in_flight_.End();
  if (last) delete this;
}

void StreamBase::Release() {
  bool last = false;
  {
    std::lock_guard lock(mu_);
    last = --holds_ == 0 && done_;
  }
  if (last) delete this;
}

}  // namespace idres::api
