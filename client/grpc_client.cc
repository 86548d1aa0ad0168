#include "client/grpc_client.h"

#include <grpcpp/grpcpp.h>

#include <stdexcept>
#include <thread>
#include <vector>

#include "api/idres/v1/identity.grpc.pb.h"
#include "api/service/proto_mapping.h"
#include "client/status_errors.h"

namespace idres::client {
namespace {

Outcome OutcomeOf(v1::Outcome outcome) {
  switch (outcome) {
    case v1::OUTCOME_CREATED:
      return Outcome::kCreated;
    case v1::OUTCOME_UPDATED:
      return Outcome::kUpdated;
    case v1::OUTCOME_MERGED:
      return Outcome::kMerged;
    default:
      return Outcome::kUnchanged;
  }
}

// The fields of a result the callers read.
UpsertResult ResultOf(const v1::BatchUpsertResult& r) {
  UpsertResult result;
  result.person_id = r.person_id();
  result.score = r.score();
  result.outcome = OutcomeOf(r.outcome());
  result.merged_person_ids.assign(r.merged_person_ids().begin(), r.merged_person_ids().end());
  if (r.has_error()) result.error = r.error().code() + ": " + r.error().message();
  return result;
}

// The service's code of a gRPC status (gRPC's numbers are the service's).
api::Code CodeOf(const grpc::Status& status) {
  return api::CodeNumbered(static_cast<int>(status.error_code())).value_or(api::Code::kUnknown);
}

[[noreturn]] void Throw(const grpc::Status& status) {
  ThrowStatus(CodeOf(status), status.error_message());
}

// A stub on a channel with a connection of its own, as a separate client
// has: channels to one target would otherwise share one. A `lean` channel
// (a load generator's) runs every call on grpc's minimal stack, without the
// client's own deadline timer and message size check (it sets no deadline;
// the server checks its own sizes), and without the retry filter, which
// would send a call the server never saw again without a word, where the
// generator counts each call once.
std::unique_ptr<v1::IdentityService::Stub> OwnStub(const std::string& target,
                                                   const GrpcClientOptions& options,
                                                   bool lean = false) {
  auto credentials = grpc::InsecureChannelCredentials();
  if (options.tls) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options.root_pem;
    credentials = grpc::SslCredentials(ssl);
  }
  grpc::ChannelArguments arguments;
  arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  if (lean) {
    arguments.SetInt(GRPC_ARG_ENABLE_RETRIES, 0);
    arguments.SetInt(GRPC_ARG_MINIMAL_STACK, 1);
  }
  return v1::IdentityService::NewStub(grpc::CreateCustomChannel(target, credentials, arguments));
}

void Prepare(grpc::ClientContext& context, const GrpcClientOptions& options) {
  if (!options.token.empty()) context.AddMetadata("authorization", "Bearer " + options.token);
}

// One call of GrpcUpserts: what gRPC fills in while it is in flight.
struct UpsertCall {
  int slot = 0;
  grpc::ClientContext context;
  v1::UpsertResponse response;
  grpc::Status status;
  std::unique_ptr<grpc::ClientAsyncResponseReader<v1::UpsertResponse>> reader;
};

}  // namespace

struct GrpcClient::Impl {
  GrpcClientOptions options;
  std::unique_ptr<v1::IdentityService::Stub> stub;
};

GrpcClient::GrpcClient(const std::string& target, GrpcClientOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->stub = OwnStub(target, impl_->options);
}

GrpcClient::~GrpcClient() = default;

StoreStats GrpcClient::Stats() {
  v1::StatsResponse response;
  grpc::ClientContext context;
  Prepare(context, impl_->options);
  const grpc::Status status = impl_->stub->Stats(&context, v1::StatsRequest{}, &response);
  if (!status.ok()) Throw(status);
  StoreStats stats;
  stats.persons = response.persons();
  stats.merged_away = response.merged_away();
  stats.identifiers = response.identifiers();
  return stats;
}

UpsertResult GrpcClient::Upsert(const Record& record) {
  v1::UpsertRequest request;
  api::FillRecord(record, *request.mutable_record());
  v1::UpsertResponse response;
  grpc::ClientContext context;
  Prepare(context, impl_->options);
  const grpc::Status status = impl_->stub->Upsert(&context, request, &response);
  if (!status.ok()) Throw(status);
  UpsertResult result;
  result.person_id = response.person_id();
  result.score = response.score();
  result.outcome = OutcomeOf(response.outcome());
  result.merged_person_ids.assign(response.merged_person_ids().begin(),
                                  response.merged_person_ids().end());
  return result;
}

void GrpcClient::UpsertStream(std::span<const Record> records, std::optional<std::int64_t> job,
                              std::int64_t first_item, std::vector<UpsertResult>& answered) {
  grpc::ClientContext context;
  Prepare(context, impl_->options);
  auto stream = impl_->stub->UpsertStream(&context);
  // The writer runs beside the reader: gRPC's flow control holds it when the
  // server reads no further.
  std::thread writer([&] {
    for (std::size_t i = 0; i < records.size(); ++i) {
      v1::UpsertStreamRequest request;
      api::FillRecord(records[i], *request.mutable_record());
      if (job) {
        request.mutable_receipt()->set_job(*job);
        request.mutable_receipt()->set_item(first_item + static_cast<std::int64_t>(i));
      }
      if (!stream->Write(request)) break;
    }
    stream->WritesDone();
  });
  v1::UpsertStreamResponse response;
  while (stream->Read(&response)) answered.push_back(ResultOf(response.result()));
  writer.join();
  const grpc::Status status = stream->Finish();
  if (!status.ok()) Throw(status);
}

struct GrpcUpserts::Impl {
  GrpcClientOptions options;
  std::vector<std::unique_ptr<v1::IdentityService::Stub>> stubs;  // one per slot
  grpc::CompletionQueue queue;
  int in_flight = 0;
};

GrpcUpserts::GrpcUpserts(const std::string& target, int slots, GrpcClientOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  for (int s = 0; s < slots; ++s) {
    impl_->stubs.push_back(OwnStub(target, impl_->options, /*lean=*/true));
  }
}

GrpcUpserts::~GrpcUpserts() {
  while (impl_->in_flight > 0) Next();
  impl_->queue.Shutdown();
  void* tag = nullptr;
  bool ok = false;
  while (impl_->queue.Next(&tag, &ok)) {
  }
}

void GrpcUpserts::Start(int slot, const Record& record) {
  auto call = std::make_unique<UpsertCall>();
  call->slot = slot;
  Prepare(call->context, impl_->options);
  v1::UpsertRequest request;
  api::FillRecord(record, *request.mutable_record());
  call->reader = impl_->stubs.at(static_cast<std::size_t>(slot))
                     ->PrepareAsyncUpsert(&call->context, request, &impl_->queue);
  call->reader->StartCall();
  UpsertCall* tag = call.release();  // Next() takes it back
  tag->reader->Finish(&tag->response, &tag->status, tag);
  ++impl_->in_flight;
}

GrpcUpserts::Answer GrpcUpserts::Next() {
  void* tag = nullptr;
  bool ok = false;
  if (impl_->in_flight == 0 || !impl_->queue.Next(&tag, &ok)) {
    throw std::logic_error("GrpcUpserts::Next with no call in flight");
  }
  --impl_->in_flight;
  std::unique_ptr<UpsertCall> call(static_cast<UpsertCall*>(tag));
  Answer answer;
  answer.slot = call->slot;
  if (!ok) {
    answer.error = "the call ended before its answer";
  } else if (!call->status.ok()) {
    answer.error =
        std::string(api::CodeName(CodeOf(call->status))) + ": " + call->status.error_message();
  }
  return answer;
}

}  // namespace idres::client
