#include "api/grpc/watch_changes.h"

#include <boost/asio/post.hpp>

#include <utility>

namespace idres::api {

WatchChangesCall* WatchChangesCall::Start(const grpc::CallbackServerContext& context,
                                          const v1::WatchChangesRequest& request,
                                          const IdentityService& service,
                                          boost::asio::thread_pool& work, InFlight& in_flight,
                                          Streams& streams) {
  auto* stream = new WatchChangesCall(CallOf(context, "WatchChanges"), request.after_position(),
                                      service, work, in_flight, streams);
  std::optional<RpcError> refused;
  if (request.after_position() < 0) {
    refused = RpcError{Code::kInvalidArgument, "afterPosition must not be negative"};
  }
  stream->Open(std::move(refused));
  stream->Step();
  return stream;
}

WatchChangesCall::WatchChangesCall(Call call, std::int64_t after, const IdentityService& service,
                                   boost::asio::thread_pool& work, InFlight& in_flight,
                                   Streams& streams)
    : StreamBase(std::move(call), service, work, in_flight, streams),
      timer_(work.get_executor()),
      after_(after) {}

WatchChangesCall::Next WatchChangesCall::Decide() {
  Next next;
  if (finished_) return next;
  if (failure_ || stopping_) {
    // A fetch or a wait still under way holds the call alive; its result
    // is dropped, and the client asks again after its last position.
    if (writing_) return next;
    next.finish = End(grpc::Status::OK);
    return next;
  }
  if (!writing_ && page_) {
    outgoing_ = std::move(*page_);
    page_.reset();
    writing_ = next.write = true;
  }
  if (!busy_ && !writing_ && !page_) {
    busy_ = true;
    ++holds_;
    next.task = fetch_ ? Task::kFetch : Task::kWait;
  }
  return next;
}

void WatchChangesCall::Step() {
  Next next;
  {
    std::lock_guard lock(mu_);
    next = Decide();
  }
  if (next.task == Task::kFetch) {
    boost::asio::post(work_, [this] { Fetch(); });
  } else if (next.task == Task::kWait) {
    timer_.expires_after(kIdlePoll);
    timer_.async_wait([this](const boost::system::error_code&) {
      {
        std::lock_guard lock(mu_);
        busy_ = false;
        fetch_ = true;
      }
      Step();
      Release();
    });
  }
  if (next.write) StartWrite(&outgoing_);
  if (next.finish) Finish(*next.finish);
}

void WatchChangesCall::Fetch() {
  v1::ListChangesRequest request;
  {
    std::lock_guard lock(mu_);
    request.set_after_position(after_);
  }
  auto reply = service_.Apply<&IdentityMethods::ListChanges>(call_, request);
  {
    std::lock_guard lock(mu_);
    busy_ = false;
    if (auto* error = std::get_if<RpcError>(&reply)) {
      Fail(std::move(*error));
    } else {
      auto& found = std::get<v1::ListChangesResponse>(reply);
      after_ = found.next_after_position();
      fetch_ = found.changes_size() > 0;  // a full page may have more behind it
      if (fetch_) {
        page_.emplace();
        page_->mutable_changes()->Swap(found.mutable_changes());
      }
    }
  }
  Step();
  Release();
}

void WatchChangesCall::OnWriteDone(bool ok) {
  {
    std::lock_guard lock(mu_);
    writing_ = false;
    if (!ok) Fail({Code::kCanceled, "the client went away"});
  }
  Step();
}

}  // namespace idres::api
