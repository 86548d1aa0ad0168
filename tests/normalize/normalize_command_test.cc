// `idres normalize`, run as a process: the built binary comes from env IDRES_BINARY.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

struct Outcome {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Per process: ctest runs test cases as parallel processes.
std::string TempPath(const char* name) {
  return "/tmp/idres_normalize_cmd_" + std::to_string(::getpid()) + "_" + name;
}

std::string Slurp(const std::string& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// Runs `idres normalize <args>` with `input` on stdin.
Outcome RunNormalize(const std::string& input, const std::string& args = "") {
  const char* binary = std::getenv("IDRES_BINARY");
  REQUIRE(binary != nullptr);
  const std::string in = TempPath("in"), out = TempPath("out"), err = TempPath("err");
  std::ofstream(in) << input;
  const std::string command =
      std::string(binary) + " normalize " + args + " < " + in + " > " + out + " 2> " + err;
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  Outcome outcome{WEXITSTATUS(status), Slurp(out), Slurp(err)};
  for (const auto& path : {in, out, err}) std::remove(path.c_str());
  return outcome;
}

}  // namespace

TEST_CASE("normalize command: one output line per input, keys as strings", "[normalize][cli]") {
  const Outcome o = RunNormalize(
      "{\"type\":\"phone\",\"value\":\"0170 1234567\",\"region\":\"DE\"}\n"
      "{\"type\":\"email\",\"value\":\" Anna@Example.com\"}\n"
      "{\"type\":\"phone\",\"value\":\"hello\"}\n"
      "\n"
      "{\"type\":\"name\",\"value\":\"  José  MÜLLER \"}\n");
  CHECK(o.exit_code == 0);
  CHECK(o.out ==
        "{\"key\":\"-5006925805834611004\",\"type\":\"phone\",\"value\":\"+491701234567\"}\n"
        "{\"key\":\"-3172799000671390164\",\"type\":\"email\",\"value\":\"anna@example.com\"}\n"
        "{\"error\":\"not a phone number\",\"input\":\"hello\",\"type\":\"phone\"}\n"
        "{\"key\":\"-1783991146182071668\",\"type\":\"name\",\"value\":\"jose muller\"}\n");
}

TEST_CASE("normalize command: a line that is JSON but not a record is rejected, not fatal",
          "[normalize][cli]") {
  const Outcome o =
      RunNormalize("[1,2]\n{\"type\":\"email\"}\n{\"type\":\"shoe\",\"value\":\"9\"}\n");
  CHECK(o.exit_code == 0);
  CHECK(o.out ==
        "{\"error\":\"expected an object with string fields \\\"type\\\" and \\\"value\\\"\","
        "\"input\":\"[1,2]\",\"type\":\"\"}\n"
        "{\"error\":\"expected an object with string fields \\\"type\\\" and \\\"value\\\"\","
        "\"input\":\"{\\\"type\\\":\\\"email\\\"}\",\"type\":\"email\"}\n"
        "{\"error\":\"unknown identifier type\",\"input\":\"9\",\"type\":\"shoe\"}\n");
}

TEST_CASE("normalize command: a line that is not JSON exits 2 and names the line",
          "[normalize][cli]") {
  const Outcome o = RunNormalize(
      "{\"type\":\"email\",\"value\":\"a@b.co\"}\nnot "
      "json\n{\"type\":\"email\",\"value\":\"c@d.co\"}\n");
  CHECK(o.exit_code == 2);
  CHECK(o.out.find("a@b.co") != std::string::npos);  // lines before it were answered
  CHECK(o.out.find("c@d.co") == std::string::npos);
  CHECK(o.err.find("line 2 is not JSON") != std::string::npos);
}

TEST_CASE("normalize command: reads a file, an unreadable file exits 2", "[normalize][cli]") {
  const std::string path = TempPath("file.jsonl");
  std::ofstream(path) << "{\"type\":\"phone\",\"value\":\"0170 1234567\"}\n";
  const Outcome o = RunNormalize("", path + " --region DE");
  CHECK(o.exit_code == 0);
  CHECK(o.out ==
        "{\"key\":\"-5006925805834611004\",\"type\":\"phone\",\"value\":\"+491701234567\"}\n");
  const Outcome missing = RunNormalize("", "/nonexistent/idres.jsonl");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("cannot read /nonexistent/idres.jsonl") != std::string::npos);
}

TEST_CASE("normalize command: options for folding and phone validity", "[normalize][cli]") {
  const Outcome o = RunNormalize(
      "{\"type\":\"email\",\"value\":\"A.B+x@gmail.com\"}\n"
      "{\"type\":\"phone\",\"value\":\"+49 123 4567890\"}\n",
      "--fold-email-domain gmail.com --require-valid-phone");
  CHECK(o.exit_code == 0);
  CHECK(o.out.find("\"value\":\"ab@gmail.com\"") != std::string::npos);
  CHECK(o.out.find("\"error\":\"not a valid phone number") != std::string::npos);
}
