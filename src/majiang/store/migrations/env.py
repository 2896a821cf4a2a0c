"""Alembic environment: the engine comes from majiang.store.Database (``cfg.attributes``)."""

from alembic import context

import majiang.store.item_models  # (items, revision 0003)
import majiang.store.rating_models  # (ratings, revision 0005)
import majiang.store.settings_models  # (account settings, revision 0007)
import majiang.store.tournament_models  # noqa: F401  (competition tables, revision 0002)
from majiang.store.models import Base

config = context.config
given = config.attributes.get("connection")
if given is not None:  # the caller holds the connection (and a migration lock)
    context.configure(connection=given, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    connectable = config.attributes.get("engine")
    if connectable is None:
        from majiang.store import Database

        connectable = Database(config.get_main_option("sqlalchemy.url")).engine
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
