#include "normalize/detail/icu.h"

#include <unicode/bytestream.h>
#include <unicode/casemap.h>
#include <unicode/normalizer2.h>
#include <unicode/translit.h>
#include <unicode/uchar.h>
#include <unicode/uidna.h>
#include <unicode/unistr.h>

#include <memory>
#include <stdexcept>

#include "normalize/detail/utf8.h"

namespace idres::normalize_detail {
namespace {

constexpr const char* kToAsciiId = "Any-Latin; Latin-ASCII";
constexpr uint32_t kIdnaOptions = UIDNA_NONTRANSITIONAL_TO_ASCII |
                                  UIDNA_NONTRANSITIONAL_TO_UNICODE | UIDNA_USE_STD3_RULES |
                                  UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ;

struct Shared {
  const icu::Normalizer2* nfkc = nullptr;
  const icu::Normalizer2* nfc = nullptr;
  UIDNA* idna = nullptr;
  std::unique_ptr<icu::Transliterator> to_ascii;  // prototype, only ever cloned
};

void Check(UErrorCode status, const char* what) {
  if (U_FAILURE(status)) {
    throw std::runtime_error(std::string("ICU: cannot create ") + what + ": " +
                             u_errorName(status));
  }
}

Shared* MakeShared() {
  auto* shared = new Shared;  // lives for the process: ICU objects outlive every thread
  UErrorCode status = U_ZERO_ERROR;
  shared->nfkc = icu::Normalizer2::getNFKCInstance(status);
  Check(status, "NFKC");
  shared->nfc = icu::Normalizer2::getNFCInstance(status);
  Check(status, "NFC");
  shared->idna = uidna_openUTS46(kIdnaOptions, &status);
  Check(status, "UTS46 IDNA");
  shared->to_ascii.reset(icu::Transliterator::createInstance(kToAsciiId, UTRANS_FORWARD, status));
  Check(status, kToAsciiId);
  return shared;
}

const Shared& Get() {
  static const Shared* shared = MakeShared();  // thread-safe static init
  return *shared;
}

std::string Normalize(const icu::Normalizer2& n, std::string_view s) {
  std::string out;
  icu::StringByteSink<std::string> sink(&out, static_cast<int32_t>(s.size()));
  UErrorCode status = U_ZERO_ERROR;
  n.normalizeUTF8(0, icu::StringPiece(s.data(), static_cast<int32_t>(s.size())), sink, nullptr,
                  status);
  if (U_FAILURE(status)) out.clear();  // callers reject an empty result
  return out;
}

using CaseFunction = void (*)(const char*, uint32_t, icu::StringPiece, icu::ByteSink&, icu::Edits*,
                              UErrorCode&);

// Root locale (""), never the process default: see icu.h.
std::string MapCase(CaseFunction map, std::string_view s) {
  std::string out;
  icu::StringByteSink<std::string> sink(&out, static_cast<int32_t>(s.size()));
  UErrorCode status = U_ZERO_ERROR;
  map("", 0, icu::StringPiece(s.data(), static_cast<int32_t>(s.size())), sink, nullptr, status);
  if (U_FAILURE(status)) out.clear();  // callers reject an empty result
  return out;
}

}  // namespace

void InitIcu() { Get(); }

std::string Nfkc(std::string_view s) { return Normalize(*Get().nfkc, s); }
std::string Nfc(std::string_view s) { return Normalize(*Get().nfc, s); }

std::string Lower(std::string_view s) { return MapCase(&icu::CaseMap::utf8ToLower, s); }
std::string Upper(std::string_view s) { return MapCase(&icu::CaseMap::utf8ToUpper, s); }

const UIDNA* Uts46() { return Get().idna; }

bool HasLetter(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (u_isalpha(static_cast<UChar32>(NextCodePoint(s, i)))) return true;
  }
  return false;
}

std::string WithoutFormatCharacters(std::string_view s) {
  return KeepCodePoints(
      s, [](char32_t c) { return u_charType(static_cast<UChar32>(c)) != U_FORMAT_CHAR; });
}

bool TransliterateToAscii(std::string_view s, std::string& out) {
  thread_local std::unique_ptr<icu::Transliterator> mine(Get().to_ascii->clone());
  if (!mine) return false;
  icu::UnicodeString text =
      icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
  mine->transliterate(text);
  out.clear();
  text.toUTF8String(out);
  return true;
}

}  // namespace idres::normalize_detail
