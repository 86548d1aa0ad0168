// Fuzz target: the tokens file (api/service/tokens_file.h). A file that
// reads has valid names, 32-byte digests, at least one role, limits that are
// positive or none, no digest twice, and each entry printed as the file's
// lines reads back to the same entry; a file that does not read is refused
// with a line number and a reason. Never a crash.
#include <cstdint>
#include <set>
#include <string_view>

#include "api/service/tokens_file.h"
#include "tests/fuzz/property.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace idres::api;
  using idres::fuzz::Expect;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parsed = ParseTokensFile(input);
  if (const auto* error = std::get_if<std::string>(&parsed)) {
    Expect(error->rfind("line ", 0) == 0, "a refusal names its line", input);
    return 0;
  }
  std::set<TokenDigest> digests;
  for (const TokenEntry& entry : std::get<TokenTable>(parsed)) {
    Expect(ValidTokenName(entry.name), "valid name", input);
    Expect(entry.roles != 0 && (entry.roles & ~kAllRoles) == 0, "known roles", input);
    Expect(entry.rate >= 0 && entry.concurrency >= 0, "limits positive or none", input);
    Expect(digests.insert(entry.sha256).second, "no digest twice", input);
    const auto again = ParseTokensFile(TokensFileEntry(entry));
    Expect(std::holds_alternative<TokenTable>(again), "an entry printed reads back", input);
    const TokenTable& one = std::get<TokenTable>(again);
    Expect(one.size() == 1 && one[0].name == entry.name && one[0].sha256 == entry.sha256 &&
               one[0].roles == entry.roles && one[0].rate == entry.rate &&
               one[0].concurrency == entry.concurrency,
           "an entry printed reads back to itself", input);
  }
  return 0;
}
