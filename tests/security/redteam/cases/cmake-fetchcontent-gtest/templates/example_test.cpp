#include <gtest/gtest.h>

static int add(int a, int b) { return a + b; }

TEST(Example, AddsNumbers) {
  EXPECT_EQ(add(2, 3), 5);
}
