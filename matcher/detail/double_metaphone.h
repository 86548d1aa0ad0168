// MetaphoneEncoder: one pass of Double Metaphone over a name, for
// matcher/phonetic.cc only. The rules follow the order of Philips's
// reference (C/C++ Users Journal, June 2000); each letter's handler adds to
// the codes and returns how many bytes it read. The name is read uppercase,
// with ç and ñ as their Latin-1 bytes, and padded with five spaces so the
// rules can look past its end (they test "IER " and "JOSE " that way).
// One object per name; not thread-safe, not reusable.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

#include "matcher/phonetic.h"

namespace idres::detail {

inline constexpr std::size_t kMaxPhoneticCode = 4;
inline constexpr char kCedilla = '\xc7';
inline constexpr char kTilde = '\xd1';

class MetaphoneEncoder {
 public:
  explicit MetaphoneEncoder(std::string_view name);

  PhoneticCodes Run();

 private:
  char At(int pos) const { return pos < 0 || pos >= Size() ? '\0' : s_[pos]; }
  int Size() const { return static_cast<int>(s_.size()); }
  bool IsVowel(int pos) const {
    const char c = At(pos);
    return c == 'A' || c == 'E' || c == 'I' || c == 'O' || c == 'U' || c == 'Y';
  }
  // Whether one of `options` starts at `start`.
  bool Is(int start, std::initializer_list<std::string_view> options) const {
    if (start < 0 || start >= Size()) return false;
    for (std::string_view o : options) {
      if (s_.compare(start, o.size(), o) == 0) return true;
    }
    return false;
  }
  // Whether the name starts as the rules' Germanic names do.
  bool Germanic() const { return Is(0, {"VAN ", "VON ", "SCH"}); }
  void Add(std::string_view main) { Add(main, main); }
  void Add(std::string_view main, std::string_view alt) {
    primary_ += main;
    alternate_ += alt;
  }
  // Adds the codes and returns `read`, the bytes the rule consumed.
  int Add(std::string_view main, int read) { return Add(main, main, read); }
  int Add(std::string_view main, std::string_view alt, int read) {
    Add(main, alt);
    return read;
  }
  // Adds `code` for a letter that may be doubled ("FF" reads as one F).
  int Plain(std::string_view code) {
    Add(code);
    return At(current_ + 1) == At(current_) ? 2 : 1;
  }

  int Letter();
  int C();
  int Ch();
  int Cc();
  int D();
  int G();
  int Gh();
  int Gn();
  int H();
  int J();
  int L();
  int M();
  int P();
  int R();
  int S();
  int Sc();
  int T();
  int W();
  int X();
  int Z();

  std::string s_;  // the prepared name, padded
  int length_, last_, current_ = 0;
  bool slavo_germanic_;  // holds W, K or CZ: the rules' Slavo-Germanic names
  std::string primary_, alternate_;
};

}  // namespace idres::detail
