"""A synthetic heterogeneous graph shaped like GiGL's DBLP example: authors, papers and terms."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from trainyard_runtime.data.edge_lists import canonical_pairs

AUTHOR, PAPER, TERM = "author", "paper", "term"


@dataclass
class RawHeteroGraph:
    """A typed source graph before splitting.

    ``links`` holds the undirected links between two node types, keyed by the (type, type) pair, as ``[2, E]``
    per-type ids (row 0 of the key's first type); the task config's edge types orient them. ``hard_negatives``
    holds, for some type pairs, pairs that look like links but are none (GiGL's ``y_negative`` labels).
    """

    num_nodes: dict[str, int]
    features: dict[str, torch.Tensor]
    labels: dict[str, torch.Tensor]
    links: dict[tuple[str, str], torch.Tensor]
    hard_negatives: dict[tuple[str, str], torch.Tensor] = field(default_factory=dict)


def _members_of(community: torch.Tensor, num_communities: int, generator: torch.Generator):
    """A function drawing, for each given community, a uniformly random node of that community."""
    members = torch.argsort(community, stable=True)
    size = torch.bincount(community, minlength=num_communities)
    first = torch.cumsum(size, 0) - size

    def draw(wanted: torch.Tensor) -> torch.Tensor:
        pick = (torch.rand(wanted.numel(), generator=generator) * size[wanted]).long().minimum(size[wanted] - 1)
        return members[first[wanted] + pick]

    return draw


def _bipartite(keys_a: torch.Tensor, partner: torch.Tensor, num_b: int) -> torch.Tensor:
    """Distinct (a, b) pairs."""
    unique = torch.unique(keys_a * num_b + partner)
    return torch.stack([unique // num_b, unique % num_b])


def dblp_like(
    num_authors: int,
    num_papers: int,
    num_terms: int,
    num_communities: int,
    authors_per_paper: int,
    terms_per_paper: int,
    citations_per_paper: int,
    intra_fraction: float,
    feature_dim: int,
    feature_noise: float,
    hard_negatives_per_paper: int,
    seed: int,
) -> RawHeteroGraph:
    """Every node belongs to one of ``num_communities`` research topics (its label).

    Each paper has ``authors_per_paper`` authors, ``terms_per_paper`` terms and cites ``citations_per_paper``
    papers; each of those partners comes from the paper's topic with probability ``intra_fraction``, else from
    anywhere. Features are a random per-type centroid of the topic plus Gaussian noise, so a model must learn a
    projection per node type. A paper's hard negatives are authors of its own topic who did not write it.
    """
    if num_communities < 1 or num_communities > min(num_authors, num_papers, num_terms):
        raise ValueError("num_communities must lie in [1, the smallest node count]")
    if not 0.0 <= intra_fraction <= 1.0:
        raise ValueError("intra_fraction must lie in [0, 1]")
    generator = torch.Generator().manual_seed(seed)
    counts = {AUTHOR: num_authors, PAPER: num_papers, TERM: num_terms}
    community = {kind: torch.randperm(n, generator=generator) % num_communities for kind, n in counts.items()}
    draw = {kind: _members_of(community[kind], num_communities, generator) for kind in counts}

    def partners(kind: str, per_paper: int) -> tuple[torch.Tensor, torch.Tensor]:
        paper = torch.arange(num_papers).repeat_interleave(per_paper)
        intra = torch.rand(paper.numel(), generator=generator) < intra_fraction
        anywhere = torch.randint(counts[kind], (paper.numel(),), generator=generator)
        return paper, torch.where(intra, draw[kind](community[PAPER][paper]), anywhere)

    paper, author = partners(AUTHOR, authors_per_paper)
    written = _bipartite(author, paper, num_papers)  # (author, paper)
    paper, term = partners(TERM, terms_per_paper)
    described = _bipartite(paper, term, num_terms)  # (paper, term)
    citing, cited = partners(PAPER, citations_per_paper)
    citations, _ = canonical_pairs(torch.stack([citing, cited]), num_papers)

    paper = torch.arange(num_papers).repeat_interleave(hard_negatives_per_paper)
    candidate = draw[AUTHOR](community[PAPER][paper])
    is_author = torch.isin(candidate * num_papers + paper, written[0] * num_papers + written[1])
    hard = torch.stack([candidate[~is_author], paper[~is_author]])

    features = {}
    for kind, n in counts.items():
        centroids = torch.randn(num_communities, feature_dim, generator=generator)
        features[kind] = centroids[community[kind]] + feature_noise * torch.randn(n, feature_dim, generator=generator)
    return RawHeteroGraph(
        num_nodes=counts,
        features=features,
        labels=community,
        links={(AUTHOR, PAPER): written, (PAPER, TERM): described, (PAPER, PAPER): citations},
        hard_negatives={(AUTHOR, PAPER): hard},
    )
