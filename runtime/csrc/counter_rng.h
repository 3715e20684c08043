// A counter-based random stream: the numbers of a stream depend only on (key, stream id), never on which
// thread runs it or in what order, so sampling is reproducible for a seed whatever the thread count.
#pragma once

#include <cmath>
#include <cstdint>

namespace trainyard {

// SplitMix64's finaliser: a bijective mix with full avalanche, the usual way to seed independent streams.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class CounterRng {
 public:
  // One stream per (key, stream): the sampler passes a fresh key per hop and the frontier position as stream.
  CounterRng(uint64_t key, uint64_t stream) : state_(mix64(key ^ mix64(stream + 0x9E3779B97F4A7C15ULL))) {}

  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    return mix64(state_);
  }

  // Uniform integer in [0, bound): Lemire's multiply-shift (bias below 2^-32 for any bound under 2^32).
  int64_t below(int64_t bound) {
    return static_cast<int64_t>((static_cast<unsigned __int128>(next()) * static_cast<uint64_t>(bound)) >> 64);
  }

  // Uniform double in (0, 1]: never 0, so log(u) stays finite.
  double open_unit() { return (static_cast<double>(next() >> 11) + 1.0) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace trainyard
