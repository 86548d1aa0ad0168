#include "tests/api/curl.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "process/child_process.h"

namespace idres::testing {
namespace {

std::string ReadAndRemove(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

// Runs curl with `args`; the status and body that came back.
HttpReply RunCurl(const std::vector<std::string>& args) {
  const std::string file = "/tmp/idres-api-curl-" + std::to_string(getpid());
  std::vector<std::string> argv = {"curl", "-s", "-S", "-o", file + ".body", "-w", "%{http_code}"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::remove((file + ".log").c_str());
  ChildProcess curl(argv, file + ".log");
  const int status = curl.Wait();
  const std::string printed = ReadAndRemove(file + ".log");  // the status, or curl's complaint
  INFO("curl printed " << printed);
  REQUIRE(status == 0);
  return {std::stoi(printed), "", ReadAndRemove(file + ".body")};
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
