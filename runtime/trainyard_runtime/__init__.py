"""Trainyard's in-memory neighbourhood-sampling GNN training runtime (GiGL trainer contract)."""

import warnings

# torch_geometric's import still calls torch.jit.script, which this torch deprecates; the warning would land in
# every job log without saying anything about the job.
warnings.filterwarnings("ignore", message=r".*torch\.jit\.script.*", category=FutureWarning)

__version__ = "0.1.0"
