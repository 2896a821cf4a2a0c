"""items: inventories and the audit log of purchases and uses (majiang.store.item_models)

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "item_stock",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("item", sa.String(length=20), nullable=False),
        sa.Column("quantity", sa.Integer(), nullable=False),
        sa.CheckConstraint("quantity >= 0", name="item_quantity_not_negative"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
        ),
        sa.PrimaryKeyConstraint("account_id", "item"),
    )
    op.create_table(
        "item_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("item", sa.String(length=20), nullable=False),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("quantity", sa.Integer(), nullable=False),
        sa.Column("coins", sa.BigInteger(), nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=True),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("memo", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    with op.batch_alter_table("item_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_item_log_account_id"), ["account_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("item_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_item_log_account_id"))
    op.drop_table("item_log")
    op.drop_table("item_stock")
