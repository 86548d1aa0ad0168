#include "api/connect/json_shape.h"

#include <google/protobuf/descriptor.h>

#include <map>
#include <nlohmann/json.hpp>
#include <vector>

namespace idres::api {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// The field `key` names in `type`, by proto or JSON name; null if none.
const FieldDescriptor* FieldOf(const Descriptor& type, const std::string& key) {
  if (const auto* f = type.FindFieldByName(key)) return f;
  for (int i = 0; i < type.field_count(); ++i) {
    if (type.field(i)->json_name() == key) return type.field(i);
  }
  return nullptr;
}

// The message type whose fields an object under `field` holds; null when
// its keys are free (Struct, Value, maps) or unknown.
const Descriptor* ObjectType(const FieldDescriptor* field) {
  if (field == nullptr || field->is_map()) return nullptr;
  const Descriptor* type = field->message_type();
  if (type == nullptr || type->file()->package() == "google.protobuf") return nullptr;
  return type;
}

class ShapeChecker : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit ShapeChecker(const Descriptor& root) : root_(root) {}

  std::optional<std::string> error;

  bool start_object(std::size_t) override { return Enter(true); }
  bool start_array(std::size_t) override { return Enter(false); }
  bool end_object() override { return Leave(); }
  bool end_array() override { return Leave(); }

  bool key(string_t& key) override {
    Frame& frame = frames_.back();
    frame.field = frame.type ? FieldOf(*frame.type, key) : nullptr;
    const std::string canonical = frame.field ? frame.field->name() : key;
    const auto [seen, added] = frame.keys.emplace(canonical, key);
    if (added) return true;
    error = "field \"" + key + "\" is given twice in one object";
    if (seen->second != key) error->append(" (as \"" + seen->second + "\" and \"" + key + "\")");
    return false;
  }

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  // protobuf's parser accepts more than JSON (trailing commas, single
  // quotes, bare keys), where this check would see nothing: refuse it here.
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception&) override {
    error = "malformed JSON at byte " + std::to_string(position) + " (near \"" +
            token.substr(0, 20) + "\")";
    return false;
  }

 private:
  struct Frame {
    bool object;
    // The message this object is, or the message of this array's items;
    // null when free-form.
    const Descriptor* type;
    std::map<std::string, std::string> keys;  // fields seen: canonical name -> as spelt
    const FieldDescriptor* field = nullptr;   // named by the latest key
  };

  bool Enter(bool object) {
    if (static_cast<int>(frames_.size()) >= kMaxJsonDepth) {
      error = "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
      return false;
    }
    const Descriptor* type = &root_;
    if (!frames_.empty()) {
      const Frame& parent = frames_.back();
      type = parent.object ? ObjectType(parent.field) : parent.type;
    }
    frames_.push_back({object, type, {}});
    return true;
  }

  bool Leave() {
    frames_.pop_back();
    return true;
  }

  const Descriptor& root_;
  std::vector<Frame> frames_;
};

}  // namespace

std::optional<std::string> JsonShapeError(std::string_view body, const Descriptor& type) {
  ShapeChecker checker(type);
  nlohmann::json::sax_parse(body, &checker);
  return checker.error;
}

}  // namespace idres::api
