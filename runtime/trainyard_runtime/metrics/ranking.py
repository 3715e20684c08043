"""MRR and hits@k of positive edges ranked against sampled negative candidates."""

from __future__ import annotations

from collections.abc import Callable

import torch


class RankingMetrics:
    """Accumulates ranks; one query is one positive edge (anchor, positive).

    The rank of a positive among its valid negative candidates is
    ``1 + #(negatives scoring higher) + #(negatives scoring equal) / 2`` — the mean of the optimistic and
    pessimistic ranks, so ties neither help nor hurt (OGB's convention). ``MRR`` is the mean of ``1 / rank``,
    ``hits@k`` the fraction of queries with ``rank <= k``.
    """

    def __init__(self, ks: tuple[int, ...] = (1, 10, 50)):
        self.ks = ks
        self.totals = torch.zeros(2 + len(ks), dtype=torch.float64)  # [queries, sum 1/rank, hits@k...]

    def update(self, positive: torch.Tensor, negatives: torch.Tensor, valid: torch.Tensor) -> None:
        """``positive`` [Q] scores, ``negatives`` [Q, K] scores, ``valid`` [Q, K] marks real negatives."""
        above = ((negatives > positive.unsqueeze(1)) & valid).sum(1)
        tied = ((negatives == positive.unsqueeze(1)) & valid).sum(1)
        rank = (1.0 + above + 0.5 * tied).double().cpu()
        hits = [(rank <= k).sum() for k in self.ks]
        self.totals += torch.tensor([rank.numel(), (1.0 / rank).sum(), *hits], dtype=torch.float64)

    def update_with_candidates(
        self, scores: torch.Tensor, candidate_ids: torch.Tensor, query_ids: torch.Tensor, num_nodes: int
    ) -> None:
        """``scores`` [Q, C] of Q queries against the candidates [their positives (one each, in order), sampled
        negatives]; a sampled negative that is the query's anchor or one of that anchor's positives in the
        batch is no negative."""
        num_positives = query_ids.numel()
        positive_ids, negative_ids = candidate_ids[:num_positives], candidate_ids[num_positives:]
        pair_keys = query_ids.unsqueeze(1) * num_nodes + negative_ids.unsqueeze(0)
        valid = (negative_ids.unsqueeze(0) != query_ids.unsqueeze(1)) & ~torch.isin(
            pair_keys, query_ids * num_nodes + positive_ids
        )
        self.update(scores.diagonal(), scores[:, num_positives:], valid)

    def compute(self, all_reduce: Callable[[torch.Tensor], torch.Tensor] = lambda t: t) -> dict[str, float]:
        totals = all_reduce(self.totals.clone())
        count = max(totals[0].item(), 1.0)
        result = {"mrr": totals[1].item() / count}
        result.update({f"hits@{k}": totals[2 + i].item() / count for i, k in enumerate(self.ks)})
        result["num_queries"] = int(totals[0].item())
        return result
