"""matches: finished 东风战/全庄 matches of hall tables and each account's 段位 points (majiang.hall.match)

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("room", sa.String(length=40), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("first_hand", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["first_hand"], ["hands.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_match_results_table_id", "match_results", ["table_id"], unique=False)
    op.create_table(
        "player_ranks",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("account_id", "rules"),
    )


def downgrade() -> None:
    op.drop_table("player_ranks")
    op.drop_index("ix_match_results_table_id", table_name="match_results")
    op.drop_table("match_results")
