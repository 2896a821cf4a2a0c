"""ratings: each account's rating per ruleset and every change (majiang.store.rating_models)

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
        ),
        sa.PrimaryKeyConstraint("account_id", "rules"),
    )
    op.create_index("ix_ratings_rules_rating", "ratings", ["rules", "rating"], unique=False)
    op.create_table(
        "rating_changes",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
        ),
        sa.ForeignKeyConstraint(
            ["hand_id"],
            ["hands.id"],
        ),
        sa.PrimaryKeyConstraint("hand_id", "account_id"),
    )
    op.create_index("ix_rating_changes_account", "rating_changes", ["account_id", "rules", "hand_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_rating_changes_account", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_rules_rating", table_name="ratings")
    op.drop_table("ratings")
