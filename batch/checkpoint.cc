#include "batch/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "normalize/utf8.h"

namespace idres::batch {
namespace {

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

bool WriteAll(int fd, const std::string& data) {
  std::size_t written = 0;
  while (written < data.size()) {
    ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

// fsync of the directory makes the rename itself durable.
void SyncDirectoryOf(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

std::string AsStored(const std::string& fingerprint) { return ToValidUtf8(fingerprint); }

std::optional<std::string> WriteCheckpoint(const std::string& path, const Checkpoint& checkpoint) {
  nlohmann::json doc = {
      {"fingerprint", AsStored(checkpoint.fingerprint)},
      {"file_index", checkpoint.file_index},
      {"offset", checkpoint.offset},
      {"dead_letter_bytes", checkpoint.dead_letter_bytes},
      {"complete", checkpoint.complete},
      {"summary", nlohmann::json::parse(checkpoint.summary.ToJson())},
  };
  std::string data = doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot create " + tmp);
  bool ok = WriteAll(fd, data) && ::fsync(fd) == 0;
  std::string error = ok ? "" : Errno("cannot write " + tmp);
  ::close(fd);
  if (!ok) return error;
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return Errno("cannot rename " + tmp);
  SyncDirectoryOf(path);
  return std::nullopt;
}

std::variant<Checkpoint, std::string> ReadCheckpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "no checkpoint file " + path;
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return path + " is not a checkpoint";
  try {
    Checkpoint c;
    c.fingerprint = doc.at("fingerprint").get<std::string>();
    c.file_index = doc.at("file_index").get<std::size_t>();
    c.offset = doc.at("offset").get<std::uint64_t>();
    c.dead_letter_bytes = doc.at("dead_letter_bytes").get<std::uint64_t>();
    c.complete = doc.at("complete").get<bool>();
    auto summary = ImportSummary::FromJson(doc.at("summary").dump());
    if (!summary) return path + " has no valid summary";
    c.summary = *summary;
    return c;
  } catch (const nlohmann::json::exception&) {
    return path + " is not a checkpoint";
  }
}

}  // namespace idres::batch
