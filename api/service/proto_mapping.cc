#include "api/service/proto_mapping.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <iterator>

#include "matcher/comparisons.h"
#include "normalize/utf8.h"

namespace idres::api {
namespace {

using google::protobuf::Value;

std::variant<TraitValue, std::string> ToTrait(const std::string& key, const Value& value) {
  switch (value.kind_case()) {
    case Value::kStringValue:
      return TraitValue{value.string_value()};
    case Value::kNumberValue:
      return TraitValue{value.number_value()};
    case Value::kBoolValue:
      return TraitValue{value.bool_value()};
    case Value::kStructValue:
    case Value::kListValue:
      return "trait \"" + key +
             "\" is a nested object or list; traits are flat (string, number or boolean)";
    default:
      return "trait \"" + key + "\" is null; traits are strings, numbers or booleans";
  }
}

Value FromTrait(const TraitValue& trait) {
  Value value;
  if (const auto* s = std::get_if<std::string>(&trait)) {
    value.set_string_value(*s);
  } else if (const auto* d = std::get_if<double>(&trait)) {
    value.set_number_value(*d);
  } else {
    value.set_bool_value(std::get<bool>(trait));
  }
  return value;
}

void FillTimestamp(Timestamp t, google::protobuf::Timestamp* out) {
  *out = google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(t.time_since_epoch().count());
}

v1::Outcome ToProto(Outcome outcome) {
  constexpr v1::Outcome kProto[] = {v1::OUTCOME_CREATED, v1::OUTCOME_UPDATED, v1::OUTCOME_MERGED,
                                    v1::OUTCOME_UNCHANGED};  // in the order of Outcome
  return kProto[static_cast<std::size_t>(outcome)];
}

// In the order of ChangeKind.
constexpr v1::ChangeKind kChangeKinds[] = {v1::CHANGE_KIND_CREATED, v1::CHANGE_KIND_UPDATED,
                                           v1::CHANGE_KIND_MERGED, v1::CHANGE_KIND_SPLIT,
                                           v1::CHANGE_KIND_ERASED};

// Anything with type and value: an Identifier, a RawIdentifier, a person's.
template <typename AnyIdentifier>
void FillIdentifier(const AnyIdentifier& in, v1::Identifier& out) {
  out.set_type(in.type);
  out.set_value(in.value);
}

void FillRejection(const Rejection& in, v1::RejectedIdentifier& out) {
  out.set_type(in.type);
  // The raw input may be invalid UTF-8, which a proto3 string must not be.
  out.set_value(ToValidUtf8(in.input));
  out.set_reason(in.reason);
}

template <typename Message>
void FillCommon(const UpsertResult& result, Message& out) {
  out.set_person_id(result.person_id);
  out.set_outcome(ToProto(result.outcome));
  out.set_score(result.score);
  for (const auto id : result.merged_person_ids) out.add_merged_person_ids(id);
  for (const Rejection& r : result.rejected) FillRejection(r, *out.add_rejected());
  for (const Identifier& g : result.generic) FillIdentifier(g, *out.add_generic());
  out.set_source(result.source);
  out.set_record_id(result.record_id);
  for (const auto id : result.split_person_ids) out.add_split_person_ids(id);
}

// Identifiers and traits into a v1::Record or v1::Person.
template <typename Identifiers, typename Message>
void FillIdentifiersAndTraits(const Identifiers& identifiers, const Traits& traits, Message& out) {
  for (const auto& identifier : identifiers) FillIdentifier(identifier, *out.add_identifiers());
  auto& fields = *out.mutable_traits()->mutable_fields();
  for (const auto& [key, trait] : traits) fields[key] = FromTrait(trait);
}

}  // namespace

std::variant<Record, std::string> ToRecord(const v1::Record& record) {
  Record out;
  out.identifiers.reserve(record.identifiers_size());
  for (const auto& identifier : record.identifiers()) {
    out.identifiers.push_back(ToRawIdentifier(identifier));
  }
  for (const auto& [key, value] : record.traits().fields()) {
    auto trait = ToTrait(key, value);
    if (auto* reason = std::get_if<std::string>(&trait)) return std::move(*reason);
    out.traits.emplace(key, std::get<TraitValue>(std::move(trait)));
  }
  out.default_region = record.default_region();
  out.source = record.source();
  out.record_id = record.record_id();
  return out;
}

RawIdentifier ToRawIdentifier(const v1::Identifier& identifier) {
  return {identifier.type(), identifier.value()};
}

void FillRecord(const Record& record, v1::Record& out) {
  FillIdentifiersAndTraits(record.identifiers, record.traits, out);
  out.set_default_region(record.default_region);
  out.set_source(record.source);
  out.set_record_id(record.record_id);
}

void FillUpsertResult(const UpsertResult& result, v1::UpsertResponse& out) {
  FillCommon(result, out);
  if (result.explanation) FillExplanation(*result.explanation, *out.mutable_explanation());
}

void FillUpsertResult(const UpsertResult& result, v1::BatchUpsertResult& out) {
  FillCommon(result, out);
}

void FillPerson(const Person& person, v1::Person& out) {
  out.set_person_id(person.id);
  FillIdentifiersAndTraits(person.identifiers, person.traits, out);
  FillTimestamp(person.created_at, out.mutable_created_at());
  FillTimestamp(person.updated_at, out.mutable_updated_at());
  if (person.redirected_from) out.set_redirected_from(*person.redirected_from);
  for (const PersonRecord& r : person.records) {
    auto* record = out.add_records();
    record->set_source(r.source);
    record->set_record_id(r.record_id);
    FillTimestamp(r.created_at, record->mutable_created_at());
    FillTimestamp(r.updated_at, record->mutable_updated_at());
  }
  for (const auto& [key, ref] : person.trait_sources) {
    auto& source = (*out.mutable_trait_sources())[key];
    source.set_source(ref.source);
    source.set_record_id(ref.record_id);
  }
}

void FillChange(const Change& change, v1::Change& out) {
  out.set_position(change.position);
  out.set_person_id(change.person_id);
  out.set_kind(kChangeKinds[static_cast<std::size_t>(change.kind)]);
  if (change.other_id) out.set_other_id(*change.other_id);
  FillTimestamp(change.changed_at, out.mutable_changed_at());
}

std::variant<Change, std::string> ToChange(const v1::Change& change) {
  Change out;
  const auto* kind = std::find(std::begin(kChangeKinds), std::end(kChangeKinds), change.kind());
  if (kind == std::end(kChangeKinds)) {
    return "change " + std::to_string(change.position()) + " has kind " +
           std::to_string(change.kind()) + ", which this idres does not know";
  }
  out.kind = static_cast<ChangeKind>(kind - std::begin(kChangeKinds));
  out.position = change.position();
  out.person_id = change.person_id();
  if (change.has_other_id()) out.other_id = change.other_id();
  if (change.has_changed_at()) {
    out.changed_at =
        FromMicros(google::protobuf::util::TimeUtil::TimestampToMicroseconds(change.changed_at()));
  }
  return out;
}

void FillEvent(const PersonEvent& event, v1::PersonEvent& out) {
  FillTimestamp(event.at, out.mutable_at());
  out.set_kind(event.kind);
  out.set_other_id(event.other_id);
  out.set_source(event.source);
  out.set_record_id(event.record_id);
  out.set_detail(event.detail);
  for (const CandidateScore& c : event.scores) FillCandidate(c, *out.add_scores());
  out.set_threshold(event.threshold);
  out.set_review_threshold(event.review_threshold);
  out.set_actor(event.actor);
}

void FillCandidate(const CandidateScore& candidate, v1::CandidateDetail& out) {
  out.set_person_id(candidate.person_id);
  out.set_total(candidate.score.total);
  for (const Comparison& c : candidate.score.comparisons) {
    v1::ComparisonDetail& d = *out.add_comparisons();
    d.set_type(c.type);
    d.set_level(c.level);
    d.set_weight(c.weight);
    d.set_tf_adjustment(c.tf_adjustment);
    d.set_record_value(c.record_value);
    d.set_person_value(c.person_value);
    d.set_counted(c.counted);
  }
  out.set_matched(candidate.matched);
  out.set_chosen(candidate.chosen);
  out.set_possible(candidate.possible);
  for (std::int64_t id : candidate.never_with) out.add_never_with(id);
}

void FillExplanation(const Explanation& e, v1::Explanation& out) {
  for (const Identifier& v : e.normalized) FillIdentifier(v, *out.add_normalized());
  for (const Rejection& r : e.rejected) FillRejection(r, *out.add_rejected());
  for (const Identifier& v : e.generic) FillIdentifier(v, *out.add_generic());
  for (const ExplainedKey& k : e.keys) {
    v1::KeyDetail& d = *out.add_keys();
    d.set_rule(k.rule);
    d.set_value(k.parts);
    d.set_generic(k.generic);
  }
  out.set_threshold(e.threshold);
  out.set_review_threshold(e.review_threshold);
  for (const CandidateScore& c : e.candidates) FillCandidate(c, *out.add_candidates());
  out.set_decision(e.decision);
  out.set_person_id(e.person_id);
  for (std::int64_t id : e.merged_person_ids) out.add_merged_person_ids(id);
  out.set_note(e.note);
  if (e.error) out.set_error(*e.error);
}

void FillPair(const PairExplanation& pair, v1::ExplainPairResponse& out) {
  out.set_person_a(pair.person_a);
  out.set_person_b(pair.person_b);
  FillCandidate(pair.score, *out.mutable_score());
  out.set_threshold(pair.threshold);
  out.set_review_threshold(pair.review_threshold);
  out.set_judgement(pair.judgement);
}

void FillPossibleMatch(const PossibleMatch& match, v1::PossibleMatch& out) {
  out.set_person_a(match.person_a);
  out.set_person_b(match.person_b);
  out.set_score(match.score);
  FillTimestamp(match.found_at, out.mutable_found_at());
}

void FillModel(const Model& model, const Model& built_in, v1::GetModelResponse& out) {
  for (const auto& [type, t] : model.types) {
    v1::ModelComparison& c = *out.add_comparisons();
    c.set_type(type);
    c.set_comparison(std::string(ComparisonName(t.comparison)));
    c.set_group(t.group);
    c.set_strong(t.strong);
    c.set_exclusive(t.exclusive);
    c.set_generic_cap(static_cast<std::int64_t>(t.generic_cap));
    c.set_entity(t.entity);
    const TypeModel* reference = built_in.Find(type);
    for (const Level& level : t.levels) {
      v1::ModelLevel& l = *c.add_levels();
      l.set_name(level.name);
      l.set_m(level.m);
      l.set_u(level.u);
      l.set_weight(level.weight());
      if (reference == nullptr) continue;
      const auto same = std::find_if(reference->levels.begin(), reference->levels.end(),
                                     [&](const Level& r) { return r.name == level.name; });
      if (same != reference->levels.end()) l.set_built_in_weight(same->weight());
    }
  }
  for (const BlockingRule& rule : model.blocking) {
    v1::ModelBlockingRule& r = *out.add_blocking_rules();
    r.set_name(rule.name);
    for (const std::string& part : rule.parts) r.add_parts(part);
  }
  out.set_threshold(model.threshold);
  out.set_review_threshold(model.review_threshold);
  out.set_key_cap(static_cast<std::int64_t>(model.key_cap));
  out.set_max_keys(static_cast<std::int64_t>(model.max_keys));
  out.set_max_candidates(static_cast<std::int64_t>(model.max_candidates));
}

Explanation ToExplanation(const v1::Explanation& in) {
  Explanation e;
  for (const auto& v : in.normalized()) e.normalized.push_back({v.type(), v.value()});
  for (const auto& r : in.rejected()) e.rejected.push_back({r.type(), r.value(), r.reason()});
  for (const auto& v : in.generic()) e.generic.push_back({v.type(), v.value()});
  for (const auto& k : in.keys()) e.keys.push_back({k.rule(), k.value(), k.generic()});
  e.threshold = in.threshold();
  e.review_threshold = in.review_threshold();
  for (const auto& c : in.candidates()) {
    CandidateScore& s = e.candidates.emplace_back();
    s.person_id = c.person_id();
    s.score.total = c.total();
    for (const auto& d : c.comparisons()) {
      s.score.comparisons.push_back({d.type(), d.level(), d.weight(), d.tf_adjustment(),
                                     d.record_value(), d.person_value(), d.counted()});
    }
    s.matched = c.matched();
    s.chosen = c.chosen();
    s.possible = c.possible();
    s.never_with.assign(c.never_with().begin(), c.never_with().end());
  }
  e.decision = in.decision();
  e.person_id = in.person_id();
  e.merged_person_ids.assign(in.merged_person_ids().begin(), in.merged_person_ids().end());
  e.note = in.note();
  if (!in.error().empty()) e.error = in.error();
  return e;
}
}  // namespace idres::api
