"""The trainer entry point: ``python -m trainyard_runtime.train --job_name=… --task_config_uri=… …``.

Started by Trainyard's server as argv (never a shell), one process per worker, or by hand with ``--nproc``.
Exit status: 0 done, 2 bad arguments or configuration (the message names the culprit), 1 anything else.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch

from trainyard_runtime.allocator import retain_freed_memory
from trainyard_runtime.config.command_line import CommandLine, parse_command_line
from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.config.task_config import TaskConfig, load_resource_config
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.dataset import GraphDataset, build_dataset
from trainyard_runtime.data.hetero_dataset import HeteroGraphDataset, build_hetero_dataset
from trainyard_runtime.distributed import (
    ProcessContext,
    default_store_folder,
    join_process_group,
    leave_process_group,
    partition_dataset,
    share_dataset,
    spawn_local_processes,
)
from trainyard_runtime.graph_store_mode import GraphStoreCluster
from trainyard_runtime.outputs.artifacts import load_state_dict, save_state_dict, write_metrics
from trainyard_runtime.outputs.progress import ProgressReporter
from trainyard_runtime.outputs.tensorboard import ScalarLog
from trainyard_runtime.partition.partitioned_dataset import PartitionedDataset
from trainyard_runtime.tasks import LinkPredictionTask, NodeClassificationTask
from trainyard_runtime.tasks.hetero_link_prediction import HeteroLinkPredictionTask
from trainyard_runtime.tasks.hetero_node_classification import HeteroNodeClassificationTask
from trainyard_runtime.training_loop import TrainingLoop, describe
from trainyard_runtime.uris import local_path


class TrainingJob:
    """One process's share of a training job: the configuration, resolved once, and the run.

    ``graph_store`` is set in GiGL's graph-store mode: this process is then a compute process (the trainer) or,
    started as :mod:`trainyard_runtime.graph_store_mode.storage_main`, a storage process."""

    def __init__(
        self,
        command_line: CommandLine,
        config: TaskConfig,
        args: TrainerArgs,
        work_dir: Path,
        graph_store: GraphStoreCluster | None = None,
    ):
        self.command_line = command_line
        self.config = config
        self.args = args
        self.work_dir = work_dir
        self.graph_store = graph_store
        self.model_path = self._output(
            "trained_model_uri", required=not config.should_skip_model_evaluation or not config.should_skip_training
        )
        self.metrics_path = self._output("eval_metrics_uri", required=False)
        self.tensorboard_path = self._output("tensorboard_logs_uri", required=False)

    def _output(self, field: str, required: bool) -> Path | None:
        uri = getattr(self.config, field)
        if uri is None:
            if required:
                raise ConfigError(f"sharedConfig.trainedModelMetadata.{field} is required")
            return None
        return local_path(uri, self.work_dir, f"sharedConfig.trainedModelMetadata.{field}")

    def build_dataset(self) -> GraphDataset:
        return build_dataset(
            self.config.data_preprocessor_args,
            self.config.split_fractions,
            self.config.task,
            self.work_dir,
            self.config.preprocessed_metadata_uri,
            with_edge_weights=self.args.sampler == "weighted",
        )

    def store_folder(self) -> Path:
        return default_store_folder(self.args.graph_store_dir, self.command_line.job_name)

    def _build_task(self, context: ProcessContext, world: ProcessContext, progress: ProgressReporter, started: float):
        """Builds (once per host) and shares the dataset, then the task that trains on it."""
        config, args = self.config, self.args
        folder = self.store_folder()
        if self.graph_store is not None:
            return self._build_compute_task(context, world, progress, started, folder)
        if args.graph_partitions > 1:
            return self._build_partitioned_task(context, progress, started, folder)
        if config.graph.is_heterogeneous:
            return self._build_hetero_task(context, progress, started, folder)
        dataset = share_dataset(context, self.build_dataset, folder)
        if context.device.type == "cuda":
            # Store and labels live on the GPU, so sampling and gathering never cross the PCIe bus.
            labels = None if dataset.labels is None else dataset.labels.to(context.device)
            dataset = GraphDataset(dataset.store.to(context.device), labels, dataset.splits)
        store = dataset.store
        progress.say(
            f"[trainyard] graph store: {store.num_nodes} nodes, {store.num_edges} edges, structure "
            f"{store.structure_bytes() / 2**20:.1f} MiB ({store.index_bytes_per_edge()} B/edge + 8 B/node), "
            f"built in {time.monotonic() - started:.1f}s"
        )
        task_type = LinkPredictionTask if config.task == "link_prediction" else NodeClassificationTask
        return task_type(dataset, args, context)

    def _build_partitioned_task(self, context: ProcessContext, progress: ProgressReporter, started: float, folder):
        """Each rank keeps one part of the graph. Loading still builds the whole graph once per host (shared
        as usual); each rank copies its part out of it, and the whole is unmapped once every part is copied."""
        config, args = self.config, self.args
        if config.graph.is_heterogeneous:
            raise ConfigError("trainer argument graph_partitions > 1 supports homogeneous graphs only")
        if args.graph_partitions != context.world_size:
            raise ConfigError(
                f"trainer argument graph_partitions={args.graph_partitions} must equal the number of processes "
                f"({context.world_size}): every process holds one part"
            )
        whole = share_dataset(context, self.build_dataset, folder)
        whole_bytes = whole.held_bytes()
        dataset, quality = partition_dataset(context, whole, args.partitioner, args.seed)
        del whole
        # Every rank says what it keeps: on a job spanning hosts, each host's share of the graph is in its ranks' lines.
        print(dataset.graph.share_of(whole_bytes, f"rank {context.rank}"), flush=True)
        if quality is not None:
            progress.say(
                f"[trainyard] graph partitioned ({args.partitioner}) into {args.graph_partitions}: edge cut "
                f"{quality.edge_cut:.1%}, balance {quality.balance:.3f} (edges {quality.edge_balance:.3f}); "
                f"built in {time.monotonic() - started:.1f}s"
            )
        task_type = LinkPredictionTask if config.task == "link_prediction" else NodeClassificationTask
        return task_type(dataset, args, context)

    def _build_compute_task(
        self, context: ProcessContext, world: ProcessContext, progress: ProgressReporter, started: float, folder
    ):
        """A graph-store compute process keeps no part: only the routing tables (who owns each node) and its share
        of the seeds. Every batch's neighbourhood and features come from the storage processes."""
        config, args, cluster = self.config, self.args, self.graph_store
        whole = share_dataset(world, self.build_dataset, folder)
        whole_bytes = whole.held_bytes()
        owner, quality = cluster.assign_owners(world, whole.store, args.partitioner, args.seed)
        dataset = PartitionedDataset.for_requester(
            whole, owner, world.rank, world.world_size, (context.rank, context.world_size)
        )
        del whole
        if quality is not None:
            progress.say(
                f"[trainyard] graph-store mode: {cluster.compute_processes} compute and "
                f"{cluster.storage_processes} storage process(es); graph partitioned ({args.partitioner}) over the "
                f"storage processes: edge cut {quality.edge_cut:.1%}, balance {quality.balance:.3f}; "
                f"built in {time.monotonic() - started:.1f}s"
            )
            progress.say(dataset.graph.share_of(whole_bytes, "compute rank 0"))
        task_type = LinkPredictionTask if config.task == "link_prediction" else NodeClassificationTask
        return task_type(dataset, args, context)

    def _build_hetero_task(self, context: ProcessContext, progress: ProgressReporter, started: float, folder: Path):
        config, args, graph = self.config, self.args, self.config.graph
        link_prediction = config.task == "link_prediction"
        supervision_edge_type = config.supervision_edge_types[0] if link_prediction else None
        supervision_node_type = None if link_prediction else config.supervision_node_types[0]

        def build() -> HeteroGraphDataset:
            return build_hetero_dataset(
                config.data_preprocessor_args,
                config.split_fractions,
                config.task,
                graph,
                supervision_edge_type,
                supervision_node_type,
            )

        dataset = share_dataset(
            context, build, folder, restore=lambda named: HeteroGraphDataset.from_tensors(named, graph)
        )
        if context.device.type == "cuda":
            dataset = dataset.to(context.device)
        edges = ", ".join(f"{edge_type} {store.num_edges}" for edge_type, store in dataset.stores.items())
        progress.say(
            f"[trainyard] heterogeneous graph store: {dataset.num_nodes} nodes of types "
            f"{', '.join(dataset.node_types)}; edges {edges}; built in {time.monotonic() - started:.1f}s"
        )
        if link_prediction:
            return HeteroLinkPredictionTask(dataset, args, context, supervision_edge_type)
        return HeteroNodeClassificationTask(dataset, args, context, supervision_node_type)

    def run(self) -> None:
        retain_freed_memory()
        torch.manual_seed(self.args.seed)
        cluster = self.graph_store
        if cluster is not None:
            cluster.expect_role(storage=False)
        # Graph-store mode's world is gloo, as its storage processes have no GPU; compute trains in a group of its own.
        world = join_process_group(self.command_line.use_cuda, backend="gloo" if cluster is not None else None)
        try:
            if cluster is None:
                self._run_in(world, world)
            else:
                # The world's own collectives (the dataset's barriers, the owners) are gloo's, on the CPU.
                self._run_in(cluster.join(world), dataclasses.replace(world, device=torch.device("cpu")))
        finally:
            leave_process_group(world)

    def _run_in(self, context: ProcessContext, world: ProcessContext) -> None:
        """Trains in ``context``, the training world: the whole ``world``, or graph-store mode's compute processes."""
        config, args = self.config, self.args
        progress = ProgressReporter(max(args.num_max_train_batches // context.world_size, 1), context.is_leader)
        progress.say(
            f"[trainyard] job {self.command_line.job_name}: {config.task}, sampler {args.sampler}, "
            f"fanout {args.fanout_by_edge_type or args.num_neighbors}, "
            f"{context.world_size} process(es) on {context.device}"
        )
        for name in args.without_effect:
            progress.say(
                f"[trainyard] trainer argument {name}={getattr(args, name)} is about GiGL's sampling "
                "workers and has no effect here"
            )
        if args.local_world_size is not None and self.command_line.started_by_server:
            progress.say(
                f"[trainyard] trainer argument local_world_size={args.local_world_size} has no effect: "
                f"the server started {context.world_size} process(es) (localTrainerConfig.numWorkers)"
            )
        started = time.monotonic()
        task = self._build_task(context, world, progress, started)
        wants_tensorboard = context.is_leader and config.should_log_to_tensorboard and self.tensorboard_path
        scalars = ScalarLog(self.tensorboard_path if wants_tensorboard else None)
        test_metrics: dict = {}
        try:
            if config.should_skip_training:
                load_state_dict(task.model, self.model_path)
                if task.node_embeddings is not None:
                    load_state_dict(task.node_embeddings, node_embeddings_path(self.model_path))
                progress.say(f"[trainyard] skipping training; loaded {self.model_path}")
            else:
                loop = TrainingLoop(task, args, context, scalars, progress)
                loop.run()
                if context.is_leader:
                    save_state_dict(task.model, self.model_path)
                    if task.node_embeddings is not None:
                        save_state_dict(task.node_embeddings, node_embeddings_path(self.model_path))
                    progress.say(f"[trainyard] saved model state_dict to {self.model_path}")
            if not config.should_skip_model_evaluation:
                test_batches = args.num_test_batches or None
                test_metrics = task.evaluate(task.model, "test", test_batches)
                scalars.add_all("test", test_metrics, max(args.num_max_train_batches // context.world_size, 1))
                progress.say("[test] " + describe(test_metrics))
            if context.is_leader and self.metrics_path is not None and test_metrics:
                write_metrics(test_metrics, self.metrics_path)
                progress.say(f"[trainyard] wrote metrics to {self.metrics_path}")
            if self.graph_store is not None:
                task.dataset.exchange.release()  # the storage processes stop answering, and exit
        finally:
            scalars.close()
        context.barrier()
        progress.say(f"[trainyard] done in {time.monotonic() - started:.1f}s")


def node_embeddings_path(model_path: Path) -> Path:
    """The learnable node embeddings are saved beside the model (``model.pt`` -> ``model.node_embeddings.pt``):
    they are trained outside it, and a large table should not be loaded by whoever only needs the GNN."""
    return model_path.with_name(f"{model_path.stem}.node_embeddings{model_path.suffix}")


def prepare(argv: list[str]) -> TrainingJob:
    """Everything that can be wrong with the arguments or configs fails here, before any data is built."""
    command_line = parse_command_line(argv)
    work_dir = Path.cwd()
    config = TaskConfig.load(command_line.task_config_uri, work_dir)
    resource = load_resource_config(command_line.resource_config_uri, work_dir)
    args = TrainerArgs.parse(config.trainer_args, command_line.overrides, config.task)
    args.fanout_for(config.graph.edge_types)  # a per-edge-type fanout must match graphMetadata's edge types
    if config.graph.is_heterogeneous:
        supervision = (
            config.supervision_edge_types if config.task == "link_prediction" else config.supervision_node_types
        )
        if len(supervision) != 1:
            raise ConfigError(
                f"a heterogeneous {config.task.replace('_', ' ')} job needs exactly one supervision "
                f"{'edge' if config.task == 'link_prediction' else 'node'} type in taskMetadata "
                f"(found {len(supervision)})"
            )
        if args.sampler != "neighbor":
            raise ConfigError(
                f"trainer argument sampler={args.sampler}: heterogeneous graphs are sampled with "
                "sampler=neighbor (uniform, fanout per edge type)"
            )
        if args.node_embedding_dim:
            raise ConfigError(
                f"trainer argument node_embedding_dim={args.node_embedding_dim}: learnable node "
                "embeddings are for homogeneous graphs; a heterogeneous graph's node types need features"
            )
    if args.local_world_size is not None and not command_line.nproc_given:
        command_line.nproc = args.local_world_size  # GiGL's processes per machine, when started by hand
    graph_store = GraphStoreCluster.of(resource, int(os.environ.get("WORLD_SIZE") or 1))
    if graph_store is not None:
        check_graph_store_mode(config, args)
    return TrainingJob(command_line, config, args, work_dir, graph_store)


def check_graph_store_mode(config: TaskConfig, args: TrainerArgs) -> None:
    """What graph-store mode runs: a homogeneous graph, sampled uniformly through the storage processes."""
    if config.graph.is_heterogeneous:
        raise ConfigError("graph-store mode (vertexAiGraphStoreTrainerConfig) supports homogeneous graphs only")
    if args.graph_partitions > 1:
        raise ConfigError(
            f"trainer argument graph_partitions={args.graph_partitions}: in graph-store mode the graph is split over "
            "the storage processes (graphStorePool.numReplicas), one part each"
        )
    unsupported = {
        "sampler": args.sampler != "neighbor",
        "ssl_positive_label_percentage": args.ssl_positive_label_percentage is not None,
        "node_embedding_dim": args.node_embedding_dim > 0,
    }
    for name, given in unsupported.items():
        if given:
            raise ConfigError(
                f"trainer argument {name}={getattr(args, name)}: graph-store mode samples with sampler=neighbor, "
                "without self-supervised labels or learnable node embeddings"
            )


def _start(job: TrainingJob) -> None:
    if job.command_line.nproc > 1 and not job.command_line.started_by_server:
        spawn_local_processes(job.command_line.nproc, _run_job, (job,))
    else:
        job.run()


def _run_job(job: TrainingJob) -> None:
    job.run()


def exit_status(program: str, run: Callable[[], None]) -> int:
    """Runs ``run``: 0 when it returns, 2 for a bad argument or configuration (the message on stderr, after the
    program's name); anything else propagates (Python exits 1)."""
    try:
        run()
    except ConfigError as error:
        print(f"{program}: error: {error}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return exit_status("trainyard_runtime.train", lambda: _start(prepare(argv)))


if __name__ == "__main__":
    sys.exit(main())
