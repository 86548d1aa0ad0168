// Conversions between the idres.v1 messages and the engine's plain values
// (engine/record.h). A record the engine cannot take (nested or null traits)
// comes back as a reason, never an exception. Internal to api/. Pure
// functions; thread-safe.
#pragma once

#include <string>
#include <variant>

#include "api/idres/v1/identity.pb.h"
#include "engine/change.h"
#include "engine/record.h"
#include "matcher/model.h"

namespace idres::api {

// The engine's record for `record`, or why it cannot be one.
std::variant<Record, std::string> ToRecord(const v1::Record& record);

RawIdentifier ToRawIdentifier(const v1::Identifier& identifier);

// `record` as the message (the inverse of ToRecord), for clients.
void FillRecord(const Record& record, v1::Record& out);

// The upsert result into either response message (they share field names).
void FillUpsertResult(const UpsertResult& result, v1::UpsertResponse& out);
void FillUpsertResult(const UpsertResult& result, v1::BatchUpsertResult& out);

void FillPerson(const Person& person, v1::Person& out);
void FillEvent(const PersonEvent& event, v1::PersonEvent& out);

void FillChange(const Change& change, v1::Change& out);

void FillCandidate(const CandidateScore& candidate, v1::CandidateDetail& out);
void FillExplanation(const Explanation& explanation, v1::Explanation& out);
void FillPair(const PairExplanation& pair, v1::ExplainPairResponse& out);
void FillPossibleMatch(const PossibleMatch& match, v1::PossibleMatch& out);
// `model` as GetModel answers it; each level also carries the weight of the
// same type and level in `built_in`, when it has them.
void FillModel(const Model& model, const Model& built_in, v1::GetModelResponse& out);

// The engine's explanation for `explanation` (the inverse of
// FillExplanation), for clients (`idres explain --server`).
Explanation ToExplanation(const v1::Explanation& explanation);

// The engine's change for `change` (the inverse of FillChange), for clients;
// a kind this build does not know is refused with the reason.
std::variant<Change, std::string> ToChange(const v1::Change& change);

}  // namespace idres::api
