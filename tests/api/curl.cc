#include "tests/api/curl.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

namespace idres::testing {
namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs curl with `args`; the body it printed and the status (last line).
HttpReply RunCurl(const std::vector<std::string>& args) {
  std::string command = "curl -s -S -w '\\n%{http_code}'";
  for (const auto& a : args) command += " " + Quote(a);
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int status = pclose(pipe);
  INFO("curl " << command << " printed " << out);
  REQUIRE(status == 0);
  const auto nl = out.rfind('\n');
  return {std::stoi(out.substr(nl + 1)), "", out.substr(0, nl)};
}

}  // namespace

HttpReply CurlCall(int port, const std::string& method, const std::string& json,
                   const std::vector<std::string>& extra) {
  const std::string file = "/tmp/idres-api-curl-" + std::to_string(getpid()) + ".json";
  std::ofstream(file, std::ios::binary) << json;
  std::vector<std::string> args = {"-H", "Content-Type: application/json", "--data-binary",
                                   "@" + file};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("http://127.0.0.1:" + std::to_string(port) + "/idres.v1.IdentityService/" +
                 method);
  HttpReply reply = RunCurl(args);
  std::remove(file.c_str());
  return reply;
}

HttpReply CurlGet(int port, const std::string& path, const std::vector<std::string>& extra) {
  std::vector<std::string> args = extra;
  args.push_back("http://127.0.0.1:" + std::to_string(port) + path);
  return RunCurl(args);
}

}  // namespace idres::testing
