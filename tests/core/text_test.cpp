#include "rocekit/core/text.hpp"

#include <gtest/gtest.h>

namespace rk::text {

TEST(Text, TrimAndWords) {
  EXPECT_EQ(trim("  \tab c \r\n"), "ab c");
  auto w = words("  Link detected:\t yes ");
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0], "Link");
  EXPECT_EQ(w[2], "yes");
}

TEST(Text, LinesDropsCrAndFinalEmpty) {
  auto l = lines("a\r\nb\n\nc\n");
  ASSERT_EQ(l.size(), 4u);
  EXPECT_EQ(l[0], "a");
  EXPECT_EQ(l[2], "");
  EXPECT_EQ(l[3], "c");
}

TEST(Text, Numbers) {
  EXPECT_EQ(parse_int(" -42 "), -42);
  EXPECT_EQ(parse_int("42x"), std::nullopt);
  EXPECT_EQ(parse_uint("18446744073709551615"), 18446744073709551615ULL);
  EXPECT_EQ(parse_uint("18446744073709551616"), std::nullopt);
  EXPECT_EQ(parse_hex("0x15b3"), 0x15b3u);
  EXPECT_EQ(parse_hex("1017"), 0x1017u);
  EXPECT_DOUBLE_EQ(*parse_double("2.5"), 2.5);
  EXPECT_EQ(parse_double(""), std::nullopt);
}

TEST(Text, Binary) {
  EXPECT_TRUE(looks_binary(std::string_view("ab\0cd", 5)));
  EXPECT_FALSE(looks_binary("NIC statistics:\n     rx_packets: 1\n"));
}

}  // namespace rk::text

namespace rk::text {

TEST(JsonErrorMessage, DropsTheLibraryPrefixOnly) {
  EXPECT_EQ(json_error_message("[json.exception.type_error.302] (/netdevs) type must be array, but is string"),
            "(/netdevs) type must be array, but is string");
  EXPECT_EQ(json_error_message("[json.exception.out_of_range.406] number overflow parsing '1e400'"),
            "number overflow parsing '1e400'");
  EXPECT_EQ(json_error_message("no prefix [x] here"), "no prefix [x] here");
}

TEST(EscapeControl, EscapesTerminalControlButKeepsTextAndUtf8) {
  EXPECT_EQ(escape_control("gpu01\n## x\x1b[31m"), "gpu01\\x0a## x\\x1b[31m");
  EXPECT_EQ(escape_control("a\nb\tc\x7f", true), "a\nb\tc\\x7f");
  EXPECT_EQ(escape_control("enp24s0np0 — ok"), "enp24s0np0 — ok");
}

}  // namespace rk::text
