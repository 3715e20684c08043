# flake8: noqa

# import apis into api package
from trainyard_client.api.agent_tokens_api import AgentTokensApi
from trainyard_client.api.agents_api import AgentsApi
from trainyard_client.api.audit_api import AuditApi
from trainyard_client.api.backends_api import BackendsApi
from trainyard_client.api.jobs_api import JobsApi
from trainyard_client.api.logs_api import LogsApi
from trainyard_client.api.metrics_api import MetricsApi
from trainyard_client.api.projects_api import ProjectsApi
from trainyard_client.api.system_metrics_api import SystemMetricsApi
from trainyard_client.api.tensorboard_api import TensorboardApi
from trainyard_client.api.tokens_api import TokensApi
from trainyard_client.api.users_api import UsersApi

