// One hop of neighbour sampling on a partition's own rows, for requests that other processes sent it.
//
// Why the stream is the node's global id (not its position in the request): which process owns a node, and so
// where it sits in a request, depends on the partitioning; the node's global id does not. With the stream
// keyed by (hop key, global id) every partitioning samples the same neighbours for a node.
#include <vector>

#include "counter_rng.h"
#include "floyd.h"
#include "row_layout.h"
#include "sampling.h"

namespace trainyard {

namespace {

template <typename Index>
std::tuple<torch::Tensor, torch::Tensor> sample_rows(const torch::Tensor& indptr_t, const torch::Tensor& indices_t,
                                                     const torch::Tensor& rows_t, const torch::Tensor& node_ids_t,
                                                     int64_t fanout, int64_t key) {
  const int64_t* indptr = indptr_t.data_ptr<int64_t>();
  const Index* indices = indices_t.data_ptr<Index>();
  const int64_t* rows = rows_t.data_ptr<int64_t>();
  const int64_t* node_ids = node_ids_t.data_ptr<int64_t>();
  const int64_t n = rows_t.numel();
  const RowLayout layout =
      layout_rows(n, [&](int64_t i) { return kept(indptr[rows[i] + 1] - indptr[rows[i]], fanout); });
  auto neighbour_t = torch::empty({layout.total()}, torch::kInt64);
  int64_t* neighbour = neighbour_t.data_ptr<int64_t>();
  at::parallel_for(0, n, kGrain, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> picks;
    for (int64_t i = begin; i < end; ++i) {
      prefetch_row(indptr, indices, rows, i, end);
      const int64_t start = indptr[rows[i]], degree = indptr[rows[i] + 1] - start;
      int64_t* out = neighbour + layout.offset[i];
      const int64_t k = layout.offset[i + 1] - layout.offset[i];
      if (k == degree) {
        for (int64_t j = 0; j < degree; ++j) out[j] = indices[start + j];
        continue;
      }
      CounterRng rng(static_cast<uint64_t>(key), static_cast<uint64_t>(node_ids[i]));
      picks.resize(k);
      floyd(rng, degree, k, picks.data());
      for (int64_t j = 0; j < k; ++j) out[j] = indices[start + picks[j]];
    }
  });
  auto counts_t = torch::empty({n}, torch::kInt64);
  int64_t* counts = counts_t.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) counts[i] = layout.offset[i + 1] - layout.offset[i];
  return {neighbour_t, counts_t};
}

}  // namespace

std::tuple<torch::Tensor, torch::Tensor> sample_owned_rows(const torch::Tensor& indptr, const torch::Tensor& indices,
                                                           const torch::Tensor& rows, const torch::Tensor& node_ids,
                                                           int64_t fanout, int64_t key) {
  check_csr(indptr, indices, rows);
  TORCH_CHECK(fanout > 0 || fanout == -1, "the fanout must be positive or -1");
  TORCH_CHECK(node_ids.scalar_type() == torch::kInt64 && node_ids.is_contiguous() && node_ids.numel() == rows.numel(),
              "node_ids must be contiguous int64, one per row");
  if (indices.scalar_type() == torch::kInt32) return sample_rows<int32_t>(indptr, indices, rows, node_ids, fanout, key);
  return sample_rows<int64_t>(indptr, indices, rows, node_ids, fanout, key);
}

}  // namespace trainyard
