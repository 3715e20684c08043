// Node-wise neighbour sampling without replacement: uniform (Floyd's algorithm) and weighted
// (Efraimidis–Spirakis), parallel over the frontier.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "counter_rng.h"
#include "row_layout.h"
#include "sampling.h"

namespace trainyard {

void check_csr(const torch::Tensor& indptr, const torch::Tensor& indices, const torch::Tensor& frontier) {
  TORCH_CHECK(indptr.device().is_cpu() && indices.device().is_cpu() && frontier.device().is_cpu(),
              "the native sampler runs on CPU tensors");
  TORCH_CHECK(indptr.scalar_type() == torch::kInt64 && indptr.is_contiguous(), "indptr must be contiguous int64");
  TORCH_CHECK(indices.is_contiguous() && (indices.scalar_type() == torch::kInt32 || indices.scalar_type() == torch::kInt64),
              "indices must be contiguous int32 or int64");
  TORCH_CHECK(frontier.scalar_type() == torch::kInt64 && frontier.is_contiguous(), "frontier must be contiguous int64");
}

namespace {

int64_t kept(int64_t degree, int64_t fanout) { return fanout < 0 ? degree : std::min(degree, fanout); }

// Floyd's algorithm: `k` distinct offsets in [0, degree), uniformly, touching O(k) draws instead of the whole
// neighbour list of a hub. `picks` has room for k; the membership test is a scan, fine for fanouts in the tens.
void floyd(CounterRng& rng, int64_t degree, int64_t k, int64_t* picks) {
  for (int64_t i = 0; i < k; ++i) {
    const int64_t upper = degree - k + i;  // inclusive bound of this draw
    int64_t draw = rng.below(upper + 1);
    if (std::find(picks, picks + i, draw) != picks + i) draw = upper;  // upper cannot have been drawn yet
    picks[i] = draw;
  }
}

template <typename Index>
std::tuple<torch::Tensor, torch::Tensor> uniform(const torch::Tensor& indptr_t, const torch::Tensor& indices_t,
                                                 const torch::Tensor& frontier_t, int64_t fanout, int64_t key) {
  const int64_t* indptr = indptr_t.data_ptr<int64_t>();
  const Index* indices = indices_t.data_ptr<Index>();
  const int64_t* frontier = frontier_t.data_ptr<int64_t>();
  const int64_t n = frontier_t.numel();
  RowLayout layout = layout_rows(n, [&](int64_t i) {
    return kept(indptr[frontier[i] + 1] - indptr[frontier[i]], fanout);
  });
  auto neighbours = torch::empty({layout.total()}, torch::kInt64);
  auto rows = torch::empty({layout.total()}, torch::kInt64);
  int64_t* out = neighbours.data_ptr<int64_t>();
  int64_t* row_out = rows.data_ptr<int64_t>();
  at::parallel_for(0, n, kGrain, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> picks;
    for (int64_t i = begin; i < end; ++i) {
      prefetch_row(indptr, indices, frontier, i, end);
      const int64_t start = indptr[frontier[i]], degree = indptr[frontier[i] + 1] - start;
      int64_t* slot = out + layout.offset[i];
      std::fill(row_out + layout.offset[i], row_out + layout.offset[i + 1], i);
      const int64_t k = kept(degree, fanout);
      if (k == degree) {
        for (int64_t j = 0; j < degree; ++j) slot[j] = indices[start + j];
        continue;
      }
      CounterRng rng(static_cast<uint64_t>(key), static_cast<uint64_t>(i));
      picks.resize(k);
      floyd(rng, degree, k, picks.data());
      for (int64_t j = 0; j < k; ++j) slot[j] = indices[start + picks[j]];
    }
  });
  return {neighbours, rows};
}

template <typename Index>
std::tuple<torch::Tensor, torch::Tensor> weighted(const torch::Tensor& indptr_t, const torch::Tensor& indices_t,
                                                  const torch::Tensor& weight_t, const torch::Tensor& frontier_t,
                                                  int64_t fanout, int64_t key) {
  const int64_t* indptr = indptr_t.data_ptr<int64_t>();
  const Index* indices = indices_t.data_ptr<Index>();
  const float* weight = weight_t.data_ptr<float>();
  const int64_t* frontier = frontier_t.data_ptr<int64_t>();
  const int64_t n = frontier_t.numel();
  RowLayout layout = layout_rows(n, [&](int64_t i) {
    return kept(indptr[frontier[i] + 1] - indptr[frontier[i]], fanout);
  });
  auto neighbours = torch::empty({layout.total()}, torch::kInt64);
  auto rows = torch::empty({layout.total()}, torch::kInt64);
  int64_t* out = neighbours.data_ptr<int64_t>();
  int64_t* row_out = rows.data_ptr<int64_t>();
  at::parallel_for(0, n, kGrain, [&](int64_t begin, int64_t end) {
    std::vector<std::pair<double, int64_t>> keys;  // (Efraimidis–Spirakis key, offset)
    for (int64_t i = begin; i < end; ++i) {
      prefetch_row(indptr, indices, frontier, i, end);
      const int64_t start = indptr[frontier[i]], degree = indptr[frontier[i] + 1] - start;
      int64_t* slot = out + layout.offset[i];
      std::fill(row_out + layout.offset[i], row_out + layout.offset[i + 1], i);
      const int64_t k = kept(degree, fanout);
      if (k == degree) {
        for (int64_t j = 0; j < degree; ++j) slot[j] = indices[start + j];
        continue;
      }
      // The k largest keys log(u) / w are a weighted sample without replacement.
      CounterRng rng(static_cast<uint64_t>(key), static_cast<uint64_t>(i));
      keys.resize(degree);
      for (int64_t j = 0; j < degree; ++j) keys[j] = {std::log(rng.open_unit()) / weight[start + j], j};
      std::nth_element(keys.begin(), keys.begin() + k, keys.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (int64_t j = 0; j < k; ++j) slot[j] = indices[start + keys[j].second];
    }
  });
  return {neighbours, rows};
}

}  // namespace

std::tuple<torch::Tensor, torch::Tensor> sample_uniform(const torch::Tensor& indptr, const torch::Tensor& indices,
                                                        const torch::Tensor& frontier, int64_t fanout, int64_t key) {
  check_csr(indptr, indices, frontier);
  TORCH_CHECK(fanout != 0, "fanout must be positive or -1");
  if (indices.scalar_type() == torch::kInt32) return uniform<int32_t>(indptr, indices, frontier, fanout, key);
  return uniform<int64_t>(indptr, indices, frontier, fanout, key);
}

std::tuple<torch::Tensor, torch::Tensor> sample_weighted(const torch::Tensor& indptr, const torch::Tensor& indices,
                                                         const torch::Tensor& edge_weight, const torch::Tensor& frontier,
                                                         int64_t fanout, int64_t key) {
  check_csr(indptr, indices, frontier);
  TORCH_CHECK(fanout != 0, "fanout must be positive or -1");
  TORCH_CHECK(edge_weight.scalar_type() == torch::kFloat32 && edge_weight.is_contiguous() &&
                  edge_weight.numel() == indices.numel(),
              "edge_weight must be contiguous float32 with one entry per edge");
  if (indices.scalar_type() == torch::kInt32) return weighted<int32_t>(indptr, indices, edge_weight, frontier, fanout, key);
  return weighted<int64_t>(indptr, indices, edge_weight, frontier, fanout, key);
}

}  // namespace trainyard
