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
ENV DATABASE_URL=sqlite+aiosqlite:////data/clerk.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
# `docker stop` sends SIGINT, which Python turns into a clean shutdown (the bot closes and releases the deadline
# lease). The bot also handles SIGTERM the same way (bot/discord/run.py); SIGINT was the one checked in a container.
STOPSIGNAL SIGINT
CMD ["python", "-m", "bot"]
