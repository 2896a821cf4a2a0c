"""Perfect schedules: sessions of tables of four where no two players meet twice and no team-mates sit
together.  Players are abstract here — ``(team, member)`` pairs numbered ``team * 4 + member`` — and
:func:`majiang.tournament.schedule.make_schedule` maps them onto real players after the draw.

* **Affine plane of order 4** (AG(2, 4) over GF(4)): 16 points, 20 lines of 4 in 5 parallel classes;
  two points lie on exactly one line.  One class is the four teams, the other four give 16 players ×
  4 sessions in 4 teams where every pair of non-team-mates meets exactly once; all five classes give
  16 individuals × 5 sessions where every pair meets exactly once (a resolvable 2-(16, 4, 1) design).
* **Cyclic construction over Z_p** (p prime ≥ 5 teams of 4): in session s, table k seats member t of
  team ``k + t·(s+1) mod p``.  Members t and u of tables meet when their teams differ by
  ``(u − t)(s + 1)``, which runs through every non-zero residue once as s runs over 0…p−2, so up to
  p − 1 sessions repeat nobody and never seat team-mates together.  p = 7 is the 1998 28 × 6 in
  7 teams; it also serves 4p individuals (20 × 4, 28 × 6, 44 × 10 …).
"""

from __future__ import annotations

AbstractSchedule = list[list[list[int]]]
"""Sessions → tables → four abstract player numbers."""

# GF(4) = {0, 1, a, a+1} as 0–3 with a² = a + 1: addition is XOR, multiplication by table.
_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def affine_plane_4() -> list[AbstractSchedule]:
    """The five parallel classes of AG(2, 4); point ``(x, y)`` is numbered ``4x + y``.

    Class 0 is the vertical lines ``x = c`` (use it as the teams: team x, member y); class m + 1 is the
    lines ``y = m·x + c``, each holding one point of every vertical line."""
    vertical = [[4 * x + y for y in range(4)] for x in range(4)]
    classes: list[AbstractSchedule] = [[vertical]]
    for m in range(4):
        lines = [[4 * x + (_GF4_MUL[m][x] ^ c) for x in range(4)] for c in range(4)]
        classes.append([lines])
    return classes


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def cyclic_teams(p: int, sessions: int) -> AbstractSchedule | None:
    """``p`` teams of 4 (p prime ≥ 5), up to p − 1 sessions; player ``4·team + member``.  None if impossible."""
    if not _is_prime(p) or p < 5 or not 1 <= sessions <= p - 1:
        return None
    out: AbstractSchedule = []
    for s in range(sessions):
        out.append([[4 * ((k + t * (s + 1)) % p) + t for t in range(4)] for k in range(p)])
    return out


def perfect_schedule(n_players: int, sessions: int, teams: bool) -> AbstractSchedule | None:
    """A perfect abstract schedule for ``n_players`` (in teams of four when ``teams``) or None.

    With teams, abstract player ``4·team + member``; the caller maps real teams onto team numbers."""
    if n_players % 4 or sessions < 1:
        return None
    if n_players == 16 and (sessions <= 4 or (not teams and sessions <= 5)):
        classes = affine_plane_4()
        # With teams the vertical class is the teams; without, it is one more session (used last).
        use = classes[1:] if teams else classes[1:] + classes[:1]
        return [c[0] for c in use[:sessions]]
    return cyclic_teams(n_players // 4, sessions)
