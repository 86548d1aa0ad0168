#include "normalize/lock_key.h"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using idres::CompositeLockKey;
using idres::Identifier;
using idres::LockKey;

std::string Hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

// Runs `script` with node, reading `lines` (one hex-encoded UTF-8 value per
// line) from a temporary file named by argv[1]; returns node's output lines.
std::vector<std::string> RunNode(const std::string& script, const std::vector<std::string>& lines) {
  char path[] = "/tmp/idres_lock_key_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  {
    std::ofstream file(path);
    for (const std::string& line : lines) file << line << "\n";
  }
  const std::string command = "/usr/bin/node -e '" + script + "' " + path;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  std::remove(path);
  REQUIRE(status == 0);
  std::vector<std::string> out;
  std::istringstream stream(output);
  for (std::string line; std::getline(stream, line);) out.push_back(line);
  return out;
}

// The contract as docs/design.md states it for Node.js: the string is UTF-8 encoded by update().
const char* kNodeKey =
    "const c=require(\"crypto\");"
    "const "
    "lines=require(\"fs\").readFileSync(process.argv[1],\"utf8\").split(\"\\n\").filter(l=>l);"
    "for(const h of lines){const s=Buffer.from(h,\"hex\").toString(\"utf8\");"
    "console.log(c.createHash(\"sha256\").update(s).digest().readBigInt64BE(0).toString());}";

// Composite: each line is a tab-separated list of hex parts "<type>:<value>";
// sorted bytewise (Buffer.compare, not JS string order), joined with U+001F.
const char* kNodeComposite =
    "const c=require(\"crypto\");"
    "const "
    "lines=require(\"fs\").readFileSync(process.argv[1],\"utf8\").split(\"\\n\").filter(l=>l);"
    "for(const l of lines){const parts=l.split(\"\\t\").map(h=>Buffer.from(h,\"hex\"));"
    "parts.sort(Buffer.compare);"
    "const s=Buffer.concat(parts.flatMap((p,i)=>i?[Buffer.from([0x1f]),p]:[p])).toString(\"utf8\");"
    "console.log(c.createHash(\"sha256\").update(s).digest().readBigInt64BE(0).toString());}";

const std::vector<Identifier>& Samples() {
  static const std::vector<Identifier> samples = {
      {"email", "anna@example.com"},
      {"email", "anna@xn--bcher-kva.de"},
      {"email", "ärger@example.com"},
      {"email", "i\u0307stanbul@example.com"},
      {"email", ""},
      {"phone", "+491701234567"},
      {"phone", "+16502530000"},
      {"cookie", "7f3a-ABC"},
      {"cookie", "Caf\u00e9"},
      {"cookie", "\uFF21\uFF22\uFF23"},
      {"device_id", "😀"},
      {"customer_id", "C-42"},
      {"name", "jose muller"},
      {"name", "mhmd \u02bfly"},
      {"name", "山田"},
      {"birth_date", "1990-07-04"},
      {"postal_code", "SW1A1AA"},
      {"postal_code", "STRASSE1"},
      {"", ""},
      {"type:with:colons", "v"},
      {"email", "x@y.z"},
      {"email", std::string(254, 'a')},
      {"cookie", "\u05e9\u05dc\u05d5\u05dd"},
      {"name", "\U0001F600\U00010348"},
      {"cookie", "\uffff\ue000"},
      {"phone", "+999"},
      {"name", "vladimir putin"},
      {"name", "elene papadopoulou"},
      {"email", "anna@example.com "},
      {"email", "ANNA@EXAMPLE.COM"},
  };
  return samples;
}

}  // namespace

TEST_CASE("lock key of the documented example", "[normalize][lock_key]") {
  CHECK(LockKey("email", "anna@example.com") == -3172799000671390164);
  CHECK(LockKey(Identifier{"email", "anna@example.com"}) == -3172799000671390164);
  CHECK(idres::KeyOfBytes("email:anna@example.com") == -3172799000671390164);
  CHECK(LockKey("email", "Anna@example.com") != LockKey("email", "anna@example.com"));
  CHECK(LockKey("cookie", "anna@example.com") != LockKey("email", "anna@example.com"));
}

TEST_CASE("lock keys agree with Node.js", "[normalize][lock_key]") {
  std::vector<std::string> hex;
  for (const Identifier& id : Samples()) hex.push_back(Hex(id.type + ":" + id.value));
  const std::vector<std::string> node = RunNode(kNodeKey, hex);
  REQUIRE(node.size() == Samples().size());
  for (std::size_t i = 0; i < node.size(); ++i) {
    INFO(Samples()[i].type << ":" << Samples()[i].value);
    CHECK(std::to_string(LockKey(Samples()[i])) == node[i]);
  }
}

TEST_CASE("composite lock keys: documented example, order-free, agree with Node.js",
          "[normalize][lock_key]") {
  // docs/design.md's example: a blocking key of rule postal_code_initials.
  const std::vector<Identifier> example = {{"postal_code_initials.name.initials", "j"},
                                           {"postal_code_initials.postal_code.value", "SW1A1AA"}};
  const std::vector<Identifier> reversed(example.rbegin(), example.rend());
  CHECK(CompositeLockKey(example) == CompositeLockKey(reversed));
  CHECK(CompositeLockKey(example) ==
        idres::KeyOfBytes("postal_code_initials.name.initials:j\x1f"
                          "postal_code_initials.postal_code.value:SW1A1AA"));
  CHECK(CompositeLockKey(example) == -6345957705081842510);
  // One part alone is the plain lock key.
  CHECK(CompositeLockKey(std::vector<Identifier>{{"email", "anna@example.com"}}) ==
        -3172799000671390164);

  // Parts whose UTF-8 order differs from JavaScript's UTF-16 order (U+FFFF vs U+1F600).
  const std::vector<std::vector<Identifier>> sets = {
      example,
      {{"cookie", "\uffff"}, {"cookie", "\U0001F600"}},
      {{"name", "ärger"}, {"name", "zeta"}, {"email", "a@b.c"}, {"phone", "+491701234567"}},
      {{"email", "anna@example.com"}},
  };
  std::vector<std::string> lines;
  for (const auto& set : sets) {
    std::string line;
    for (const Identifier& id : set)
      line += (line.empty() ? "" : "\t") + Hex(id.type + ":" + id.value);
    lines.push_back(line);
  }
  const std::vector<std::string> node = RunNode(kNodeComposite, lines);
  REQUIRE(node.size() == sets.size());
  for (std::size_t i = 0; i < sets.size(); ++i) {
    CHECK(std::to_string(CompositeLockKey(sets[i])) == node[i]);
  }
}
