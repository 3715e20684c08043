// Output layout shared by the samplers: each frontier node owns a contiguous block of the output, sized by a
// first parallel pass, filled by a second; so the result is ordered by frontier node whatever the threads do.
#pragma once

#include <ATen/Parallel.h>
#include <torch/extension.h>

#include <vector>

namespace trainyard {

// Frontier nodes per parallel task: large enough to amortise scheduling, small enough to balance hubs.
constexpr int64_t kGrain = 256;

// Rows are looked up this many frontier nodes ahead (software prefetch): sampling is bound by the latency
// of random reads into indptr and indices, and prefetching lets several of them be in flight at once.
constexpr int64_t kPrefetchDistance = 8;

template <typename Index>
inline void prefetch_row(const int64_t* indptr, const Index* indices, const int64_t* frontier, int64_t i, int64_t end) {
  if (i + 2 * kPrefetchDistance < end) __builtin_prefetch(indptr + frontier[i + 2 * kPrefetchDistance]);
  if (i + kPrefetchDistance < end) __builtin_prefetch(indices + indptr[frontier[i + kPrefetchDistance]]);
}

struct RowLayout {
  std::vector<int64_t> offset;  // offset[i] = first output slot of frontier node i; offset[n] = total
  int64_t total() const { return offset.back(); }
};

// `count(i)` is how many outputs frontier node i produces; evaluated in parallel, then prefix-summed.
template <typename Count>
RowLayout layout_rows(int64_t num_rows, Count count) {
  RowLayout layout;
  layout.offset.assign(num_rows + 1, 0);
  at::parallel_for(0, num_rows, kGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) layout.offset[i + 1] = count(i);
  });
  for (int64_t i = 0; i < num_rows; ++i) layout.offset[i + 1] += layout.offset[i];
  return layout;
}

}  // namespace trainyard
