// Visiting the legal actions of a legal mask in increasing order.
//
// A bot that values every legal action reads a mask of hundreds of ids of
// which a handful are legal; reading it byte by byte cost Rocket Squad's and
// Launch Pad's bots most of their decision time. Here 32 mask bytes are
// read at once and a run of zeros is skipped whole, so the cost follows the
// legal actions, not the mask's size. The order of the visits is the mask's,
// so a bot that breaks ties with its random stream draws as it did before.
#pragma once

#include <cstdint>
#include <cstring>

#include "envs/core/game.h"

namespace rocketgym {

// Calls visit(a) for every a in [begin, end) with mask[a] != 0, in increasing order.
template <class Visit>
inline void for_each_legal_action(const uint8_t* mask, int begin, int end, Visit&& visit) {
  const auto word_at = [mask](int a) {
    uint64_t word;
    std::memcpy(&word, mask + a, sizeof word);
    return word;
  };
  int a = begin;
  for (; a + 32 <= end; a += 32) {  // 32 ids at a time: most such runs of a mask are all zeros
    if ((word_at(a) | word_at(a + 8) | word_at(a + 16) | word_at(a + 24)) == 0) continue;
    for (int w = a; w < a + 32; w += 8) {
      if (word_at(w) == 0) continue;
      for (int b = w; b < w + 8; ++b)
        if (mask[b]) visit(static_cast<Action>(b));
    }
  }
  for (; a < end; ++a)
    if (mask[a]) visit(static_cast<Action>(a));
}

}  // namespace rocketgym
