// pdfium_geometry.cpp - the user-space to display-space transform for the four page rotations.
#include "pdf/pdfium_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace ethos::pdf {
namespace {
constexpr double kTwoPi = 6.283185307179586476925286766559;
}  // namespace

DisplayTransform::DisplayTransform(double left, double bottom, double right, double top, int rotation_quarters)
    : left_(std::min(left, right)),
      bottom_(std::min(bottom, top)),
      right_(std::max(left, right)),
      top_(std::max(bottom, top)),
      quarters_(((rotation_quarters % 4) + 4) % 4) {}

double DisplayTransform::width() const { return quarters_ % 2 == 0 ? right_ - left_ : top_ - bottom_; }
double DisplayTransform::height() const { return quarters_ % 2 == 0 ? top_ - bottom_ : right_ - left_; }

double DisplayTransform::map_angle(double user_radians) const {
  // A clockwise page turn turns everything on it clockwise, i.e. subtracts from a ccw angle.
  const double turned = user_radians - quarters_ * (kTwoPi / 4);
  // The remainder of an angle already in [0, 2π) is the angle itself: skip the library call there
  // (upright text on an unturned page, nearly every glyph).
  double angle = turned >= 0 && turned < kTwoPi ? turned : std::fmod(turned, kTwoPi);
  if (angle < 0) angle += kTwoPi;
  // Rounding noise just below 2π is the same direction as 0.
  if (kTwoPi - angle < 1e-9) angle = 0;
  return angle;
}

}  // namespace ethos::pdf
