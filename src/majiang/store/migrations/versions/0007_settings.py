"""settings: each account's remembered table toggles (majiang.store.settings_models)

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_settings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("auto_win", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("auto_pass", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("auto_discard", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
        ),
        sa.PrimaryKeyConstraint("account_id"),
    )


def downgrade() -> None:
    op.drop_table("account_settings")
