// The CPU sampler's hot loops. Sampling is parallel over frontier nodes (at::parallel_for, OpenMP) and
// deterministic for a given key: node i of a frontier always draws from random stream i; relabelling is serial.
#pragma once

#include <torch/extension.h>

#include <optional>
#include <tuple>
#include <vector>

namespace trainyard {

// Fails with a Python error unless the CSR arrays and the frontier are CPU tensors of the expected dtypes.
void check_csr(const torch::Tensor& indptr, const torch::Tensor& indices, const torch::Tensor& frontier);

// The whole neighbourhood of `seeds`, hop by hop: up to fanouts[h] distinct neighbours per node of hop h's
// frontier, uniformly or, given `edge_weight`, in proportion to it (fanout -1: all). Edges whose key
// target * num_nodes + neighbour is in `excluded_keys` are left out. `table` (int32, one entry per node, all -1)
// relabels and is left all -1. Returns (node: global ids, seeds first in order of first occurrence;
// edge_index [2, E] local (neighbour, target); edge_weight, 1 / edges kept for the target; seed_local;
// nodes added per hop; edges per hop).
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor, std::vector<int64_t>, std::vector<int64_t>>
sample_neighbourhood(const torch::Tensor& indptr, const torch::Tensor& indices,
                     const std::optional<torch::Tensor>& edge_weight, torch::Tensor& table, const torch::Tensor& seeds,
                     const std::vector<int64_t>& fanouts, const torch::Tensor& excluded_keys, int64_t key);

// Up to `fanout` distinct neighbours (uniformly; -1: all) of each local row `rows[i]` of a partition's CSR,
// drawn from the stream keyed by (key, node_ids[i]), the row's global id. Returns (neighbours in row order,
// neighbours per row).
std::tuple<torch::Tensor, torch::Tensor> sample_owned_rows(const torch::Tensor& indptr, const torch::Tensor& indices,
                                                           const torch::Tensor& rows, const torch::Tensor& node_ids,
                                                           int64_t fanout, int64_t key);

// PinSage: `num_walks` restarting walks of `walk_length` steps per frontier node; its `fanout` most visited
// nodes (ties broken at random). Returns (node ids, frontier position of each, visit counts as float32).
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> random_walk_neighbours(
    const torch::Tensor& indptr, const torch::Tensor& indices, const torch::Tensor& frontier, int64_t fanout,
    int64_t num_walks, int64_t walk_length, double restart_probability, int64_t key);

// Gives every id of `ids` not yet in `table` (a dense global -> local map, -1 = absent) the next local id,
// from `count` upwards, in order of first occurrence. Returns (local id of every entry, the new ids in order).
std::tuple<torch::Tensor, torch::Tensor> relabel(torch::Tensor& table, const torch::Tensor& ids, int64_t count);

}  // namespace trainyard
