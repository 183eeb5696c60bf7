// parse_speed_paths_tests.cpp - the parse's fast paths give the same numbers as the library calls they skip.
//
// quantize rounds without llround, is_horizontal and map_angle skip fmod for angles already in
// [0, 2π): each is compared here, bit for bit, with the plain formula on tricky and random inputs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "pdf/layout_glyphs.hpp"
#include "pdf/pdfium_geometry.hpp"
#include "test_check.hpp"

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = 6.283185307179586476925286766559;

std::int64_t quantize_reference(double points) {
  if (!std::isfinite(points)) return 0;
  return static_cast<std::int64_t>(std::llround(std::clamp(points * 100.0, -1e12, 1e12)));
}

bool horizontal_reference(double angle) {
  double a = std::fmod(angle, 2 * kPi);
  if (a < 0) a += 2 * kPi;
  return a < 0.02 || a > 2 * kPi - 0.02;
}

double map_angle_reference(int quarters, double user) {
  double angle = std::fmod(user - quarters * (kTwoPi / 4), kTwoPi);
  if (angle < 0) angle += kTwoPi;
  if (kTwoPi - angle < 1e-9) angle = 0;
  return angle;
}

bool same_bits(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// A fixed sequence of doubles: every run tests the same inputs.
struct Numbers {
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  std::uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) / 9007199254740992.0; }
};

std::vector<double> tricky_points() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v{0.0, -0.0, 0.005, -0.005, 0.015, -0.015, 0.025, -0.025, 0.004999999999999999,
                        0.49999999999999994, -0.49999999999999994, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
                        1e10, -1e10, 1e12, -1e12, 1e300, -1e300, inf, -inf,
                        std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min(),
                        4503599627370495.5, -4503599627370495.5, 9007199254740993.0};
  // Every half quantum from -1000 to 1000 points: the rounding ties.
  for (int k = -200000; k <= 200000; k += 7) v.push_back((k + 0.5) / 100.0);
  return v;
}

void quantize_matches_llround() {
  int mismatches = 0;
  for (double p : tricky_points()) mismatches += ethos::pdf::quantize(p) != quantize_reference(p);
  Numbers n;
  for (int i = 0; i < 200000; ++i) {
    const double p = n.uniform(-2000, 2000);
    mismatches += ethos::pdf::quantize(p) != quantize_reference(p);
    // Exact ties at a random scale.
    const double tie = (std::floor(p * 100.0) + 0.5) / 100.0;
    mismatches += ethos::pdf::quantize(tie) != quantize_reference(tie);
  }
  CHECK(mismatches == 0);
  CHECK(ethos::pdf::quantize(0.125) == 13);    // 12.5 quanta: half away from zero
  CHECK(ethos::pdf::quantize(-0.125) == -13);
  CHECK(ethos::pdf::quantize(1e300) == 1000000000000);
  CHECK(ethos::pdf::quantize(std::numeric_limits<double>::quiet_NaN()) == 0);
}

std::vector<double> tricky_angles() {
  std::vector<double> v{0.0, -0.0, 0.02, std::nextafter(0.02, 0.0), std::nextafter(0.02, 1.0), -0.02,
                        2 * kPi - 0.02, std::nextafter(2 * kPi - 0.02, 0.0), std::nextafter(2 * kPi - 0.02, 7.0),
                        2 * kPi, std::nextafter(2 * kPi, 0.0), -2 * kPi, 4 * kPi + 0.01, -4 * kPi + 0.01,
                        kPi, -kPi, kPi / 2, 3 * kPi / 2, 1e9, -1e9,
                        std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()};
  return v;
}

void is_horizontal_matches_fmod() {
  int mismatches = 0;
  for (double a : tricky_angles()) mismatches += ethos::pdf::is_horizontal(a) != horizontal_reference(a);
  Numbers n;
  for (int i = 0; i < 200000; ++i) {
    const double a = n.uniform(-20, 20);
    mismatches += ethos::pdf::is_horizontal(a) != horizontal_reference(a);
  }
  CHECK(mismatches == 0);
  CHECK(ethos::pdf::is_horizontal(0.0));
  CHECK(ethos::pdf::is_horizontal(-0.01));
  CHECK(!ethos::pdf::is_horizontal(kPi / 2));
}

void map_angle_matches_fmod() {
  int mismatches = 0;
  Numbers n;
  for (int quarters = 0; quarters < 4; ++quarters) {
    const ethos::pdf::DisplayTransform transform(0, 0, 612, 792, quarters);
    std::vector<double> angles = tricky_angles();
    // What PDFium reports: float angles in [0, 2π).
    for (int i = 0; i < 50000; ++i) angles.push_back(static_cast<float>(n.uniform(0, kTwoPi)));
    for (double a : angles) mismatches += !same_bits(transform.map_angle(a), map_angle_reference(quarters, a));
  }
  CHECK(mismatches == 0);
}

}  // namespace

int main() {
  quantize_matches_llround();
  is_horizontal_matches_fmod();
  map_angle_matches_fmod();
  return ethos_test::finish("parse_speed_paths_tests");
}
