// Floyd's sampling of distinct positions, shared by the batch sampler and the partition owner's row sampler.
#pragma once

#include <algorithm>
#include <cstdint>

#include "counter_rng.h"

namespace trainyard {

// Neighbours kept for a row of `degree` with `fanout` (-1: all of them).
inline int64_t kept(int64_t degree, int64_t fanout) { return fanout < 0 ? degree : std::min(degree, fanout); }

// Floyd's algorithm: `k` distinct offsets in [0, degree), uniformly, touching O(k) draws instead of the whole
// neighbour list of a hub. The membership test is a scan, fine for fanouts in the tens.
inline void floyd(CounterRng& rng, int64_t degree, int64_t k, int64_t* picks) {
  for (int64_t i = 0; i < k; ++i) {
    const int64_t upper = degree - k + i;  // inclusive bound of this draw
    int64_t draw = rng.below(upper + 1);
    if (std::find(picks, picks + i, draw) != picks + i) draw = upper;  // upper cannot have been drawn yet
    picks[i] = draw;
  }
}

}  // namespace trainyard
