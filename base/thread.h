// A thread of idres's own names itself, so that `top -H`, `perf`, gdb and
// /proc/PID/task/*/comm tell the engine's threads from the transports'.
#pragma once

#include <pthread.h>

#include <string>
#include <string_view>

namespace idres {

// Names the calling thread; Linux keeps at most 15 bytes, so longer names
// are cut there. A thread started later inherits the name of the thread
// that starts it until it names itself, which is why each of ours does.
inline void NameThisThread(std::string_view name) {
  const std::string cut(name.substr(0, 15));
  ::pthread_setname_np(::pthread_self(), cut.c_str());
}

}  // namespace idres
