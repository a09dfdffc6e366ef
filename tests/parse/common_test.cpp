#include "rocekit/parse/common.hpp"

#include <gtest/gtest.h>

namespace rk::parse {

TEST(StripCaptureHeader, ThreeLineHeader) {
  CaptureText t = strip_capture_header("# source: x\n# notes: y\n# ---\nline1\nline2\n");
  EXPECT_EQ(t.body, "line1\nline2\n");
  EXPECT_EQ(t.body_first_line, 4u);
}

TEST(StripCaptureHeader, NoHeaderIsWholeBody) {
  CaptureText t = strip_capture_header("# comment but no end\nx\n");
  EXPECT_EQ(t.body, "# comment but no end\nx\n");
  EXPECT_EQ(t.body_first_line, 1u);
}

}  // namespace rk::parse
