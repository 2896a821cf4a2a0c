"""hand share links: a finished hand's player may share it by an unguessable token (private by default)

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("share_token", sa.String(length=32), nullable=True))
        batch.create_index("ix_hands_share_token", ["share_token"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_index("ix_hands_share_token")
        batch.drop_column("share_token")
