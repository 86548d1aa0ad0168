// The gRPC tests' Python client (tests/grpc/client.py, run with Debian's
// /usr/bin/python3 and python3-grpcio), as a child process of the test.
// Test-only; one thread per object.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "process/child_process.h"

namespace idres::testing {

class PythonClient {
 public:
  // Starts `client.py <command> <target> <args...>`; its output goes to a
  // log of its own.
  PythonClient(const std::string& command, const std::string& target,
               const std::vector<std::string>& args = {});
  ~PythonClient();
  PythonClient(const PythonClient&) = delete;
  PythonClient& operator=(const PythonClient&) = delete;

  // Waits for it to end: 0 when every check held, 1 when one did not, 3
  // when its stream was cut.
  int Wait();
  // Its output so far.
  std::string Log() const;

 private:
  std::string log_path_;
  std::unique_ptr<ChildProcess> child_;
};

// Runs `client.py` to its end; its exit status, its output shown when it is
// not 0.
int RunClient(const std::string& command, const std::string& target,
              const std::vector<std::string>& args = {});

// A file under a temporary folder of the test's own, removed with it.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
};

// A self-signed certificate for 127.0.0.1 made with `openssl req`.
struct SelfSignedCert {
  ScratchDir dir;
  std::string cert = dir.Path("cert.pem");
  std::string key = dir.Path("key.pem");
  SelfSignedCert();
};

}  // namespace idres::testing
