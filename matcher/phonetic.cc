#include "matcher/phonetic.h"

#include "matcher/detail/double_metaphone.h"

namespace idres {

PhoneticCodes DoubleMetaphone(std::string_view name) {
  return detail::MetaphoneEncoder(name).Run();
}

bool SoundAlike(std::string_view a, std::string_view b) {
  const PhoneticCodes x = DoubleMetaphone(a), y = DoubleMetaphone(b);
  for (const std::string* p : {&x.primary, &x.alternate}) {
    if (!p->empty() && (*p == y.primary || *p == y.alternate)) return true;
  }
  return false;
}

}  // namespace idres
