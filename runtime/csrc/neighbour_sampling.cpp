// Node-wise neighbour sampling without replacement, uniform (Floyd's algorithm) or weighted
// (Efraimidis–Spirakis), for all hops of a batch in one call: one parallel region per hop, then a serial pass
// that relabels and stitches the hop's edges in frontier order.
//
// Why one call: on a busy machine every OpenMP region and every tensor operation costs a barrier, and a batch
// of three hops done as tensor operations is dozens of them. Here it is one region per hop.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "counter_rng.h"
#include "floyd.h"
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

// One hop's sample for a contiguous block of frontier rows: neighbours in row order, `row_end[r]` = end of
// row r's neighbours within the block.
struct BlockSample {
  std::vector<int64_t> neighbour;
  std::vector<int64_t> row_end;
};

template <typename Index>
class NeighbourhoodSampler {
 public:
  NeighbourhoodSampler(const torch::Tensor& indptr, const torch::Tensor& indices, const float* edge_weight,
                       torch::Tensor& table, const std::vector<int64_t>& excluded)
      : indptr_(indptr.data_ptr<int64_t>()),
        indices_(indices.data_ptr<Index>()),
        edge_weight_(edge_weight),
        table_(table.data_ptr<int32_t>()),
        excluded_(excluded),
        num_nodes_(table.numel()) {}

  // Returns (node, edge_index [2, E], edge_weight, seed_local, nodes per hop, edges per hop).
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor, std::vector<int64_t>, std::vector<int64_t>>
  sample(const torch::Tensor& seeds_t, const std::vector<int64_t>& fanouts, int64_t key) {
    const int64_t* seeds = seeds_t.data_ptr<int64_t>();
    auto seed_local_t = torch::empty({seeds_t.numel()}, torch::kInt64);
    int64_t* seed_local = seed_local_t.data_ptr<int64_t>();
    for (int64_t i = 0; i < seeds_t.numel(); ++i) seed_local[i] = local_id(seeds[i]);
    std::vector<int64_t> nodes_per_hop{static_cast<int64_t>(nodes_.size())}, edges_per_hop;
    int64_t frontier_begin = 0;
    for (size_t hop = 0; hop < fanouts.size(); ++hop) {
      const int64_t frontier_end = static_cast<int64_t>(nodes_.size());
      const int64_t edges_before = static_cast<int64_t>(source_.size());
      sample_hop(frontier_begin, frontier_end, fanouts[hop], mix64(static_cast<uint64_t>(key) + hop));
      nodes_per_hop.push_back(static_cast<int64_t>(nodes_.size()) - frontier_end);
      edges_per_hop.push_back(static_cast<int64_t>(source_.size()) - edges_before);
      frontier_begin = frontier_end;
    }
    for (int64_t node : nodes_) table_[node] = -1;  // leave the table as found: only this batch's entries
    const int64_t num_edges = static_cast<int64_t>(source_.size());
    auto node_t = torch::from_blob(nodes_.data(), {static_cast<int64_t>(nodes_.size())}, torch::kInt64).clone();
    auto edge_index = torch::empty({2, num_edges}, torch::kInt64);
    std::copy(source_.begin(), source_.end(), edge_index.data_ptr<int64_t>());
    std::copy(target_.begin(), target_.end(), edge_index.data_ptr<int64_t>() + num_edges);
    auto weight_t = torch::from_blob(weight_.data(), {num_edges}, torch::kFloat32).clone();
    return {node_t, edge_index, weight_t, seed_local_t, nodes_per_hop, edges_per_hop};
  }

 private:
  int64_t local_id(int64_t id) {
    TORCH_CHECK(id >= 0 && id < num_nodes_, "node id ", id, " is outside [0, ", num_nodes_, ")");
    int32_t& entry = table_[id];
    if (entry < 0) {
      entry = static_cast<int32_t>(nodes_.size());
      nodes_.push_back(id);
    }
    return entry;
  }

  void sample_block(int64_t begin, int64_t end, int64_t fanout, uint64_t key, BlockSample& block) const {
    const int64_t* frontier = nodes_.data();
    std::vector<int64_t> picks;
    std::vector<std::pair<double, int64_t>> keys;  // (Efraimidis–Spirakis key, offset)
    for (int64_t i = begin; i < end; ++i) {
      prefetch_row(indptr_, indices_, frontier, i, end);
      const int64_t start = indptr_[frontier[i]], degree = indptr_[frontier[i] + 1] - start;
      const int64_t k = kept(degree, fanout);
      if (k == degree) {
        for (int64_t j = 0; j < degree; ++j) block.neighbour.push_back(indices_[start + j]);
      } else if (edge_weight_ == nullptr) {
        CounterRng rng(key, static_cast<uint64_t>(i));
        picks.resize(k);
        floyd(rng, degree, k, picks.data());
        for (int64_t j = 0; j < k; ++j) block.neighbour.push_back(indices_[start + picks[j]]);
      } else {  // the k largest keys log(u) / w are a weighted sample without replacement
        CounterRng rng(key, static_cast<uint64_t>(i));
        keys.resize(degree);
        for (int64_t j = 0; j < degree; ++j) keys[j] = {std::log(rng.open_unit()) / edge_weight_[start + j], j};
        std::nth_element(keys.begin(), keys.begin() + k, keys.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        for (int64_t j = 0; j < k; ++j) block.neighbour.push_back(indices_[start + keys[j].second]);
      }
      block.row_end.push_back(static_cast<int64_t>(block.neighbour.size()));
    }
  }

  bool is_excluded(int64_t target, int64_t neighbour) const {
    return !excluded_.empty() &&
           std::binary_search(excluded_.begin(), excluded_.end(), target * num_nodes_ + neighbour);
  }

  void sample_hop(int64_t frontier_begin, int64_t frontier_end, int64_t fanout, uint64_t key) {
    const int64_t n = frontier_end - frontier_begin;
    const int64_t num_blocks = (n + kGrain - 1) / kGrain;
    std::vector<BlockSample> blocks(num_blocks);
    // A small frontier (the seeds' hop) is sampled on this thread: waking the others costs more than it saves.
    constexpr int64_t kBlocksPerTask = 8;
    at::parallel_for(0, num_blocks, kBlocksPerTask, [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b)
        sample_block(frontier_begin + b * kGrain, std::min(frontier_begin + (b + 1) * kGrain, frontier_end), fanout,
                     key, blocks[b]);
    });
    // Serial: relabel in frontier order (so the numbering does not depend on threads) and weight each kept
    // edge 1 / (edges kept for its target), which makes the aggregation a mean.
    for (int64_t b = 0; b < num_blocks; ++b) {
      const BlockSample& block = blocks[b];
      int64_t row_start = 0;
      for (size_t r = 0; r < block.row_end.size(); ++r) {
        const int64_t target_local = frontier_begin + b * kGrain + static_cast<int64_t>(r);
        const int64_t target = nodes_[target_local];
        const size_t edges_before = source_.size();
        for (int64_t j = row_start; j < block.row_end[r]; ++j) {
          const int64_t neighbour = block.neighbour[j];
          if (is_excluded(target, neighbour)) continue;
          source_.push_back(local_id(neighbour));
          target_.push_back(target_local);
        }
        const size_t count = source_.size() - edges_before;
        weight_.insert(weight_.end(), count, count ? 1.0f / static_cast<float>(count) : 0.0f);
        row_start = block.row_end[r];
      }
    }
  }

  const int64_t* indptr_;
  const Index* indices_;
  const float* edge_weight_;
  int32_t* table_;
  const std::vector<int64_t>& excluded_;
  const int64_t num_nodes_;
  std::vector<int64_t> nodes_, source_, target_;
  std::vector<float> weight_;
};

}  // namespace

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor, std::vector<int64_t>, std::vector<int64_t>>
sample_neighbourhood(const torch::Tensor& indptr, const torch::Tensor& indices,
                     const std::optional<torch::Tensor>& edge_weight, torch::Tensor& table, const torch::Tensor& seeds,
                     const std::vector<int64_t>& fanouts, const torch::Tensor& excluded_keys, int64_t key) {
  check_csr(indptr, indices, seeds);
  for (int64_t fanout : fanouts) TORCH_CHECK(fanout > 0 || fanout == -1, "fanouts must be positive or -1");
  TORCH_CHECK(table.device().is_cpu() && table.is_contiguous() && table.scalar_type() == torch::kInt32 &&
                  table.numel() == indptr.numel() - 1,
              "the local-id table must be a contiguous CPU int32 tensor with one entry per node");
  const float* weight = nullptr;
  if (edge_weight.has_value()) {
    TORCH_CHECK(edge_weight->scalar_type() == torch::kFloat32 && edge_weight->is_contiguous() &&
                    edge_weight->numel() == indices.numel(),
                "edge_weight must be contiguous float32 with one entry per edge");
    weight = edge_weight->data_ptr<float>();
  }
  TORCH_CHECK(excluded_keys.scalar_type() == torch::kInt64 && excluded_keys.is_contiguous(),
              "excluded keys must be contiguous int64");
  std::vector<int64_t> excluded(excluded_keys.data_ptr<int64_t>(),
                                excluded_keys.data_ptr<int64_t>() + excluded_keys.numel());
  std::sort(excluded.begin(), excluded.end());
  if (indices.scalar_type() == torch::kInt32)
    return NeighbourhoodSampler<int32_t>(indptr, indices, weight, table, excluded).sample(seeds, fanouts, key);
  return NeighbourhoodSampler<int64_t>(indptr, indices, weight, table, excluded).sample(seeds, fanouts, key);
}

}  // namespace trainyard
