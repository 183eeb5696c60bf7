// parse_frames.hpp - the byte protocol on the pipe from a parse worker to its supervisor: framed
// messages (page count, one encoded page layout, or an error envelope).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ethos::cli {

enum class FrameType : std::uint8_t {
  kPageCount = 'N',  // page: the document's page count; payload empty
  kPage = 'P',       // page: 0-based page index; payload: encode_page_layout bytes
  kError = 'E',      // payload: c14n {"code","message","details"} of the worker's EthosError
};

struct Frame {
  FrameType type = FrameType::kError;
  std::uint32_t page = 0;
  std::string payload;
};

// 1 type byte, 4 bytes page, 8 bytes payload length (little-endian), then the payload.
constexpr std::size_t kFrameHeaderBytes = 13;
std::string encode_frame_header(FrameType type, std::uint32_t page, std::uint64_t payload_bytes);

// Reassembles frames from arbitrary read() chunks.
class FrameReader {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes.data(), bytes.size()); }
  // Takes the next complete frame; false when more bytes are needed. An unknown type byte is a
  // protocol violation: returns false and sets broken().
  bool next(Frame& out);
  bool broken() const { return broken_; }
  // True when no partial frame is pending (a worker that ends mid-frame died while writing).
  bool idle() const { return buffer_.size() == offset_; }

 private:
  std::string buffer_;
  std::size_t offset_ = 0;
  bool broken_ = false;
};

}  // namespace ethos::cli
