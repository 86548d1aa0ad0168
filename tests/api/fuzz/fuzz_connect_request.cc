// Fuzz target: the Connect request decoder (api/connect/codec.h), JSON and
// binary, for every request message of the service. The input's first line
// names the method and the format ("SplitPerson json"); the rest is the
// body. A body that decodes encodes and decodes again to the same message;
// one that does not is invalid_argument with a reason. Never a crash.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>

#include <cstdint>
#include <memory>
#include <string_view>

#include "api/connect/codec.h"
#include "api/idres/v1/identity.pb.h"
#include "tests/fuzz/property.h"

namespace {

namespace pb = google::protobuf;
using idres::fuzz::Expect;

// The request message of `method`; null when the service has no such method.
const pb::Message* RequestPrototype(std::string_view method) {
  const pb::ServiceDescriptor* service =
      idres::v1::GetAccessRequest::descriptor()->file()->FindServiceByName("IdentityService");
  const pb::MethodDescriptor* m = service->FindMethodByName(std::string(method));
  if (m == nullptr) return nullptr;
  return pb::MessageFactory::generated_factory()->GetPrototype(m->input_type());
}

bool Same(const pb::Message& a, const pb::Message& b) {
  pb::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);
  pb::util::MessageDifferencer differencer;
  differencer.set_field_comparator(&comparator);
  return differencer.Compare(a, b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using idres::api::WireFormat;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return 0;
  const std::string_view header = input.substr(0, eol), body = input.substr(eol + 1);
  const std::size_t space = header.find(' ');
  if (space == std::string_view::npos) return 0;
  const std::string_view format_name = header.substr(space + 1);
  if (format_name != "json" && format_name != "proto") return 0;
  const WireFormat format = format_name == "json" ? WireFormat::kJson : WireFormat::kProto;
  const pb::Message* prototype = RequestPrototype(header.substr(0, space));
  if (prototype == nullptr) return 0;

  std::unique_ptr<pb::Message> message(prototype->New());
  if (const auto error = idres::api::Decode(body, format, *message)) {
    Expect(error->code == idres::api::Code::kInvalidArgument, "refusal is invalid_argument", input);
    Expect(!error->message.empty(), "refusal has a reason", input);
    return 0;
  }
  const std::string encoded = idres::api::Encode(*message, format);
  std::unique_ptr<pb::Message> again(prototype->New());
  Expect(!idres::api::Decode(encoded, format, *again), "an encoded message decodes", input);
  Expect(Same(*message, *again), "decode(encode(m)) == m", input);
  return 0;
}
