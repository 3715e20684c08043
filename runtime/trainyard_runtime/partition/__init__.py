"""Partitioned graphs: each process holds one part of the graph and samples with collectives (SAR-style)."""

from trainyard_runtime.partition.partitioned_graph import PartitionedGraph
from trainyard_runtime.partition.partitioners import partition_nodes
from trainyard_runtime.partition.quality import PartitionQuality

__all__ = ["PartitionQuality", "PartitionedGraph", "partition_nodes"]
