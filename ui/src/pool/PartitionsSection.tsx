import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type BackendPartitions } from "../api/client";
import { useBackends } from "../backends/backends";
import { Time } from "../common/Time";

type Partition = BackendPartitions["partitions"][number];
type PartitionNode = Partition["nodes"][number];

/**
 * The partitions of every cluster a backend submits to (Slurm's sinfo), beside the agents: each node with its GPUs
 * in use, counting every job of the cluster, not only Trainyard's.
 */
export function PartitionsSection() {
  const backends = useBackends();
  return (
    <>
      {(backends.data ?? [])
        .filter((backend) => backend.partitions)
        .map((backend) => (
          <BackendPartitionsView key={backend.name} backend={backend.name} />
        ))}
    </>
  );
}

function BackendPartitionsView({ backend }: { backend: string }) {
  const reading = useQuery({
    queryKey: ["partitions", backend],
    queryFn: () => unwrap(api.GET("/backends/{name}/partitions", { params: { path: { name: backend } } })),
    refetchInterval: 5000,
  });
  if (reading.error) return <p className="error">{reading.error.message}</p>;
  if (!reading.data) return null;
  return (
    <section className="partitions" aria-label={`Partitions of ${backend}`}>
      <h2>
        Partitions <span className="muted">({backend})</span>
      </h2>
      {reading.data.readAt ? (
        <p className="muted">
          as the cluster answered at <Time at={reading.data.readAt} />
        </p>
      ) : (
        <p className="muted">The cluster has not answered yet.</p>
      )}
      {reading.data.partitions.map((partition) => (
        <PartitionCard key={partition.name} partition={partition} />
      ))}
    </section>
  );
}

function PartitionCard({ partition }: { partition: Partition }) {
  return (
    <article className="agent" data-testid={`partition-${partition.name}`}>
      <header>
        <strong>{partition.name}</strong> {partition.isDefault && <span className="chip">default</span>}{" "}
        <span>
          GPUs {partition.gpusUsed} of {partition.gpus} in use · CPUs {partition.cpusAllocated} of {partition.cpus}{" "}
          allocated
        </span>
      </header>
      <div className="gpu-grid">
        {partition.nodes.map((node) => (
          <NodeCell key={node.name} node={node} />
        ))}
      </div>
    </article>
  );
}

function NodeCell({ node }: { node: PartitionNode }) {
  const busy = node.gpusUsed > 0 || node.cpusAllocated > 0;
  return (
    <div className={`gpu ${busy ? "in-use" : "free"}`} title={`${node.name}: ${node.state}`}>
      <div>{node.name}</div>
      <div className="muted">{node.state}</div>
      <div>{node.gpus > 0 ? `GPUs ${node.gpusUsed}/${node.gpus}` : "no GPUs"}</div>
      <div className="muted">
        CPUs {node.cpusAllocated}/{node.cpus}
      </div>
    </div>
  );
}
