// PinSage's random-walk neighbourhoods, parallel over the frontier: each node's walks run in its own stream.
#include <algorithm>
#include <vector>

#include "counter_rng.h"
#include "row_layout.h"
#include "sampling.h"

namespace trainyard {
namespace {

struct Visit {
  int64_t node;
  int64_t count;
  double score;  // count plus a random fraction: most visited first, ties broken without favouring small ids
};

template <typename Index>
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> walk(const torch::Tensor& indptr_t, const torch::Tensor& indices_t,
                                                             const torch::Tensor& frontier_t, int64_t fanout,
                                                             int64_t num_walks, int64_t walk_length,
                                                             double restart_probability, int64_t key) {
  const int64_t* indptr = indptr_t.data_ptr<int64_t>();
  const Index* indices = indices_t.data_ptr<Index>();
  const int64_t* frontier = frontier_t.data_ptr<int64_t>();
  const int64_t n = frontier_t.numel();
  // Each node's top `fanout` first go to a fixed-size scratch block, then are packed.
  std::vector<int64_t> top_node(n * fanout), top_count(n * fanout), found(n);
  at::parallel_for(0, n, kGrain, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> visited;
    std::vector<Visit> visits;
    for (int64_t i = begin; i < end; ++i) {
      CounterRng rng(static_cast<uint64_t>(key), static_cast<uint64_t>(i));
      const int64_t home = frontier[i];
      visited.clear();
      for (int64_t w = 0; w < num_walks; ++w) {
        int64_t position = home;
        for (int64_t step = 0; step < walk_length; ++step) {
          const int64_t start = indptr[position], degree = indptr[position + 1] - start;
          if (degree == 0) {  // a dead end sends the walk home
            position = home;
            continue;
          }
          const int64_t target = indices[start + rng.below(degree)];
          if (target != home) visited.push_back(target);
          position = rng.open_unit() <= restart_probability ? home : target;
        }
      }
      std::sort(visited.begin(), visited.end());
      visits.clear();
      for (size_t j = 0; j < visited.size();) {
        size_t run = j;
        while (run < visited.size() && visited[run] == visited[j]) ++run;
        const int64_t count = static_cast<int64_t>(run - j);
        visits.push_back({visited[j], count, static_cast<double>(count) + 0.5 * rng.open_unit()});
        j = run;
      }
      const int64_t k = std::min<int64_t>(fanout, static_cast<int64_t>(visits.size()));
      std::partial_sort(visits.begin(), visits.begin() + k, visits.end(),
                        [](const Visit& a, const Visit& b) { return a.score > b.score; });
      for (int64_t j = 0; j < k; ++j) {
        top_node[i * fanout + j] = visits[j].node;
        top_count[i * fanout + j] = visits[j].count;
      }
      found[i] = k;
    }
  });
  RowLayout layout = layout_rows(n, [&](int64_t i) { return found[i]; });
  auto nodes = torch::empty({layout.total()}, torch::kInt64);
  auto counts = torch::empty({layout.total()}, torch::kFloat32);
  auto rows = torch::empty({layout.total()}, torch::kInt64);
  int64_t* node_out = nodes.data_ptr<int64_t>();
  int64_t* row_out = rows.data_ptr<int64_t>();
  float* count_out = counts.data_ptr<float>();
  at::parallel_for(0, n, kGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      for (int64_t j = 0; j < found[i]; ++j) {
        node_out[layout.offset[i] + j] = top_node[i * fanout + j];
        count_out[layout.offset[i] + j] = static_cast<float>(top_count[i * fanout + j]);
        row_out[layout.offset[i] + j] = i;
      }
  });
  return {nodes, rows, counts};
}

}  // namespace

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> random_walk_neighbours(
    const torch::Tensor& indptr, const torch::Tensor& indices, const torch::Tensor& frontier, int64_t fanout,
    int64_t num_walks, int64_t walk_length, double restart_probability, int64_t key) {
  check_csr(indptr, indices, frontier);
  TORCH_CHECK(fanout > 0 && num_walks > 0 && walk_length > 0, "fanout, num_walks and walk_length must be positive");
  TORCH_CHECK(restart_probability >= 0.0 && restart_probability < 1.0, "restart_probability must lie in [0, 1)");
  if (indices.scalar_type() == torch::kInt32)
    return walk<int32_t>(indptr, indices, frontier, fanout, num_walks, walk_length, restart_probability, key);
  return walk<int64_t>(indptr, indices, frontier, fanout, num_walks, walk_length, restart_probability, key);
}

}  // namespace trainyard
