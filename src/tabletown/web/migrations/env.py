"""Alembic environment: the server passes an open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context

from tabletown.web.db import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # the `alembic` command line: build an engine from the ini's URL
        from sqlalchemy import create_engine

        engine = create_engine(config.get_main_option("sqlalchemy.url"))  # type: ignore[arg-type]  # alembic.ini names it
        with engine.begin() as connection:
            context.configure(connection=connection, target_metadata=target_metadata)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
