#include "matcher/comparisons.h"

#include <catch2/catch.hpp>

namespace idres {
namespace {

std::string Level(ComparisonKind kind, const char* a, const char* b) {
  const std::size_t level = CompareValues(kind, a, b);
  // Symmetric: the order of the two values never changes the level.
  CHECK(CompareValues(kind, b, a) == level);
  return level == kNoEvidence ? "no evidence" : LevelNames(kind).at(level);
}

TEST_CASE("name levels, best first", "[matcher]") {
  const auto N = ComparisonKind::kName;
  CHECK(Level(N, "robert smith", "robert smith") == "exact");
  CHECK(Level(N, "robert smith jr", "robert smith") == "exact");  // a suffix on one side only
  CHECK(Level(N, "smith robert", "robert smith") == "reordered");
  CHECK(Level(N, "hoa thi nguyen", "thi hoa nguyen") == "reordered");
  // Two words one source wrote as one, in any order.
  CHECK(Level(N, "mary ann smith", "maryann smith") == "reordered");
  CHECK(Level(N, "kim min jun", "minjun kim") == "reordered");
  CHECK(Level(N, "abdul rahman khan", "abdulrahman khan") == "reordered");
  CHECK(Level(N, "min jun kim", "minjun lee") != "reordered");
  CHECK(Level(N, "gerald maurice burn", "gerald burn") == "subset");  // a middle name
  CHECK(Level(N, "maria garcia lopez", "maria garcia") == "subset");  // a second surname
  CHECK(Level(N, "bob smith", "robert smith") == "nickname");
  CHECK(Level(N, "r smith", "robert smith") == "initial");
  // Words cut short, each the beginning of the other's word in its place
  // (two letters or more, the surname three): one name abbreviated.
  CHECK(Level(N, "mo sam", "moses samuel") == "initial");
  CHECK(Level(N, "francis ray", "francis raymond") == "initial");
  CHECK(Level(N, "francis ra", "francis raymond") != "initial");
  CHECK(Level(N, "mo sam", "moses smith") == "different");
  CHECK(Level(N, "sam mo", "moses samuel") == "different");  // not in its place
  CHECK(Level(N, "robert allen", "robert alen") == "jaro_winkler_92");
  CHECK(Level(N, "jon smyth", "john smith") == "jaro_winkler_88");
  // The same surname, given names a typo, a scramble or a transliteration.
  CHECK(Level(N, "jayaned bennett", "jayden bennett") == "garbled");
  CHECK(Level(N, "youssef ahmed", "yusuf ahmed") == "garbled");
  // A long given name whose vowels alone differ, as transliterations write
  // them; a short one is not enough (elena and alina are two names).
  CHECK(Level(N, "mohamed hussein", "muhammad hussein") == "garbled");
  CHECK(Level(N, "elena ivanova", "alina ivanova") == "surname_only");
  // Back vowels are not front ones: hussein is not hassan, mahmoud not mehmed.
  CHECK(Level(N, "hussein ali", "hassan ali") == "surname_only");
  CHECK(Level(N, "mahmoud ali", "mehmed ali") == "surname_only");
  CHECK(Level(N, "hussein ali", "husayn ali") == "garbled");
  // x written ks, as Cyrillic has it.
  CHECK(Level(N, "alexei ivanov", "aleksey ivanov") == "garbled");
  CHECK(Level(N, "max weber", "mats weber") == "surname_only");  // too short to tell
  // A scramble is the same letters, give or take two, in a name of about
  // one length: ahmed is not mohamed short of two letters.
  CHECK(Level(N, "mohamed ali", "ahmed ali") == "surname_only");
  // So is a surname's scramble, one letter more or less, in a surname of
  // six letters or more, that no phonetic code hears; then the given names
  // decide, as for a surname misspelt. Five letters are too few to tell a
  // scramble from another surname (lewis / wiles).
  CHECK(Level(N, "nancy williams", "nancy lwisliaml") == "garbled");
  CHECK(Level(N, "harry andrews", "rarhry wnddreas") == "garbled");
  CHECK(Level(N, "edward williams", "anna lwisliaml") == "surname_only");
  CHECK(Level(N, "florence", "wilson forcnee") == "single_token");
  CHECK(Level(N, "nancy lewis", "nancy wiles") == "different");
  // A typo in each word, in its place, that Jaro-Winkler misses because it
  // struck a first letter; in words of four letters or more (five for a
  // name of one word).
  CHECK(Level(N, "david ooggan", "favid loggan") == "garbled");
  CHECK(Level(N, "david ooggan", "favid lomgan") == "different");  // two typos in one word
  CHECK(Level(N, "tim hart", "kim bart") == "different");          // a word of three letters
  CHECK(Level(N, "gibbs", "givbs") == "single_token");
  CHECK(Level(N, "hart", "bart") == "different");
  // A nickname or a typo of the given name with a surname one typo apart
  // (five letters or more) or cut short (four or more): one name misspelt,
  // where Jaro-Winkler of the pair of words sees a nickname as a stranger.
  // With given names that do not agree, strangers, not relatives.
  CHECK(Level(N, "reginald adams", "reggie adam") == "garbled");
  CHECK(Level(N, "elizabeth thomas", "lizzie thom") == "garbled");
  CHECK(Level(N, "robert wilson", "bob wilton") == "garbled");
  CHECK(Level(N, "robert wilson", "anna wilton") == "different");
  CHECK(Level(N, "reginald adams", "mary adam") == "different");
  CHECK(Level(N, "robert hart", "bob bart") == "different");  // a typo in four letters
  CHECK(Level(N, "robert hart", "bob har") == "different");   // cut to three
  // The name a person goes by after a first name or a title the other
  // source left out.
  CHECK(Level(N, "mary anne smith", "ann smith") == "garbled");
  CHECK(Level(N, "mullah mohammad omar", "mohammed omar") == "garbled");
  CHECK(Level(N, "john paul smith", "peter smith") == "surname_only");
  // ... not an initial or a connector between surnames.
  CHECK(Level(N, "mary j smith", "john smith") == "surname_only");
  CHECK(Level(N, "jose garcia y lopez", "yolanda lopez") == "surname_only");
  // Arabic written without its short vowels, the article apart or joined.
  CHECK(Level(N, "mhmd alrashd", "mohammed al rashid") == "jaro_winkler_92");
  CHECK(Level(N, "mohamed alrashid", "mohammed rashid") == "jaro_winkler_92");
  CHECK(Level(N, "ahmd alrashd", "mohammed al rashid") == "surname_only");
  CHECK(Level(N, "muammar gaddafi", "muammar al qadhafi") == "garbled");
  // An article written apart is surely one: a source may leave it out, and
  // the name is then a word short, as with a middle name.
  CHECK(Level(N, "ahmed al saud", "ahmed saud") == "subset");
  CHECK(Level(N, "ahmed al saud", "khalid saud") == "surname_only");
  // A doubled consonant (a shadda) and a first y in a word without vowels.
  CHECK(Level(N, "mmdwh ali", "mamdouh ali") == "jaro_winkler_92");
  CHECK(Level(N, "mhmmd ali", "mohammed ali") == "jaro_winkler_92");
  CHECK(Level(N, "ysf khan", "yusuf khan") == "jaro_winkler_92");
  // ... but a w written for a long vowel is kept: mahmoud is not mohammed;
  // and Western names that start with al or el have no article.
  CHECK(Level(N, "mhmwd ali", "mahmoud ali") == "jaro_winkler_92");
  CHECK(Level(N, "mhmwd ali", "mohammed ali") == "surname_only");
  CHECK(Level(N, "al smith", "albert smith") == "nickname");
  CHECK(Level(N, "alvin ray", "elvin ray") != "jaro_winkler_92");
  CHECK(Level(N, "john allison", "john ellison") != "jaro_winkler_92");
  // Two words written as one, and a spelling apart besides.
  CHECK(Level(N, "abdulrahman mohammed", "abdul rahman muhammad") == "garbled");
  // One Korean surname in its romanizations (North Korea writes ri, pak).
  CHECK(Level(N, "ri sol ju", "rhee sol ju") == "jaro_winkler_92");
  CHECK(Level(N, "pak pong ju", "park pong ju") == "jaro_winkler_92");
  CHECK(Level(N, "anna lee", "maria lee") == "surname_only");
  // A clearly different given name: a relative, however alike the rest.
  CHECK(Level(N, "jane doe", "john doe") == "surname_only");
  CHECK(Level(N, "anna schmidt", "peter smith") == "surname_only");  // XMT/SMT meets SM0/XMT
  CHECK(Level(N, "john doe jr", "john doe sr") == "suffix_differs");
  CHECK(Level(N, "henry ford ii", "henry ford iii") == "suffix_differs");
  CHECK(Level(N, "anna meier", "peter novak") == "different");
}

TEST_CASE("a single word is weak evidence, however exact", "[matcher]") {
  const auto N = ComparisonKind::kName;
  CHECK(Level(N, "alfred", "alfred") == "single_token");
  CHECK(Level(N, "smith", "robert smith") == "single_token");  // no given name on one side
  CHECK(Level(N, "hunte", "noah hunter") == "single_token");   // a typo of a part
  // Sounding alike is no evidence for one word alone: "holly" is not
  // "isla hall", "white" not "ed richardson".
  CHECK(Level(N, "holly", "hall isla") == "different");
  CHECK(Level(N, "white", "ed richardson") == "different");
}

TEST_CASE("birth date levels", "[matcher]") {
  const auto D = ComparisonKind::kBirthDate;
  CHECK(Level(D, "1978-11-12", "1978-11-12") == "exact");
  CHECK(Level(D, "1978-11-12", "1978-12-11") == "day_month_swapped");
  CHECK(Level(D, "1971-06-24", "1971-05-24") == "one_off");  // month one apart
  CHECK(Level(D, "1971-06-24", "1981-06-24") == "one_off");  // one digit of the year
  CHECK(Level(D, "1971-06-24", "1971-06-42") == "one_off");  // two digits transposed
  CHECK(Level(D, "1971-06-24", "1972-07-24") == "two_off");
  // A few weeks apart: as often one person's slip as namesakes' dates
  // (model_test: it weighs a little against).
  CHECK(Level(D, "1998-12-15", "1999-01-14") == "weeks_apart");
  CHECK(Level(D, "1996-05-02", "1996-05-31") == "weeks_apart");
  // ... but not after a slip of one digit of the year besides: two slips
  // of one date, which strangers' dates reach nine to fifteen times as
  // often as a few weeks alone (docs/matching.md, "Where it falls short").
  CHECK(Level(D, "2013-10-15", "2023-11-14") == "different");
  // Further apart is another person's date: never evidence for.
  CHECK(Level(D, "1980-03-12", "1981-09-02") == "different");  // a year and months away
  CHECK(Level(D, "1988-11-25", "1987-10-24") == "different");  // every part one off
  CHECK(Level(D, "1980-03-12", "1980-05-28") == "different");  // eleven weeks
  CHECK(Level(D, "1954-03-01", "1958-07-19") == "different");
  CHECK(Level(D, "1954-03-01", "1978-07-19") == "generation");  // a father and his son
  CHECK(Level(D, "1978-03-01", "1958-03-01") == "one_off");     // one digit: a slip
  CHECK(Level(D, "1968-03-04", "1986-03-04") == "one_off");     // two digits swapped
  // The placeholder of a system that had no date: neither for nor against.
  CHECK(Level(D, "1900-01-01", "1975-06-12") == "no evidence");
  CHECK(Level(D, "1900-01-01", "1900-01-01") == "no evidence");
  CHECK(Level(D, "1900-01-01", "1900-03-15") == "no evidence");
  // A date known only by its year, written as 1 January: the year is all
  // it can agree on. A year one off is an estimated year, as often one
  // person's as two people's (model_test: it weighs a little against); two
  // off is another year.
  CHECK(Level(D, "1850-01-01", "1850-06-15") == "same_year");
  CHECK(Level(D, "1850-01-01", "1850-01-01") == "same_year");
  CHECK(Level(D, "1850-01-01", "1851-01-01") == "year_one_off");
  CHECK(Level(D, "1850-01-01", "1849-07-20") == "year_one_off");
  CHECK(Level(D, "1850-01-01", "1852-01-01") == "different");
  CHECK(Level(D, "1850-03-12", "1851-03-12") == "one_off");  // a full date: a typo
  // ... and one a generation away is another generation: a placeholder
  // 1 January is no licence to merge a father with his son.
  CHECK(Level(D, "1960-01-01", "1992-09-30") == "generation");
  CHECK(Level(D, "1960-01-01", "1985-01-01") == "generation");
  CHECK(Level(D, "1960-01-01", "1980-01-01") == "different");  // one digit of the year
  // Two digits of the year swapped are a transposition in a full date, and
  // in a year alone as likely a father and his son.
  CHECK(Level(D, "1947-03-12", "1974-08-25") == "generation");
  CHECK(Level(D, "1947-01-01", "1974-01-01") == "generation");
}

TEST_CASE("organization levels: legal forms and spellings set aside", "[matcher]") {
  const auto O = ComparisonKind::kOrganization;
  CHECK(Level(O, "acme widgets ltd", "acme widgets ltd") == "exact");
  CHECK(Level(O, "acme widgets ltd", "acme widgets") == "same_core");
  CHECK(Level(O, "muller gmbh", "mueller ag") == "same_core");              // an umlaut written out
  CHECK(Level(O, "widgets acme inc", "acme widgets corp") == "same_core");  // word order
  CHECK(Level(O, "acme widgets ltd", "acme widgetz ltd") == "similar");
  CHECK(Level(O, "acme widgets ltd", "orion logistics gmbh") == "different");
  // Russian legal forms transliterated and in English.
  CHECK(Level(O, "pao gazprom", "gazprom pjsc") == "same_core");
  CHECK(Level(O, "ooo romashka", "romashka llc") == "same_core");
  // A German partnership's forms with und for &, a Swedish (publ), French et cie.
  CHECK(Level(O, "muller logistik gmbh and co kg", "mueller logistik gmbh und co kg") ==
        "same_core");
  CHECK(Level(O, "ab volvo publ", "volvo ab") == "same_core");
  CHECK(Level(O, "dupont et cie", "dupont sa") == "same_core");
  // A name written as its initials.
  CHECK(Level(O, "ibm corp", "international business machines corp") == "similar");
  CHECK(Level(O, "boa", "bank of america") == "similar");
  CHECK(Level(O, "ibm corp", "international bank of madrid sa") == "similar");
  CHECK(Level(O, "ib", "international business") == "different");  // two letters say little
  CHECK(Level(O, "inc", "international nursing care ltd") == "different");  // a form alone
  // A legal form in the middle of the name may be a word of it: alike,
  // unless it is also a common word (se South-East, co county).
  CHECK(Level(O, "siemens ag oesterreich", "siemens oesterreich") == "similar");
  CHECK(Level(O, "acme se asia pte", "acme asia pte") == "different");
  CHECK(Level(O, "orange co water district", "orange water district") == "different");
  CHECK(Level(O, "the ag barr co", "ag barr plc") == "same_core");
  CHECK(Level(O, "ibm", "intel business") == "different");
  CHECK(OrganizationCore("the acme widgets co ltd") == "acme widgets");
  // Legal forms and fillers at either end, not in the middle: oy is a
  // Finnish form before the name, co in the middle a word of it.
  CHECK(OrganizationCore("oy karl fazer ab") == "fazer karl");
  CHECK(OrganizationCore("ooo romashka") == "romashka");
  CHECK(OrganizationCore("the co operative bank plc") == "bank operative");
  CHECK(OrganizationCore("bank co operative") == "bank co operative");
  CHECK(OrganizationCore("ltd").empty());
}

TEST_CASE("email, address, document and exact-only levels", "[matcher]") {
  CHECK(Level(ComparisonKind::kEmail, "robert25@smith.net", "roberta25@smith.net") == "one_edit");
  CHECK(Level(ComparisonKind::kEmail, "robert255@smith.net", "roberta25@smith.net") == "similar");
  CHECK(Level(ComparisonKind::kEmail, "anna@example.com", "zed@other.org") == "different");
  // Numbered accounts are not typos of one another.
  CHECK(Level(ComparisonKind::kEmail, "j.smith1@x.org", "j.smith2@x.org") == "different");
  CHECK(Level(ComparisonKind::kName, "person 1234", "person 1235") == "different");
  // A digit struck for a letter of a name is a typo (4 beside r, 0 for o);
  // a digit added is not read as a letter (smith2 stays below the
  // Jaro–Winkler levels), nor is a word of digits or of two digits.
  CHECK(Level(ComparisonKind::kName, "grigor urquhart", "grigor u4quhart") == "jaro_winkler_92");
  CHECK(Level(ComparisonKind::kName, "bernard pellegrino", "bernard pelleg4ino") ==
        "jaro_winkler_92");
  CHECK(Level(ComparisonKind::kName, "anna smith2", "anna smith") != "jaro_winkler_92");
  CHECK(Level(ComparisonKind::kName, "agent 007", "agent 008") == "different");
  CHECK(Level(ComparisonKind::kName, "anna sm1th", "anna sm12h") == "different");
  // One edit on a different domain is not the same mailbox misspelt.
  CHECK(Level(ComparisonKind::kEmail, "ab@x.org", "ab@y.org") != "one_edit");
  const auto A = ComparisonKind::kAddress;
  CHECK(Level(A, "12 main st apt 4 10115", "12 main st apt 4 10115") == "exact");
  CHECK(Level(A, "12 main st apt 4 10115", "12 main st 10115") == "house_and_street");
  CHECK(Level(A, "12 main st 10115", "99 oak ave 10115") == "postal_code_only");
  CHECK(Level(A, "12 main st 10115", "99 oak ave 80331") == "different");
  CHECK(Level(A, "flat 3 12 high st london sw1a 1aa", "12 high st flat 3 london sw1a1aa") ==
        "house_and_street");
  CHECK(Level(A, "hauptstrasse 5 10115 berlin", "hauptstr 5 10115 berlin") == "house_and_street");
  CHECK(Level(A, "rue de rivoli 12 75001 paris", "12 rue de rivoli 75001 paris") ==
        "house_and_street");
  CHECK(Level(A, "hauptstrasse 5 10115 berlin", "hauptstrasse 7 10115 berlin") ==
        "postal_code_only");
  // One house number and street in two towns is two addresses; a postcode
  // one typo off is still the town.
  CHECK(Level(A, "12 high st oxford ox1 4ab", "12 high st cambridge cb1 1aa") == "different");
  CHECK(Level(A, "12 main st 10115", "12 main st 10116") == "house_and_street");
  // A ZIP+4 is its ZIP; codes of two shapes (a cedex's number) say nothing.
  CHECK(Level(A, "12 main st springfield il 62704", "12 main st springfield il 62704-1234") ==
        "house_and_street");
  CHECK(Level(A, "1 rue de rivoli 75001 paris", "1 rue de rivoli 75001 paris cedex 01") ==
        "house_and_street");
  // Within one postcode a street misspelt is the street, another type is not.
  CHECK(Level(A, "12 high st oxford ox1 4ab", "12 hgih st oxford ox1 4ab") == "house_and_street");
  CHECK(Level(A, "12 church st 10115", "12 church rd 10115") == "postal_code_only");
  CHECK(Level(A, "12 high st 10115", "12 hgih st") == "different");  // one postcode, not two
  CHECK(Level(A, "12 n maple st 62704", "12 s maple st 62704") == "postal_code_only");
  CHECK(Level(A, "12 main st 62704-1234", "12 main st 62704-5678") == "house_and_street");
  // Other codes with a hyphen are whole: two Polish regions are two towns.
  CHECK(Level(A, "ul dluga 12 61-100 poznan", "ul dluga 12 62-200 gniezno") == "different");
  // A town's compass word after the street is no evidence against it.
  CHECK(Level(A, "12 main st w springfield ma 01089", "12 main st springfield ma 01089") ==
        "house_and_street");
  CHECK(Level(ComparisonKind::kDocument, "x1234567", "x1234567") == "exact");
  CHECK(Level(ComparisonKind::kDocument, "x1234567", "x1243567") == "one_edit");
  CHECK(Level(ComparisonKind::kDocument, "x1234567", "y7654321") == "different");
  CHECK(Level(ComparisonKind::kPhone, "+15551234567", "+15551234568") == "different");
  const auto T = ComparisonKind::kText;
  CHECK(Level(T, "london", "london") == "exact");
  CHECK(Level(T, "london", "lonon") == "similar");
  CHECK(Level(T, "kingston upon hull", "kingson upon hull") == "similar");
  CHECK(Level(T, "london", "leeds") == "different");
}

TEST_CASE("names and addresses split into their parts", "[matcher]") {
  CHECK(SplitName("anna maria meier").given == "anna");
  CHECK(SplitName("anna maria meier").surname == "meier");
  CHECK(SplitName("meier").given.empty());
  const NameParts jr = SplitName("john doe jr");
  CHECK(jr.given == "john");
  CHECK(jr.surname == "doe");
  CHECK(jr.suffix == "jr");
  const AddressParts a = SplitAddress("12 main st apt 4 10115");
  CHECK(a.house == "12");
  CHECK(a.street == "main st");
  CHECK(a.postal_code == "10115");
  CHECK(SplitAddress("po box").house.empty());
  // A flat before the house; a postcode in two parts.
  const AddressParts flat = SplitAddress("flat 3 12 high st london sw1a 1aa");
  CHECK(flat.house == "12");
  CHECK(flat.street == "high st");
  CHECK(flat.postal_code == "sw1a1aa");
  CHECK(SplitAddress("12 high st flat 3 london").postal_code.empty());
  // The street before the number.
  const AddressParts de = SplitAddress("hauptstrasse 5 10115 berlin");
  CHECK(de.house == "5");
  CHECK(de.street == "hauptstr");
  CHECK(de.postal_code == "10115");
  CHECK(SplitAddress("rue de rivoli 12 75001 paris").street == "rue de rivoli");
  // With no house number, a postcode is no house and the town no street.
  const AddressParts us = SplitAddress("main st springfield il 62704");
  CHECK(us.house.empty());
  CHECK(us.street.empty());
  CHECK(us.postal_code == "62704");
  CHECK(SplitAddress("high st london sw1a 1aa").postal_code == "sw1a1aa");
  CHECK(SplitAddress("high st london sw1a 1aa").house.empty());
  // fl and ste are floors and suites beside a number, Florida and Sainte
  // elsewhere; a floor's number may come first.
  const AddressParts florida = SplitAddress("100 ocean dr miami fl 33139");
  CHECK(florida.street == "ocean dr");
  CHECK(florida.postal_code == "33139");
  const AddressParts floor = SplitAddress("3rd fl 200 park ave 10166");
  CHECK(floor.house == "200");
  CHECK(floor.street == "park ave");
  CHECK(SplitAddress("200 park ave fl 3 10166").postal_code == "10166");
  CHECK(SplitAddress("1200 rue ste catherine montreal h3b 1k9").street == "rue ste catherine");
  CHECK(SplitAddress("5 main st ste 200 springfield").postal_code.empty());
  // A numbered street is a street, not a house or a postcode; a British
  // inward code that looks like an ordinal is still a code.
  const AddressParts fifth = SplitAddress("350 5th ave new york ny 10118");
  CHECK(fifth.house == "350");
  CHECK(fifth.street == "5th ave");
  CHECK(fifth.postal_code == "10118");
  CHECK(SplitAddress("100 w 42nd st").street == "w 42nd st");
  CHECK(SplitAddress("3 high st london e1 6st").postal_code == "e16st");
  // A range of houses is a house number, a ZIP+4 or a Portuguese code is
  // not; a post office box is the house, the town the street; a unit's
  // number may have a letter.
  CHECK(SplitAddress("1200-1210 main st springfield").house == "1200-1210");
  CHECK(SplitAddress("main st springfield il 62704-1234").house.empty());
  CHECK(Level(ComparisonKind::kAddress, "av liberdade 1250-096 lisboa",
              "rua augusta 1250-096 lisboa") == "postal_code_only");
  const AddressParts box = SplitAddress("postfach 1234 10115 berlin");
  CHECK(box.house == "box 1234");
  CHECK(box.street == "berlin");
  CHECK(box.postal_code == "10115");
  CHECK(SplitAddress("po box 2000 sydney").postal_code.empty());
  CHECK(Level(ComparisonKind::kAddress, "po box 2000 sydney nsw 2000",
              "gpo box 2000 sydney nsw 2000") == "house_and_street");
  CHECK(Level(ComparisonKind::kAddress, "po box 45 10115 berlin", "po box 99 10115 berlin") ==
        "postal_code_only");
  CHECK(SplitAddress("12 box hill rd melbourne 3128").street == "box hill rd");
  CHECK(SplitAddress("12 main st apt 1203b 10001").postal_code == "10001");
  CHECK(SplitAddress("12 main st miami fl 33101").postal_code == "33101");
  CHECK(CompareValues(ComparisonKind::kAddress, "main st springfield il 62704",
                      "oak st springfield il 62704") == 2);
}

}  // namespace
}  // namespace idres
