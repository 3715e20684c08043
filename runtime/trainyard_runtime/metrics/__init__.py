"""Evaluation metrics that sum across processes: ranking (MRR, hits@k) and accuracy."""

from trainyard_runtime.metrics.accuracy import Accuracy
from trainyard_runtime.metrics.ranking import RankingMetrics

__all__ = ["Accuracy", "RankingMetrics"]
