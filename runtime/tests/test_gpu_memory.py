import pytest
import torch

from trainyard_runtime.outputs.gpu_memory import gpu_memory_scalars


def test_a_cpu_run_writes_no_gpu_memory_scalars():
    assert gpu_memory_scalars(torch.device("cpu")) == {}


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_gpu_memory_counts_the_tensors_held():
    device = torch.device("cuda", 0)
    held = torch.empty(64 * 1024 * 1024, dtype=torch.uint8, device=device)
    scalars = gpu_memory_scalars(device)
    assert scalars["allocated_bytes"] >= held.numel()
    assert scalars["max_allocated_bytes"] >= scalars["allocated_bytes"]
    assert scalars["reserved_bytes"] >= scalars["allocated_bytes"]
