"""The configuration layer reads and checks a job's configuration only: it imports nothing from the layers that
use it (data, sampler, loader, models, training), so a config module can be loaded, and its values built, without
torch or a dataset."""

import ast
from pathlib import Path

import trainyard_runtime.config

# Besides the config package itself, the small helpers it may use.
ALLOWED = ("trainyard_runtime.config", "trainyard_runtime.uris")


def imported_modules(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_config_imports_nothing_from_the_layers_above_it():
    config = Path(trainyard_runtime.config.__file__).parent
    offending = [
        f"{path.name}: {module}"
        for path in sorted(config.glob("*.py"))
        for module in imported_modules(path)
        if module.split(".")[0] == "trainyard_runtime"
        and not any(module == allowed or module.startswith(allowed + ".") for allowed in ALLOWED)
    ]
    assert offending == []
