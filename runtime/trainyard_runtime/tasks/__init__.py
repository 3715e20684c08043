"""Training tasks: what a batch is, its loss, and how a split is evaluated."""

from trainyard_runtime.tasks.link_prediction import LinkPredictionTask
from trainyard_runtime.tasks.node_classification import NodeClassificationTask

__all__ = ["LinkPredictionTask", "NodeClassificationTask"]
