// pdfium_geometry.hpp - PDF user space (bottom-left origin, unrotated) to display space (top-left
// origin, /Rotate applied, crop box origin at 0,0): the one transform every extracted box goes through.
#pragma once

#include <algorithm>
#include <cstdint>

#include "pdf/raw_page.hpp"

namespace ethos::pdf {

class DisplayTransform {
 public:
  // box: the page's visible box in user space (crop box ∩ media box; FPDF_GetPageBoundingBox);
  // rotation_quarters: FPDFPage_GetRotation, the number of 90° clockwise turns (0-3).
  DisplayTransform(double left, double bottom, double right, double top, int rotation_quarters);

  double width() const;   // display width (the box's height for 90° and 270°)
  double height() const;
  std::int32_t rotation_degrees() const { return quarters_ * 90; }

  // Inline: every character's origin and two boxes go through these.
  void map_point(double x, double y, double& out_x, double& out_y) const {
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
  // Maps the two corners and orders them, so x0 <= x1 and y0 <= y1 whatever the rotation.
  Rect map_rect(double x_a, double y_a, double x_b, double y_b) const {
    double ax = 0, ay = 0, bx = 0, by = 0;
    map_point(x_a, y_a, ax, ay);
    map_point(x_b, y_b, bx, by);
    return Rect{std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
  }
  // An angle measured counter-clockwise in user space, as seen on the rotated display, in [0, 2π).
  double map_angle(double user_radians) const;

 private:
  double left_, bottom_, right_, top_;
  int quarters_;
};

}  // namespace ethos::pdf
