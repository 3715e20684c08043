// Python bindings of the native CPU sampler: trainyard_runtime.sampler._native.
#include "sampling.h"

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "Trainyard's CPU sampling kernels (C++, parallel over seeds with OpenMP through ATen)";
  m.def("sample_neighbourhood", &trainyard::sample_neighbourhood,
        "all hops of uniform or edge-weighted neighbour sampling without replacement, relabelled");
  m.def("sample_owned_rows", &trainyard::sample_owned_rows,
        "one hop of uniform sampling on a partition's rows, keyed by the rows' global ids");
  m.def("random_walk_neighbours", &trainyard::random_walk_neighbours, "PinSage random-walk neighbourhoods");
  m.def("relabel", &trainyard::relabel, "global to local ids in order of first occurrence");
  m.def("num_threads", []() { return at::get_num_threads(); }, "threads the kernels run on");
}
