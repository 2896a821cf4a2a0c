"""friends: requests, friendships and blocks between accounts (majiang.hall.friends)

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friendships",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("friend_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["friend_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("account_id", "friend_id"),
    )
    op.create_index("ix_friendships_friend", "friendships", ["friend_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_friendships_friend", table_name="friendships")
    op.drop_table("friendships")
