"""table_sessions: each live table's session seed, out of Redis (majiang.store.models.TableSession)

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_table_sessions_table_id", "table_sessions", ["table_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_table_sessions_table_id", table_name="table_sessions")
    op.drop_table("table_sessions")
