// The CPU sampler's hot loops. Every function is parallel over frontier nodes (at::parallel_for, OpenMP) and
// deterministic for a given key: node i of the frontier always draws from random stream i.
#pragma once

#include <torch/extension.h>

#include <tuple>

namespace trainyard {

// Fails with a Python error unless the CSR arrays and the frontier are CPU tensors of the expected dtypes.
void check_csr(const torch::Tensor& indptr, const torch::Tensor& indices, const torch::Tensor& frontier);

// Up to `fanout` distinct neighbours per frontier node, uniformly (all of them when the degree is at most the
// fanout; fanout < 0 means all). Returns (neighbour global ids, frontier position of each), rows in order.
std::tuple<torch::Tensor, torch::Tensor> sample_uniform(
    const torch::Tensor& indptr, const torch::Tensor& indices, const torch::Tensor& frontier, int64_t fanout,
    int64_t key);

// Like sample_uniform, without replacement in proportion to `edge_weight` (Efraimidis–Spirakis keys).
std::tuple<torch::Tensor, torch::Tensor> sample_weighted(
    const torch::Tensor& indptr, const torch::Tensor& indices, const torch::Tensor& edge_weight,
    const torch::Tensor& frontier, int64_t fanout, int64_t key);

// PinSage: `num_walks` restarting walks of `walk_length` steps per frontier node; its `fanout` most visited
// nodes (ties broken at random). Returns (node ids, frontier position of each, visit counts as float32).
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> random_walk_neighbours(
    const torch::Tensor& indptr, const torch::Tensor& indices, const torch::Tensor& frontier, int64_t fanout,
    int64_t num_walks, int64_t walk_length, double restart_probability, int64_t key);

// Gives every id of `ids` not yet in `table` (a dense global -> local map, -1 = absent) the next local id,
// from `count` upwards, in order of first occurrence. Returns (local id of every entry, the new ids in order).
std::tuple<torch::Tensor, torch::Tensor> relabel(torch::Tensor& table, const torch::Tensor& ids, int64_t count);

}  // namespace trainyard
