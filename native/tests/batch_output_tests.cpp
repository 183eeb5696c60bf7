// batch_output_tests.cpp - verify-batch's copy into the host's buffer: exact bytes whatever the size
// (empty, under a page, across blocks, split over two threads, pre-faulted), neighbours untouched.
#include <sys/mman.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/batch_output.hpp"
#include "test_check.hpp"

namespace {

// Blocks of the given sizes cut from one text of varied bytes; their concatenation is the text.
std::string text_of(std::size_t size) {
  std::string text(size, '\0');
  std::uint32_t seed = 12345;
  for (char& c : text) {
    seed = seed * 1103515245U + 12345U;
    c = static_cast<char>(seed >> 24);
  }
  return text;
}

// Copies blocks of `sizes` into fresh memory at `offset` bytes past a page start (the host's
// `bytes` starts a few dozen bytes into its allocation) and checks every byte, and that the
// bytes around the destination are unchanged.
void check_copy(const std::vector<std::size_t>& sizes, std::size_t offset) {
  std::size_t total = 0;
  for (std::size_t size : sizes) total += size;
  const std::string text = text_of(total);
  std::vector<std::string_view> blocks;
  std::size_t at = 0;
  for (std::size_t size : sizes) {
    blocks.push_back(std::string_view(text).substr(at, size));
    at += size;
  }
  ethos::BatchOutput output(std::move(blocks), {});
  CHECK(output.size() == total);
  // Fresh anonymous memory, as the host's buffer is: untouched pages the copy must fault in.
  const std::size_t mapped = offset + total + 8192;
  void* memory = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(memory != MAP_FAILED);
  if (memory == MAP_FAILED) return;
  char* const area = static_cast<char*>(memory);
  for (std::size_t i = 0; i < offset; ++i) area[i] = '<';
  area[offset + total] = '>';
  output.copy_into(area + offset);
  CHECK(std::string_view(area + offset, total) == text);
  bool before_kept = true;
  for (std::size_t i = 0; i < offset; ++i) before_kept = before_kept && area[i] == '<';
  CHECK(before_kept);
  CHECK(area[offset + total] == '>');
  CHECK(output.size() == 0);  // the blocks are released after the copy
  munmap(memory, mapped);
}

void test_copy_sizes() {
  check_copy({}, 48);                         // empty output
  check_copy({0, 0}, 48);                     // empty blocks only
  check_copy({1}, 48);                        // one byte
  check_copy({700, 0, 1200}, 4000);           // under a page, across a page boundary
  check_copy({4096 - 48, 4096, 1}, 48);       // block ends on page boundaries
  check_copy({300000, 5, 900000}, 48);        // one thread, over the pre-fault size
  // Over the two-thread size: each thread's half pre-faulted, the halves meeting inside a page.
  check_copy({5000000, 3, 4000001, 12345, 1}, 48);
  check_copy({6 << 20, 6 << 20}, 0);          // page-aligned destination
  check_copy({3 << 20, 1, 3 << 20, 4 << 20}, 4095);
}

void test_prefault_keeps_bytes() {
  // Pre-faulting a range already written changes nothing in it.
  std::string text = text_of(5 * 4096 + 77);
  const std::string want = text;
  ethos::prefault_for_writing(text.data(), text.size());
  ethos::prefault_for_writing(text.data() + 1, 10);  // no whole page inside: nothing asked
  ethos::prefault_for_writing(text.data(), 0);
  CHECK(text == want);
}

}  // namespace

int main() {
  test_copy_sizes();
  test_prefault_keeps_bytes();
  return ethos_test::finish("batch_output_tests");
}
