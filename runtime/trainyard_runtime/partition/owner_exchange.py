"""Requests for nodes go to their owners and answers come back, by ``all_to_all`` collectives (as SAR does),
not by point-to-point RPC (as DistDGL does). A process that owns a part but asks nothing itself (a graph-store
storage process) answers round after round, told what each round is by its header, until it is released."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.distributed as dist

from trainyard_runtime.partition.partitioned_graph import PartitionedGraph
from trainyard_runtime.sampler import native as native_kernels

# What a round asks (the header's third column): a hop of sampling (its fanout in the fourth), rows of the
# owners' tables, or the end of the requests (storage processes stop answering).
SAMPLE, FETCH, RELEASE = 0, 1, 2


@dataclass
class _Round:
    """One round's requests: ``order`` sorts the requested nodes by owner; ``sent[d]`` of them went to process
    ``d``; ``received`` are the ids this process got to answer, ``received_from[s]`` of them from process ``s``,
    whose key (the requester's random stream key of the hop) is ``keys[s]``. ``kind`` and ``fanout`` are what
    rank 0 asked (every requester asks the same in a round)."""

    order: torch.Tensor
    sent: list[int]
    received: torch.Tensor
    received_from: list[int]
    keys: list[int]
    kind: int
    fanout: int


class OwnerExchange:
    """Every request is a collective: every process of the world must take part in every round, in the same
    order, an empty request included (collectives match by order). Tensors travel on the process group's
    device (the current CUDA device for NCCL, the CPU for gloo); the part itself and the native sampling stay on
    the CPU, so on GPUs every message is copied there and back (not measured here: no GPU)."""

    def __init__(self, graph: PartitionedGraph):
        self.graph = graph
        self.num_parts = graph.num_parts
        self.distributed = dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1
        on_nccl = self.distributed and dist.get_backend() == "nccl"
        self.device = torch.device("cuda", torch.cuda.current_device()) if on_nccl else torch.device("cpu")
        self.bytes_sent = 0  # to other processes, all rounds so far: the network cost of a partitioned graph
        if self.distributed and dist.get_world_size() != self.num_parts:
            raise ValueError(f"{self.num_parts} parts need as many processes, not {dist.get_world_size()}")
        if not self.distributed and self.num_parts != 1:
            raise ValueError(f"{self.num_parts} parts need a process group of {self.num_parts} processes")

    def _all_to_all(self, send: torch.Tensor, send_splits: list[int], receive_splits: list[int]) -> torch.Tensor:
        if not self.distributed:
            return send
        row_bytes = math.prod(send.shape[1:]) * send.element_size()
        self.bytes_sent += (sum(send_splits) - send_splits[self.graph.rank]) * row_bytes
        received = torch.empty((sum(receive_splits), *send.shape[1:]), dtype=send.dtype, device=self.device)
        dist.all_to_all_single(received, send.to(self.device).contiguous(), receive_splits, send_splits)
        return received.cpu()

    def _request(self, nodes: torch.Tensor, key: int, kind: int, fanout: int = 0) -> _Round:
        """Sends each node's id to its owner: the counts (with the key and what is asked) first, then the ids."""
        nodes = nodes.long()
        owner = self.graph.owner[nodes].long()
        order = torch.argsort(owner, stable=True)
        sent = torch.bincount(owner, minlength=self.num_parts)
        header = torch.stack(
            [sent, torch.full_like(sent, key), torch.full_like(sent, kind), torch.full_like(sent, fanout)], 1
        )
        ones = [1] * self.num_parts
        received_header = self._all_to_all(header, ones, ones)
        received_from = received_header[:, 0].tolist()
        received = self._all_to_all(nodes[order], sent.tolist(), received_from)
        asked = received_header[0].tolist()
        return _Round(order, sent.tolist(), received, received_from, received_header[:, 1].tolist(), asked[2], asked[3])

    def sample_neighbours(self, frontier: torch.Tensor, fanout: int, key: int) -> tuple[torch.Tensor, torch.Tensor]:
        """One hop of uniform sampling for ``frontier`` (global ids) wherever its nodes live: up to ``fanout``
        neighbours each, drawn by the owner from the stream (``key``, node id). Returns (neighbours, index into
        ``frontier`` of the node each was sampled for), grouped by frontier node in frontier order."""
        return self._sample_round(self._request(frontier, key, SAMPLE, fanout), fanout)

    def _sample_round(self, requests: _Round, fanout: int) -> tuple[torch.Tensor, torch.Tensor]:
        graph = self.graph
        answers, answer_sizes, first = [], [], 0
        for source, count in enumerate(requests.received_from):
            ids = requests.received[first : first + count]
            first += count
            neighbours, per_node = native_kernels.sample_owned_rows(
                graph.indptr, graph.indices, graph.local_row[ids].long(), ids, fanout, requests.keys[source]
            )
            # Per node counts then the neighbours: one message per requester, unpacked by the counts.
            answers.append(torch.cat([per_node, neighbours]))
            answer_sizes.append(answers[-1].numel())
        ones = [1] * self.num_parts
        returned_sizes = self._all_to_all(torch.tensor(answer_sizes, dtype=torch.int64), ones, ones).tolist()
        returned = self._all_to_all(torch.cat(answers), answer_sizes, returned_sizes)
        counts, neighbours, first = [], [], 0
        for owner, size in enumerate(returned_sizes):
            message = returned[first : first + size]
            first += size
            counts.append(message[: requests.sent[owner]])
            neighbours.append(message[requests.sent[owner] :])
        row = torch.repeat_interleave(requests.order, torch.cat(counts))
        in_frontier_order = torch.argsort(row, stable=True)  # stable: each node keeps its owner's draw order
        return torch.cat(neighbours)[in_frontier_order], row[in_frontier_order]

    def fetch_rows(self, nodes: torch.Tensor) -> list[torch.Tensor]:
        """Rows of the part's tables (features, then labels if any) for ``nodes``, wherever they live, in the
        order of ``nodes``: the request round is shared, each table is one more ``all_to_all``."""
        return self._fetch_round(self._request(nodes, 0, FETCH))

    def _fetch_round(self, requests: _Round) -> list[torch.Tensor]:
        tables = self.graph.tables()
        rows = self.graph.local_row[requests.received].long()
        fetched = []
        for table in tables:
            arrived = self._all_to_all(table[rows], requests.received_from, requests.sent)
            in_order = torch.empty_like(arrived)
            in_order[requests.order] = arrived
            fetched.append(in_order)
        return fetched

    def serve(self) -> int:
        """Answers the other processes' rounds, asking nothing, until they :meth:`release` this process; returns
        how many rounds it answered. Rank 0 must be a requester: its header says what each round asks."""
        nothing = torch.empty(0, dtype=torch.int64)
        rounds = 0
        while True:
            requests = self._request(nothing, 0, SAMPLE)
            if requests.kind == RELEASE:
                return rounds
            if requests.kind == FETCH:
                self._fetch_round(requests)
            else:
                self._sample_round(requests, requests.fanout)
            rounds += 1

    def release(self) -> None:
        """Ends the serving processes' :meth:`serve`: every requesting process calls it once, together, after its
        last request."""
        self._request(torch.empty(0, dtype=torch.int64), 0, RELEASE)
