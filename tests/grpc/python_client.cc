#include "tests/grpc/python_client.h"

#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

namespace idres::testing {
namespace {

std::string SourceDir() {
  const char* source = std::getenv("IDRES_SOURCE_DIR");
  REQUIRE(source != nullptr);
  return source;
}

std::string UniqueName(const std::string& prefix) {
  static std::atomic<int> next{0};
  const auto name = prefix + std::to_string(getpid()) + "-" + std::to_string(next++);
  return (std::filesystem::temp_directory_path() / name).string();
}

}  // namespace

PythonClient::PythonClient(const std::string& command, const std::string& target,
                           const std::vector<std::string>& args)
    : log_path_(UniqueName("idres-grpc-client-") + ".log") {
  std::vector<std::string> argv = {"/usr/bin/python3", SourceDir() + "/tests/grpc/client.py",
                                   command, target};
  argv.insert(argv.end(), args.begin(), args.end());
  child_ = std::make_unique<ChildProcess>(
      argv, log_path_, std::vector<std::string>{"IDRES_SOURCE_DIR=" + SourceDir()});
}

PythonClient::~PythonClient() {
  child_.reset();
  std::remove(log_path_.c_str());
}

int PythonClient::Wait() { return child_->Wait(); }

std::string PythonClient::Log() const { return child_->Log(); }

int RunClient(const std::string& command, const std::string& target,
              const std::vector<std::string>& args) {
  PythonClient client(command, target, args);
  const int status = client.Wait();
  if (status != 0) UNSCOPED_INFO("client.py " << command << ":\n" << client.Log());
  return status;
}

ScratchDir::ScratchDir() : dir_(UniqueName("idres-grpc-test-")) {
  std::filesystem::create_directories(dir_);
}

ScratchDir::~ScratchDir() { std::filesystem::remove_all(dir_); }

SelfSignedCert::SelfSignedCert() {
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 "
      "-addext subjectAltName=IP:127.0.0.1 -keyout " +
      key + " -out " + cert + " 2>/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
}

}  // namespace idres::testing
