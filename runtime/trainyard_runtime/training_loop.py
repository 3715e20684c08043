"""The training loop shared by the tasks: DDP, AdamW, periodic logging and validation."""

from __future__ import annotations

import time
from typing import Any, Protocol

import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel

import trainyard_runtime
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.distributed import ProcessContext
from trainyard_runtime.embeddings import NodeEmbeddings
from trainyard_runtime.loader.prefetch import prefetched
from trainyard_runtime.outputs.gpu_memory import gpu_memory_scalars
from trainyard_runtime.outputs.progress import ProgressReporter
from trainyard_runtime.outputs.tensorboard import ScalarLog


class Task(Protocol):
    name: str
    model: nn.Module
    node_embeddings: NodeEmbeddings | None  # trained beside the model, outside DDP
    seeds_per_epoch: int
    samples_with_collectives: bool  # a batch is made with collectives (partitioned graph): no sampling thread

    def training_batches(self) -> Any: ...

    def loss(self, model: nn.Module, batch: Any) -> tuple[torch.Tensor, int]: ...

    def evaluate(self, model: nn.Module, split: str, max_batches: int | None) -> dict[str, float]: ...


class TrainingLoop:
    def __init__(
        self, task: Task, args: TrainerArgs, context: ProcessContext, scalars: ScalarLog, progress: ProgressReporter
    ):
        self.task = task
        self.args = args
        self.context = context
        self.scalars = scalars
        self.progress = progress
        # num_max_train_batches and num_val_batches count over all processes, as in GiGL's examples.
        self.steps = max(args.num_max_train_batches // context.world_size, 1)
        self.val_batches = max(args.num_val_batches // context.world_size, 1)
        self.last_validation: dict[str, float] = {}

    def run(self) -> dict[str, float]:
        """Trains ``steps`` batches on this rank; returns a summary for the metrics file."""
        task, args, context = self.task, self.args, self.context
        model: nn.Module = task.model
        if context.is_distributed:
            device_ids = [context.device] if context.device.type == "cuda" else None
            model = DistributedDataParallel(task.model, device_ids=device_ids, process_group=context.group)
        optimizer = adamw(model.parameters(), args.learning_rate, args.weight_decay, context.device)
        model.train()
        batches = prefetched(task.training_batches(), context.device, in_thread=not task.samples_with_collectives)
        # Summed on the device and read once per log line: reading every step's loss would make the host
        # wait for each step, so nothing (the next batch's sampling) could overlap it.
        window_loss = torch.zeros((), dtype=torch.float64, device=context.device)
        window_edges, window_steps = 0, 0
        window_start = started = time.monotonic()
        last_loss = float("nan")
        for step in range(1, self.steps + 1):
            batch = next(batches)
            loss, sampled_edges = task.loss(model, batch)
            optimizer.zero_grad(set_to_none=True)
            if task.node_embeddings is not None:
                task.node_embeddings.zero_grad()
            loss.backward()
            optimizer.step()
            if task.node_embeddings is not None:
                task.node_embeddings.step()  # sparse all-reduce over ranks, then SparseAdam
            if step == 1:
                self.progress.say(
                    f"[trainyard] first training step after {time.monotonic() - trainyard_runtime.STARTED:.1f}s"
                )
            window_loss += loss.detach()
            window_edges += sampled_edges
            window_steps += 1
            if step % args.log_every_n_batch == 0 or step == self.steps:
                elapsed = time.monotonic() - window_start
                totals = context.all_reduce_sum(
                    torch.tensor([window_loss.item() / window_steps, window_steps, window_edges], dtype=torch.float64)
                )
                last_loss = totals[0].item() / context.world_size
                batches_per_s = totals[1].item() / max(elapsed, 1e-9)
                edges_per_s = totals[2].item() / max(elapsed, 1e-9)
                epoch = step * args.main_batch_size / task.seeds_per_epoch
                self.progress.report(step, epoch, last_loss, batches_per_s, edges_per_s)
                self.scalars.add("train/loss", last_loss, step)
                self.scalars.add("train/learning_rate", optimizer.param_groups[0]["lr"], step)
                self.scalars.add("train/mini_batches_per_second", batches_per_s, step)
                self.scalars.add("train/sampled_edges_per_second", edges_per_s, step)
                self.scalars.add("train/epoch", epoch, step)
                self.scalars.add_all("gpu", gpu_memory_scalars(context.device), step)
                window_loss.zero_()
                window_edges, window_steps = 0, 0
                window_start = time.monotonic()
            if step % args.val_every_n_batch == 0 or step == self.steps:
                self.validate(step)
        self.scalars.flush()
        return {"loss": last_loss, "batches": self.steps * context.world_size, "seconds": time.monotonic() - started}

    def validate(self, step: int) -> None:
        metrics = self.task.evaluate(self.task.model, "val", self.val_batches)
        self.last_validation = metrics
        self.scalars.add_all("val", metrics, step)
        self.progress.say(f"[val] step {step} | " + describe(metrics))


def adamw(parameters, learning_rate: float, weight_decay: float, device: torch.device) -> torch.optim.AdamW:
    """AdamW as one fused kernel on CUDA (the per-parameter kernels cost ~0.5 ms of launches per step there);
    on CPU the multi-tensor (foreach) implementation."""
    fused = device.type == "cuda"
    return torch.optim.AdamW(parameters, lr=learning_rate, weight_decay=weight_decay, fused=fused, foreach=not fused)


def describe(metrics: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in metrics.items())
