// parse_frames.cpp - frame header encoding and incremental frame reassembly.
#include "parse_frames.hpp"

namespace ethos::cli {

std::string encode_frame_header(FrameType type, std::uint32_t page, std::uint64_t payload_bytes) {
  std::string header(kFrameHeaderBytes, '\0');
  header[0] = static_cast<char>(type);
  for (int k = 0; k < 4; ++k) header[1 + k] = static_cast<char>((page >> (8 * k)) & 0xFF);
  for (int k = 0; k < 8; ++k) header[5 + k] = static_cast<char>((payload_bytes >> (8 * k)) & 0xFF);
  return header;
}

bool FrameReader::next(Frame& out) {
  if (broken_ || buffer_.size() - offset_ < kFrameHeaderBytes) return false;
  const auto* h = reinterpret_cast<const unsigned char*>(buffer_.data() + offset_);
  if (h[0] != 'N' && h[0] != 'P' && h[0] != 'E') {
    broken_ = true;
    return false;
  }
  std::uint32_t page = 0;
  for (int k = 0; k < 4; ++k) page |= static_cast<std::uint32_t>(h[1 + k]) << (8 * k);
  std::uint64_t length = 0;
  for (int k = 0; k < 8; ++k) length |= static_cast<std::uint64_t>(h[5 + k]) << (8 * k);
  if (buffer_.size() - offset_ - kFrameHeaderBytes < length) return false;
  out.type = static_cast<FrameType>(h[0]);
  out.page = page;
  out.payload.assign(buffer_, offset_ + kFrameHeaderBytes, static_cast<std::size_t>(length));
  offset_ += kFrameHeaderBytes + static_cast<std::size_t>(length);
  // Compact once everything buffered is consumed, so the buffer does not grow with the stream.
  if (offset_ == buffer_.size()) {
    buffer_.clear();
    offset_ = 0;
  }
  return true;
}

}  // namespace ethos::cli
