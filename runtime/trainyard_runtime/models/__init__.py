"""GraphSAGE encoder, link-prediction and node-classification heads, GiGL's retrieval loss."""

from trainyard_runtime.models.graphsage import GraphSAGE
from trainyard_runtime.models.link_prediction import LinkPredictionModel
from trainyard_runtime.models.node_classification import NodeClassifier
from trainyard_runtime.models.retrieval_loss import RetrievalLoss

__all__ = ["GraphSAGE", "LinkPredictionModel", "NodeClassifier", "RetrievalLoss"]
