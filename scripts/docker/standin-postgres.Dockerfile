# A stand-in for postgres:16 on a machine without Docker Hub (docs/deploy.md, "Checked"): Debian's PostgreSQL 15
# on the stand-in base image, honouring POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB like the official image
# (only those) and with pg_isready for compose's healthcheck. Not for production.
#   docker build --network host -t postgres:16 -f scripts/docker/standin-postgres.Dockerfile scripts/docker
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
RUN mkdir -p $PGDATA && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY standin-postgres-entrypoint.sh /usr/local/bin/
USER postgres
EXPOSE 5432
CMD ["sh", "/usr/local/bin/standin-postgres-entrypoint.sh"]
