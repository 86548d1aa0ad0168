// JsonShapeError: what protobuf's JSON parser lets through but a request
// must not carry, found in one linear pass before that parser runs:
//  - nesting deeper than kMaxJsonDepth: the parser's time grows with the
//    square of the depth (25,000 nested lists held a thread for minutes);
//  - a field given twice in one object: the parser merges both silently, so
//    two "identifiers" lists would become one record and join two people.
//    A field's proto name and its JSON name count as the same field; the
//    keys of a free-form object (traits) must merely differ.
// And what is not strict JSON (RFC 8259): protobuf's parser would also take
// trailing commas, single quotes and bare keys, which this pass could not
// follow. Internal to api/. Pure function; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace google::protobuf {
class Descriptor;
}

namespace idres::api {

inline constexpr int kMaxJsonDepth = 16;

// Why `body`, a JSON `type`, is refused; nullopt when its shape is fine.
std::optional<std::string> JsonShapeError(std::string_view body,
                                          const google::protobuf::Descriptor& type);

}  // namespace idres::api
