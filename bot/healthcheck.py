"""``python -m bot.healthcheck``: exit 0 if this machine's bot answers 200 on ``/healthz``, else 1 with one line
saying why. For a container's HEALTHCHECK (the Dockerfile, compose.yaml): slim images have no curl. It reads the
same config.toml as the bot (``health_port``, ``health_host``; a bot listening on every address, ``0.0.0.0`` or
``::``, is asked on the loopback)."""

from __future__ import annotations

import sys
import urllib.error
import urllib.request

from bot.settings import ConfigError, load_settings

TIMEOUT = 5.0


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"healthcheck: {error}", file=sys.stderr)
        return 1
    if settings.health_port is None:
        print("healthcheck: health_port is not set in config.toml, so the bot has no health endpoint",
              file=sys.stderr)
        return 1
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(settings.health_host, settings.health_host)
    url = f"http://{f'[{host}]' if ':' in host else host}:{settings.health_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            print(response.read().decode("utf-8", "replace"))
            return 0
    except urllib.error.HTTPError as failing:  # 503: which checks failed
        print(f"healthcheck: {failing.code} {failing.read().decode('utf-8', 'replace')}", file=sys.stderr)
    except OSError as error:
        print(f"healthcheck: {url} does not answer: {error}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
