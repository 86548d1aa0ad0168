// DeadLetterFile: where records that were not imported (or not imported
// whole) go, one JSON object per line:
//   {"file":"people.csv","line":17,"input":"<the record's text>",
//    "reason":"email: not a valid email address","rejected":"record"}
// "rejected" is "record" when nothing of it was written, "identifiers" when
// the record went in without the identifiers the reason names.
//
// Entries are written in input order by the import's committer, so after a
// crash the file can be cut back to the length its checkpoint recorded and
// resumed without duplicates.
//
// Thread-safety: not thread-safe; one owner.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace idres::batch {

struct DeadLetter {
  std::string file;
  std::uint64_t line = 0;
  std::string input;
  std::string reason;
  bool whole_record = true;
};

class DeadLetterFile {
 public:
  // Opens `path` for appending after cutting it to `keep_bytes` (0 creates
  // or empties it; a shorter file is left as it is). A regular file stays
  // locked (flock) while this object lives: a second import on the same
  // file is refused. Throws std::runtime_error when it cannot.
  DeadLetterFile(const std::string& path, std::uint64_t keep_bytes);
  ~DeadLetterFile();
  DeadLetterFile(const DeadLetterFile&) = delete;
  DeadLetterFile& operator=(const DeadLetterFile&) = delete;

  // Appends one entry (buffered).
  void Append(const DeadLetter& letter);

  // Flushes and fsyncs; returns the file's length, which a checkpoint may
  // record. Throws std::runtime_error on an I/O error.
  std::uint64_t Sync();

  std::uint64_t entries() const { return entries_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::uint64_t entries_ = 0;
};

// The JSON line (with '\n') for `letter`; invalid UTF-8 in the input is
// replaced so the line stays valid JSON.
std::string DeadLetterLine(const DeadLetter& letter);

}  // namespace idres::batch
