"""A learnable input vector per node for graphs (or node types) without features.

The table lives outside the graph store and outside the DDP-wrapped model, as large-graph practice advises:
a batch looks up only its own nodes' rows, the backward pass produces a *sparse* gradient holding just those
rows, and ``torch.optim.SparseAdam`` reads and writes only them. With ``pin_memory`` the table stays in
page-locked CPU memory while the model trains on the GPU, so it may be larger than the GPU's share.

Several processes: every rank holds the same replica (same seed, same initial values). After each backward
pass the sparse gradients are summed over ranks with gloo's sparse all-reduce (NCCL has none) and divided by
the world size — the average DDP takes of the dense gradients — so every rank applies the identical SparseAdam
step and the replicas stay equal without ever sending the table itself.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
from torch import nn
from torch_geometric.data import Data

from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.config.trainer_args import TrainerArgs


class NodeEmbeddings(nn.Module):
    def __init__(
        self,
        num_nodes: int,
        dim: int,
        learning_rate: float,
        device: torch.device,
        pin_memory: bool = False,
        seed: int = 0,
    ):
        super().__init__()
        if num_nodes <= 0 or dim <= 0:
            raise ValueError("node embeddings need a positive node count and dimension")
        self.device = device
        table_device = torch.device("cpu") if pin_memory or device.type == "cpu" else device
        weight = torch.randn(num_nodes, dim, generator=torch.Generator().manual_seed(seed))
        if pin_memory and torch.cuda.is_available():
            weight = weight.pin_memory()
        self.table = nn.Embedding.from_pretrained(weight.to(table_device), freeze=False, sparse=True)
        self.optimizer = torch.optim.SparseAdam(self.table.parameters(), lr=learning_rate)
        self._world_size = dist.get_world_size() if dist.is_initialized() else 1
        self._group: dist.ProcessGroup | None = None
        if self._world_size > 1 and dist.get_backend() != "gloo":
            self._group = dist.new_group(backend="gloo")  # collective: every rank builds its table together

    @property
    def dim(self) -> int:
        return self.table.embedding_dim

    def forward(self, node: torch.Tensor) -> torch.Tensor:
        """The rows of ``node`` (global ids), on the training device."""
        rows = self.table(node.to(self.table.weight.device))
        if rows.device != self.device:
            rows = rows.pin_memory() if self.table.weight.is_pinned() else rows
            rows = rows.to(self.device, non_blocking=True)
        return rows

    def attach(self, batch: Data) -> Data:
        """The batch with each node's embedding appended to its features (``x`` gains ``dim`` columns)."""
        batch.x = torch.cat([batch.x, self(batch.node)], dim=1)
        return batch

    def zero_grad(self) -> None:
        self.optimizer.zero_grad(set_to_none=True)

    def step(self) -> None:
        """Averages the sparse gradient over ranks, then applies SparseAdam to the touched rows only."""
        weight = self.table.weight
        if weight.grad is None:
            return
        if self._world_size > 1:
            gradient = weight.grad.coalesce().cpu()
            dist.all_reduce(gradient, group=self._group)
            weight.grad = (gradient / self._world_size).coalesce().to(weight.device)
        self.optimizer.step()


def build_node_embeddings(
    args: TrainerArgs, num_nodes: int, num_features: int, device: torch.device
) -> NodeEmbeddings | None:
    """The table the trainer arguments ask for (``node_embedding_dim`` > 0), or None; a graph without features
    needs one. Every rank draws the same initial table from ``seed``."""
    if args.node_embedding_dim == 0:
        if num_features == 0:
            raise ConfigError("the graph has no node features: set the trainer argument node_embedding_dim")
        return None
    return NodeEmbeddings(
        num_nodes,
        args.node_embedding_dim,
        args.node_embedding_learning_rate,
        device,
        pin_memory=args.node_embedding_pin_memory,
        seed=args.seed,
    )
