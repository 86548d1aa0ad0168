// Streams: the gRPC streams now open, so that a stop can end them: an
// UpsertStream answers what it applied and ends, a WatchChanges ends with
// status OK. Internal to api/grpc/.
//
// Thread-safety: every method may be called from any thread. StopAll calls
// each stream's Stop() with the registry locked, so a stream cannot leave
// (Remove, from its OnDone) while it is being stopped. The gRPC files lock
// with std::mutex, not base/mutex.h: grpc++'s Abseil headers define the same
// annotation macros.
#pragma once

#include <set>

#include <mutex>

namespace idres::api {

class Stream {
 public:
  virtual ~Stream() = default;
  // Asks the stream to end soon; must not call into gRPC or block.
  virtual void Stop() = 0;
};

class Streams {
 public:
  // Registers `stream`; false when a stop has begun (the stream should end).
  bool Add(Stream* stream) {
    std::lock_guard lock(mu_);
    if (stopping_) return false;
    open_.insert(stream);
    return true;
  }
  void Remove(Stream* stream) {
    std::lock_guard lock(mu_);
    open_.erase(stream);
  }
  // Stops every stream open now, and refuses those that come later.
  void StopAll() {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (Stream* stream : open_) stream->Stop();
  }

 private:
  std::mutex mu_;  // guards what follows
  std::set<Stream*> open_;
  bool stopping_ = false;
};

}  // namespace idres::api
