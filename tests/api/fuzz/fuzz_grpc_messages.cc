// Fuzz target: the gRPC message handlers. The input's first line names a
// unary method ("NeverMatch"); the rest is sent as that call's message, as
// raw bytes, to a gRPC server in this process (api/grpc/grpc_server.h over
// the service and a fake backend, on a channel of its own), as any client
// could send it. Every call ends with a status, never INTERNAL or UNKNOWN:
// bytes that are no message are gRPC's INTERNAL only before our handler
// runs, so such inputs are left out by parsing them first, as grpc++ does.
#include <grpcpp/create_channel.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/byte_buffer.h>

#include <cstdint>
#include <future>
#include <memory>
#include <string_view>
#include <thread>

#include "api/grpc/grpc_server.h"
#include "api/idres/v1/identity.pb.h"
#include "api/service/service.h"
#include "tests/api/fake_backend.h"
#include "tests/fuzz/property.h"

namespace {

namespace pb = google::protobuf;

// The fake backend, answering an upsert on a thread of its own that it
// does not keep (the target waits for each answer before the next input).
class Backend final : public idres::testing::FakeBackend {
 public:
  void Submit(idres::Record, const idres::Deadline&, idres::UpsertCallback done) override {
    idres::UpsertOutcome outcome;
    outcome.result = upsert_result;
    std::thread([done = std::move(done), outcome = std::move(outcome)]() mutable {
      done(std::move(outcome));
    }).detach();
  }
};

// The server and a channel to it, made once.
struct Served {
  Backend backend;
  idres::api::IdentityService service{backend, nullptr, {}};
  idres::api::GrpcServer server{{"127.0.0.1:0", "", "", 1 << 20, 2, std::chrono::milliseconds(100)},
                                service};
  std::shared_ptr<grpc::Channel> channel = grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(server.port()), grpc::InsecureChannelCredentials());
  grpc::GenericStub stub{channel};
};

Served& TheServer() {
  static Served* served = new Served;  // lives as long as the process
  return *served;
}

const pb::MethodDescriptor* UnaryMethod(std::string_view name) {
  const pb::ServiceDescriptor* service =
      idres::v1::GetAccessRequest::descriptor()->file()->FindServiceByName("IdentityService");
  const pb::MethodDescriptor* m = service->FindMethodByName(std::string(name));
  if (m == nullptr || m->client_streaming() || m->server_streaming()) return nullptr;
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return 0;
  const pb::MethodDescriptor* method = UnaryMethod(input.substr(0, eol));
  if (method == nullptr) return 0;
  const std::string_view bytes = input.substr(eol + 1);
  std::unique_ptr<pb::Message> parsed(
      pb::MessageFactory::generated_factory()->GetPrototype(method->input_type())->New());
  if (!parsed->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return 0;

  Served& served = TheServer();
  grpc::Slice slice(bytes.data(), bytes.size());
  const grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  std::promise<grpc::Status> done;
  served.stub.UnaryCall(&context, "/idres.v1.IdentityService/" + method->name(), grpc::StubOptions(),
                        &request, &response, [&done](grpc::Status s) { done.set_value(s); });
  const grpc::Status status = done.get_future().get();
  idres::fuzz::Expect(status.error_code() != grpc::StatusCode::INTERNAL &&
                          status.error_code() != grpc::StatusCode::UNKNOWN,
                      "a call ends with a status of ours, never INTERNAL or UNKNOWN", input);
  served.backend.upserted.clear();
  return 0;
}
