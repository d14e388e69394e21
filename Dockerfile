# Two-stage build: wheels are built in the first stage, the runtime image has no compiler and runs as a
# non-root user. The SQLite database lives on the /data volume (DATABASE_URL points there by default).
FROM python:3.11-slim AS build
WORKDIR /src
RUN apt-get update && apt-get install -y --no-install-recommends gcc && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml requirements.lock ./
COPY bot ./bot
COPY engine ./engine
COPY migrations ./migrations
RUN pip wheel --no-cache-dir --wheel-dir /wheels -c requirements.lock .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 clerk && mkdir /data && chown clerk /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels clerk && rm -rf /wheels
USER clerk
WORKDIR /home/clerk
# The health endpoint on 127.0.0.1:8080 inside the container, for the HEALTHCHECK below (docs/deploy.md, "Watching it").
# A config.toml mounted over this one keeps the health check only if it sets health_port too.
RUN printf 'health_port = 8080\n' > config.toml
ENV DATABASE_URL=sqlite+aiosqlite:////data/clerk.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
# `docker stop` sends SIGINT, which Python turns into a clean shutdown (the bot closes and releases the deadline
# lease). The bot also handles SIGTERM the same way (bot/discord/run.py); SIGINT was the one checked in a container.
STOPSIGNAL SIGINT
# Healthy while the gateway is connected, the database answers and the deadline scheduler runs (GET /healthz; slim
# images have no curl, so Python asks). The start period covers migrations and the first connection.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot.healthcheck"]
CMD ["python", "-m", "bot"]
