// ReplaceFile: writes a file so that a reader (or a crash) sees either the
// old file or the whole new one, never a torn one: a temporary file beside
// it, fsync, rename over it, fsync of the directory (which makes the rename
// itself durable). Nothing is left behind when it fails.
// A free function; thread-safe for different paths.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

namespace idres {

// Replaces the file at `path` with `data`; an error message when it
// cannot (a missing directory, no permission, a full disk).
inline std::optional<std::string> ReplaceFile(const std::string& path, const std::string& data) {
  const auto failed = [](const std::string& what) { return what + ": " + std::strerror(errno); };
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return failed("cannot create " + tmp);
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  const bool ok = written == data.size() && ::fsync(fd) == 0;
  const std::string error = ok ? "" : failed("cannot write " + tmp);
  ::close(fd);
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) {
    std::string dir = std::filesystem::path(path).parent_path().string();
    const int dir_fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd >= 0) {
      ::fsync(dir_fd);
      ::close(dir_fd);
    }
    return std::nullopt;
  }
  const std::string why = ok ? failed("cannot rename " + tmp) : error;
  std::remove(tmp.c_str());
  return why;
}

}  // namespace idres
