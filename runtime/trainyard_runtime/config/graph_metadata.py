"""The task config's ``graphMetadata``: node types, edge types and supervision types, as GiGL writes them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from trainyard_runtime.config.params import ConfigError


class EdgeType(NamedTuple):
    """``(src, relation, dst)``: messages flow from ``src`` nodes to ``dst`` nodes, as in PyG and GiGL."""

    src: str
    relation: str
    dst: str

    def __str__(self) -> str:
        return f"({self.src}, {self.relation}, {self.dst})"


def _edge_type(value: Any, where: str) -> EdgeType:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a mapping with srcNodeType, relation, dstNodeType")
    try:
        return EdgeType(str(value["src_node_type"]), str(value["relation"]), str(value["dst_node_type"]))
    except KeyError as missing:
        raise ConfigError(f"{where} has no {missing.args[0]}") from None


@dataclass(frozen=True)
class GraphMetadata:
    """Node and edge types in GiGL's condensed order (the condensed id is the position in these lists).

    GiGL's config populator writes ``condensedNodeTypeMap`` / ``condensedEdgeTypeMap`` (id → type); a template
    config may only hold ``nodeTypes`` / ``edgeTypes``. The maps win when present, ordered by their ids.
    """

    node_types: tuple[str, ...]
    edge_types: tuple[EdgeType, ...]

    @property
    def is_heterogeneous(self) -> bool:
        return len(self.node_types) > 1 or len(self.edge_types) > 1

    @classmethod
    def from_dict(cls, section: dict[str, Any]) -> GraphMetadata:
        node_map = section.get("condensed_node_type_map") or {}
        edge_map = section.get("condensed_edge_type_map") or {}
        if not isinstance(node_map, dict) or not isinstance(edge_map, dict):
            raise ConfigError("graphMetadata.condensedNodeTypeMap and condensedEdgeTypeMap must be mappings")
        try:
            node_types = [str(node_map[key]) for key in sorted(node_map, key=int)] or [
                str(name) for name in section.get("node_types") or []
            ]
            edge_types = [
                _edge_type(edge_map[key], f"graphMetadata.condensedEdgeTypeMap.{key}")
                for key in sorted(edge_map, key=int)
            ]
        except ValueError:
            raise ConfigError("graphMetadata condensed type ids must be integers") from None
        if not edge_types:
            edge_types = [
                _edge_type(value, f"graphMetadata.edgeTypes[{i}]")
                for i, value in enumerate(section.get("edge_types") or [])
            ]
        if len(set(node_types)) != len(node_types) or len(set(edge_types)) != len(edge_types):
            raise ConfigError("graphMetadata lists a node or edge type twice")
        for edge_type in edge_types:
            for end in (edge_type.src, edge_type.dst):
                if node_types and end not in node_types:
                    raise ConfigError(
                        f"graphMetadata edge type {edge_type} names node type {end!r}, "
                        f"which is not among the node types {', '.join(node_types)}"
                    )
        return cls(tuple(node_types), tuple(edge_types))


def supervision_edge_types(task_metadata: dict[str, Any]) -> list[EdgeType]:
    items = task_metadata.get("supervision_edge_types") or []
    return [_edge_type(item, f"taskMetadata.supervisionEdgeTypes[{i}]") for i, item in enumerate(items)]
