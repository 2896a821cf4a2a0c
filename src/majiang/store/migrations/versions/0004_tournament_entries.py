"""tournament entries: the audit log of every entry, correction and undo (tt_entries)

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tt_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=40), nullable=False),
        sa.Column("group_id", sa.String(length=40), nullable=False),
        sa.Column("session_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("undone_by", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tt_entries", schema=None) as batch_op:
        batch_op.create_index("ix_tt_entries_table", ["event_id", "group_id", "session_no", "table_no"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tt_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_tt_entries_table")
    op.drop_table("tt_entries")
