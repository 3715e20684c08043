// Global -> local relabelling of a sampled subgraph through a dense table (one entry per graph node).
#include <algorithm>
#include <vector>

#include "sampling.h"

namespace trainyard {
namespace {

// Sequential on purpose: numbering in order of first occurrence is what makes the seeds come first and the
// result independent of threads, and one pass over a batch's ids costs less than a parallel claim-and-compact.
template <typename Local>
std::tuple<torch::Tensor, torch::Tensor> relabel_with(torch::Tensor& table_t, const torch::Tensor& ids_t, int64_t count) {
  Local* table = table_t.data_ptr<Local>();
  const int64_t* ids = ids_t.data_ptr<int64_t>();
  const int64_t n = ids_t.numel();
  auto local_t = torch::empty({n}, torch::kInt64);
  int64_t* local = local_t.data_ptr<int64_t>();
  std::vector<int64_t> fresh;
  const int64_t num_nodes = table_t.numel();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t id = ids[i];
    TORCH_CHECK(id >= 0 && id < num_nodes, "node id ", id, " is outside [0, ", num_nodes, ")");
    Local& entry = table[id];
    if (entry < 0) {
      entry = static_cast<Local>(count + static_cast<int64_t>(fresh.size()));
      fresh.push_back(id);
    }
    local[i] = entry;
  }
  auto fresh_t = torch::empty({static_cast<int64_t>(fresh.size())}, torch::kInt64);
  std::copy(fresh.begin(), fresh.end(), fresh_t.data_ptr<int64_t>());
  return {local_t, fresh_t};
}

}  // namespace

std::tuple<torch::Tensor, torch::Tensor> relabel(torch::Tensor& table, const torch::Tensor& ids, int64_t count) {
  TORCH_CHECK(table.device().is_cpu() && table.is_contiguous() &&
                  (table.scalar_type() == torch::kInt32 || table.scalar_type() == torch::kInt64),
              "the local-id table must be a contiguous CPU int32 or int64 tensor");
  TORCH_CHECK(ids.device().is_cpu() && ids.scalar_type() == torch::kInt64 && ids.is_contiguous(),
              "ids must be contiguous CPU int64");
  if (table.scalar_type() == torch::kInt32) return relabel_with<int32_t>(table, ids, count);
  return relabel_with<int64_t>(table, ids, count);
}

}  // namespace trainyard
