// A thread of idres's own carries a name, so that `top -H`, `perf`, gdb and
// /proc/PID/task/*/comm tell the engine's threads from the transports'.
#pragma once

#include <pthread.h>

#include <string>
#include <string_view>
#include <thread>

namespace idres {

// Names `thread`, from the thread that started it: the name is set when
// this returns, whatever `thread` has run yet. Linux keeps at most 15 bytes,
// so longer names are cut there. A thread left unnamed carries the name of
// the thread that started it, which is why each of ours is named.
inline void NameThread(std::thread& thread, std::string_view name) {
  const std::string cut(name.substr(0, 15));
  ::pthread_setname_np(thread.native_handle(), cut.c_str());
}

}  // namespace idres
