"""tournament: events, groups, teams, players, sessions, tables, hands, penalties

What the referee enters and nothing derived (majiang.store.tournament_models).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ID = 40
GROUP = (["event_id", "group_id"], ["tt_groups.event_id", "tt_groups.group_id"])
SESSION = (["event_id", "group_id", "session_no"], ["tt_sessions.event_id", "tt_sessions.group_id", "tt_sessions.no"])
TABLE = (
    ["event_id", "group_id", "session_no", "table_no"],
    ["tt_tables.event_id", "tt_tables.group_id", "tt_tables.session_no", "tt_tables.table_no"],
)


def _fk(ref: tuple[list[str], list[str]], name: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(ref[0], ref[1], name=name, ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "tt_events",
        sa.Column("id", sa.String(length=ID), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("scheme", sa.String(length=10), nullable=False),
        sa.Column("tie_split", sa.String(length=10), nullable=False),
        sa.Column("extra", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "tt_groups",
        sa.Column("event_id", sa.String(length=ID), nullable=False),
        sa.Column("group_id", sa.String(length=ID), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["tt_events.id"], name="fk_tt_groups_event", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "group_id"),
    )
    op.create_table(
        "tt_players",
        sa.Column("event_id", sa.String(length=ID), nullable=False),
        sa.Column("player_id", sa.String(length=ID), nullable=False),
        sa.Column("group_id", sa.String(length=ID), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("team_id", sa.String(length=ID), nullable=True),
        sa.Column("team_slot", sa.Integer(), nullable=True),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("ema_id", sa.String(length=40), nullable=False),
        sa.Column("country", sa.String(length=40), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        _fk(GROUP, "fk_tt_players_group"),
        sa.PrimaryKeyConstraint("event_id", "player_id"),
    )
    with op.batch_alter_table("tt_players", schema=None) as batch_op:
        batch_op.create_index("ix_tt_players_account", ["account_id"], unique=False)

    op.create_table(
        "tt_sessions",
        sa.Column("event_id", sa.String(length=ID), nullable=False),
        sa.Column("group_id", sa.String(length=ID), nullable=False),
        sa.Column("no", sa.Integer(), nullable=False),
        sa.Column("absent", sa.JSON(), nullable=False),
        sa.Column("method", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _fk(GROUP, "fk_tt_sessions_group"),
        sa.PrimaryKeyConstraint("event_id", "group_id", "no"),
    )
    op.create_table(
        "tt_teams",
        sa.Column("event_id", sa.String(length=ID), nullable=False),
        sa.Column("team_id", sa.String(length=ID), nullable=False),
        sa.Column("group_id", sa.String(length=ID), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("leader", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        _fk(GROUP, "fk_tt_teams_group"),
        sa.PrimaryKeyConstraint("event_id", "team_id"),
    )
    op.create_table(
        "tt_tables",
        sa.Column("event_id", sa.String(length=ID), nullable=False),
        sa.Column("group_id", sa.String(length=ID), nullable=False),
        sa.Column("session_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("east", sa.String(length=ID), nullable=False),
        sa.Column("south", sa.String(length=ID), nullable=False),
        sa.Column("west", sa.String(length=ID), nullable=False),
        sa.Column("north", sa.String(length=ID), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=True),
        sa.Column("time_called", sa.Boolean(), nullable=False),
        sa.Column("substitutions", sa.JSON(), nullable=False),
        sa.Column("hall_table", sa.String(length=40), nullable=True),
        _fk(SESSION, "fk_tt_tables_session"),
        sa.PrimaryKeyConstraint("event_id", "group_id", "session_no", "table_no"),
    )
    op.create_table(
        "tt_hands",
        sa.Column("event_id", sa.String(length=ID), nullable=False),
        sa.Column("group_id", sa.String(length=ID), nullable=False),
        sa.Column("session_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("no", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("discarder", sa.Integer(), nullable=True),
        sa.Column("fans", sa.JSON(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("flowers", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        _fk(TABLE, "fk_tt_hands_table"),
        sa.PrimaryKeyConstraint("event_id", "group_id", "session_no", "table_no", "no"),
    )
    op.create_table(
        "tt_penalties",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=ID), nullable=False),
        sa.Column("group_id", sa.String(length=ID), nullable=False),
        sa.Column("session_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=30), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        _fk(TABLE, "fk_tt_penalties_table"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tt_penalties", schema=None) as batch_op:
        batch_op.create_index("ix_tt_penalties_table", ["event_id", "group_id", "session_no", "table_no"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tt_penalties", schema=None) as batch_op:
        batch_op.drop_index("ix_tt_penalties_table")
    op.drop_table("tt_penalties")
    op.drop_table("tt_hands")
    op.drop_table("tt_tables")
    op.drop_table("tt_teams")
    op.drop_table("tt_sessions")
    with op.batch_alter_table("tt_players", schema=None) as batch_op:
        batch_op.drop_index("ix_tt_players_account")
    op.drop_table("tt_players")
    op.drop_table("tt_groups")
    op.drop_table("tt_events")
