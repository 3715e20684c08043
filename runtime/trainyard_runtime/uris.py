"""Output and input URIs: local paths and ``file://`` URIs only, for now."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from trainyard_runtime.config.params import ConfigError


def local_path(uri: str, base: Path, what: str) -> Path:
    """Resolves ``uri`` to a local path; a relative path resolves against ``base`` (the job's work folder)."""
    text = str(uri).strip()
    if not text:
        raise ConfigError(f"{what} URI is empty")
    parsed = urlparse(text)
    if parsed.scheme == "file":
        if parsed.netloc not in ("", "localhost"):
            raise ConfigError(f"{what} URI {text!r}: file:// URIs must name a local path (file:///abs/path)")
        return Path(unquote(parsed.path))
    if parsed.scheme and len(parsed.scheme) > 1:  # one letter would be a Windows drive
        raise ConfigError(
            f"{what} URI {text!r} uses scheme '{parsed.scheme}://', which this runtime cannot read or write yet; "
            "use a local path or a file:// URI"
        )
    path = Path(text)
    return path if path.is_absolute() else base / path
