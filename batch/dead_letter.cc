#include "batch/dead_letter.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace idres::batch {
namespace {

std::runtime_error IoError(const std::string& what, const std::string& path) {
  return std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

DeadLetterFile::DeadLetterFile(const std::string& path, std::uint64_t keep_bytes) : path_(path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError("cannot open dead-letter file", path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw IoError("cannot read dead-letter file", path);
  }
  if (S_ISREG(st.st_mode)) {  // not /dev/null, say: nothing to lock or cut
    // Two imports appending to one file would tear each other's lines (and
    // share a checkpoint, most likely): the second one stops here.
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      throw std::runtime_error("another process is writing the dead-letter file " + path +
                               "; give each import its own --dead-letter and --checkpoint, each "
                               "consumer its own --dead-letter");
    }
    // Cut back to what the checkpoint counted; never grown (a file deleted
    // meanwhile would start with a run of NUL bytes).
    const auto keep = static_cast<off_t>(keep_bytes);
    if (st.st_size > keep && ::ftruncate(fd, keep) != 0) {
      ::close(fd);
      throw IoError("cannot cut dead-letter file", path);
    }
  }
  file_ = ::fdopen(fd, "a");
  if (file_ == nullptr) {
    ::close(fd);
    throw IoError("cannot open dead-letter file", path);
  }
}

DeadLetterFile::~DeadLetterFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void DeadLetterFile::Append(const DeadLetter& letter) {
  std::string line = DeadLetterLine(letter);
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size()) {
    throw IoError("cannot write dead-letter file", path_);
  }
  ++entries_;
}

std::uint64_t DeadLetterFile::Sync() {
  // EINVAL: a special file (/dev/null), which has nothing to sync.
  if (std::fflush(file_) != 0 || (::fsync(::fileno(file_)) != 0 && errno != EINVAL)) {
    throw IoError("cannot sync dead-letter file", path_);
  }
  off_t end = ::lseek(::fileno(file_), 0, SEEK_END);
  if (end < 0) throw IoError("cannot size dead-letter file", path_);
  return static_cast<std::uint64_t>(end);
}

std::string DeadLetterLine(const DeadLetter& letter) {
  nlohmann::json doc = {{"file", letter.file},
                        {"line", letter.line},
                        {"input", letter.input},
                        {"reason", letter.reason},
                        {"rejected", letter.whole_record ? "record" : "identifiers"}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace idres::batch
