// WorkQueue: a bounded blocking queue between the import's reader and its
// workers; the bound keeps memory flat however large the input is.
//
// Thread-safety: all methods may be called from any thread.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>

#include "base/mutex.h"

namespace idres::batch {

template <typename T>
class WorkQueue {
 public:
  explicit WorkQueue(std::size_t capacity) : capacity_(capacity) {}

  // Blocks while full; false (item dropped) once Close() was called.
  bool Push(T item) EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    while (!closed_ && items_.size() >= capacity_) not_full_.Wait(&mutex_);
    if (closed_) return false;
    items_.push_back(std::move(item));
    not_empty_.NotifyOne();
    return true;
  }

  // Blocks while empty; nullopt once closed and drained.
  std::optional<T> Pop() EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    while (!closed_ && items_.empty()) not_empty_.Wait(&mutex_);
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.NotifyOne();
    return item;
  }

  // No more pushes; Pop() drains what is left, then returns nullopt.
  void Close() EXCLUDES(mutex_) {
    MutexLock lock(&mutex_);
    closed_ = true;
    not_empty_.NotifyAll();
    not_full_.NotifyAll();
  }

 private:
  const std::size_t capacity_;
  Mutex mutex_;
  CondVar not_empty_;
  CondVar not_full_;
  std::deque<T> items_ GUARDED_BY(mutex_);
  bool closed_ GUARDED_BY(mutex_) = false;
};

}  // namespace idres::batch
