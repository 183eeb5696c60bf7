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

void DisplayTransform::map_point(double x, double y, double& out_x, double& out_y) const {
  // Unrotated display coordinates first, then a clockwise quarter turn per /Rotate step: a turn
  // maps (u, v) on a W×H page to (H - v, u) on the H×W page.
  switch (quarters_) {
    case 0:
      out_x = x - left_;
      out_y = top_ - y;
      break;
    case 1:
      out_x = y - bottom_;
      out_y = x - left_;
      break;
    case 2:
      out_x = right_ - x;
      out_y = y - bottom_;
      break;
    default:
      out_x = top_ - y;
      out_y = right_ - x;
      break;
  }
}

Rect DisplayTransform::map_rect(double x_a, double y_a, double x_b, double y_b) const {
  double ax = 0, ay = 0, bx = 0, by = 0;
  map_point(x_a, y_a, ax, ay);
  map_point(x_b, y_b, bx, by);
  return Rect{std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
}

double DisplayTransform::map_angle(double user_radians) const {
  // A clockwise page turn turns everything on it clockwise, i.e. subtracts from a ccw angle.
  double angle = std::fmod(user_radians - quarters_ * (kTwoPi / 4), kTwoPi);
  if (angle < 0) angle += kTwoPi;
  // Rounding noise just below 2π is the same direction as 0.
  if (kTwoPi - angle < 1e-9) angle = 0;
  return angle;
}

}  // namespace ethos::pdf
