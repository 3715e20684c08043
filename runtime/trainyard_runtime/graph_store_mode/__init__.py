"""GiGL's graph-store mode, run as one torch.distributed world: storage processes hold the partitioned graph,
compute processes train and sample through them with the same ``all_to_all`` rounds as a partitioned graph."""

from trainyard_runtime.graph_store_mode.cluster import GraphStoreCluster

__all__ = ["GraphStoreCluster"]
