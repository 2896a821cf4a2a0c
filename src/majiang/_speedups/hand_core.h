/* hand_core.h — one MCR hand as a compiled state machine: plain C99, no CPython.
 *
 * The twin of majiang/engine/hand.py (Hand) running the MCR rulesets of majiang/rulesets/mcr.py
 * (any fan profile: gb, pymahjonggb, …) and botzone.py (Botzone's game: the wall in quarters, no
 * flowers, faults), written function by function after them: each function names its Python twin.
 * The Python engine stays the reference; tests/engine/test_core_equal.py holds the two equal (the
 * same hand logs, byte for byte, on seeded hands of every bot mix and both profiles) and
 * scripts/core_equal.py does it for a million hands.
 *
 * State is arrays: 34 counts per seat, melds, flowers, ponds with claim marks, the wall as bytes.
 * A decision is an action code (mj_act_t: type, tile, the chow's low tile), the legal ones listed in
 * the reference's order, since bots choose by position.  Every change appends a compact event
 * (mj_ev_t); the CPython glue (core.c) turns them into the reference's event dicts on demand.
 * Wins are scored through the configured fan calculator (fan_api.h), the win shape by
 * winshape_core.h, the efficiency bot by shanten_core.h, the shuffle and dice by seedrng.h.
 */
#ifndef MAJIANG_HAND_CORE_H
#define MAJIANG_HAND_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fan_types.h"
#include "seedrng.h"
#include "shanten_core.h"
#include "winshape_core.h"

#define MJ_KINDS 34       /* tile kinds; 34..41 are the flowers */
#define MJ_MAX_TILES 144
#define MJ_MAX_POND 100   /* one seat's discards: at most its draws (≤ 91) and claims (≤ 4), and one */
#define MJ_MAX_OPTS 32    /* a turn: a win, ≤ 3 concealed + 4 added kongs, ≤ 14 discards; a claim: ≤ 7 */

/* ---- action codes: type | (tile + 1) << 3 | chow position << 9 ------------------------------- */
typedef uint16_t mj_act_t;
/* majiang.engine.protocol.ACTION_TYPES order */
enum { A_DISCARD, A_CHOW, A_PUNG, A_KONG, A_ADDED_KONG, A_CONCEALED_KONG, A_WIN, A_PASS };
#define MJ_ACT(type, tile, pos) ((mj_act_t)((type) | (((tile) + 1) << 3) | ((pos) << 9)))
#define MJ_ACT_TYPE(a) ((a) & 7)
#define MJ_ACT_TILE(a) ((int)(((a) >> 3) & 63) - 1)
#define MJ_ACT_POS(a) ((a) >> 9)  /* a chow: the claimed tile's place in it (0 lowest) */
#define MJ_ACT_CODES 1536
#define MJ_PASS MJ_ACT(A_PASS, -1, 0)

/* ---- events -------------------------------------------------------------------------------- */
enum {
    E_DICE, E_DEAL, E_FLOWER, E_DRAW, E_DISCARD, E_CHOW, E_PUNG, E_ADD_KONG_DECLARED, E_KONG, E_ROBBED,
    E_PAYMENT, E_FALSE_WIN, E_FAULT, E_WIN, E_EXHAUSTED, E_HAND_END
};
enum { KONG_CONCEALED, KONG_ADDED, KONG_EXPOSED };                  /* kong.kind */
enum { PAY_KONG, PAY_FALSE_WIN, PAY_FAULT, PAY_SETTLEMENT };          /* payment.reason */
enum { FW_WRONG, FW_SHORT };                                          /* false_win.kind: 错和, 诈和 */
enum { R_WIN, R_DRAW, R_FALSE_WIN, R_FAULT };                         /* hand_end.result */

/* One event: what its dict holds beyond what the hand keeps (the deal, the dice, the win).
 *   flower: seat, tile, a = replacement (-1 none)     draw: seat, tile, a = tail
 *   discard: seat, tile, a = moqie                   chow: seat, a = from, tile, b = the low tile
 *   add_kong_declared: seat, tile
 *   pung / robbed: seat, a = from, tile               kong: seat, tile, a = kind
 *   payment: a = reason, x = its deltas (mj_hand_t.pay[x])
 *   false_win: seat, tile, a = kind, b = ends_hand    fault: seat, x = kind (the glue's name index), b = ends_hand
 *   win: seat, tile, a = from (-1 self-drawn)         hand_end: a = result, seat (false_win, fault), x = deltas */
typedef struct {
    uint8_t type;
    int8_t seat, tile, a, b;
    int16_t x;
} mj_ev_t;

/* ---- the ruleset ----------------------------------------------------------------------------- */
typedef struct {
    int quarters;        /* Botzone's SeatWalls (a part per seat, no dice); else one Wall broken by the dice */
    int flowers;         /* the set has the 8 flowers (bonus tiles) */
    int stacks;          /* stacks of two per player's wall (MCR 18) */
    int false_win_ends;  /* Rules.false_win == "end_hand": offender −30, others +10, the hand ends */
    int fault;           /* a wrong answer or a timeout is penalised (Botzone): fault_offender / fault_other */
    int fault_offender, fault_other;
    rules_t fan;         /* the fan switches and min_fan, as the fan API read them */
    int (*compute)(hand_t *h, fantab_t *t);
    int (*points)(const fantab_t *t);
    int (*fan_points)(const fantab_t *t);
} mj_rules_t;

/* ---- seats and the wall --------------------------------------------------------------------- */
enum { MELD_CHOW = 1, MELD_PUNG = 2, MELD_KONG = 3 }; /* majiang.melds.MeldKind */

typedef struct {
    uint8_t kind, tile;   /* tile: the lowest (a chow's first) */
    uint8_t concealed, added;
    int8_t claimed;       /* a chow: the claimed tile's place (0–2); else -1 */
    int8_t source;        /* a claimed pung / kong: 1 上家, 2 对家, 3 下家; else -1 */
} mj_meld_t;

typedef struct {
    uint8_t counts[MJ_KINDS];
    int nconc;                       /* concealed tiles */
    int nmelds;
    mj_meld_t melds[4];
    int nflowers;
    uint8_t flowers[8];
    int npond;
    uint8_t pond[MJ_MAX_POND];
    uint8_t claimed[MJ_MAX_POND];    /* taken by a claim */
    uint8_t moqie[MJ_MAX_POND];      /* 摸切: the tile just drawn (mj_moqie) */
    int drawn;                       /* the tile drawn this turn, -1 none */
    int barred, passed_win;
} mj_seat_t;

typedef struct {
    int n;
    uint8_t tiles[MJ_MAX_TILES]; /* draw order from the break (Wall) / the parts in order (SeatWalls) */
    uint8_t taken[MJ_MAX_TILES];
    int remaining, live;
    int head, tail_drawn;                   /* Wall */
    int dice[4], break_seat, break_stack;   /* Wall: break_seat relative to the dealer */
    int dealer, drawn[4];                   /* SeatWalls: tiles taken from each part */
} mj_wall_t;

enum { PH_TURN, PH_CLAIM, PH_ROB, PH_OVER };

/* the discards in table order with their claimers (the RL planes' order rows) */
typedef struct {
    uint8_t seat, index, tile;
    int8_t claimer;
} mj_disc_t;

typedef struct {
    const mj_rules_t *r;
    uint8_t seed[64];
    int seedlen;
    int dealer, prevalent;
    int hand_no, scores_before[4]; /* the header's: what the RL observation shows, not the game's */
    int deltas[4];
    mj_seat_t seats[4];
    mj_wall_t wall;
    int phase, current, turn_drawn, after_kong, first_turn;
    int pend_seat, pend_tile;              /* Hand.pending, -1 none */
    int nopt[4];                           /* Hand.options: the seats asked (optseats, in order) */
    mj_act_t opt[4][MJ_MAX_OPTS];
    int optseats[4], noptseats;
    int responded[4], nresp;               /* Hand.responses */
    mj_act_t resp[4];
    uint8_t visible[MJ_KINDS];             /* copies in ponds (unclaimed) and exposed melds */
    uint8_t dealt[4][14];                  /* the deal, sorted (the deal event) */
    int ndealt[4];
    /* the win: Hand.win (points = total with flowers) and how the tile came */
    int won, win_seat, win_tile, win_from, win_points, win_kong, win_last, win_fourth;
    fantab_t win_fans;
    int result, end_seat;                  /* hand_end */
    /* the log */
    mj_ev_t *ev;
    int nev, evcap;
    int (*pay)[4];
    int npay, paycap;
    mj_disc_t order[4 * MJ_MAX_POND];
    int norder;
    int nomem; /* an allocation failed: the hand is unusable (the glue raises MemoryError) */
} mj_hand_t;

enum { MJ_OK = 0, MJ_ILLEGAL = 1 };

/* ---- the log ---------------------------------------------------------------------------------- */
static mj_ev_t *mj_emit(mj_hand_t *h, int type, int seat, int tile, int a, int b, int x) {
    if (h->nev == h->evcap) {
        int cap = h->evcap ? 2 * h->evcap : 256;
        mj_ev_t *ev = realloc(h->ev, (size_t)cap * sizeof *ev);
        if (!ev) {
            h->nomem = 1;
            static mj_ev_t sink;
            return &sink;
        }
        h->ev = ev;
        h->evcap = cap;
    }
    mj_ev_t *e = &h->ev[h->nev++];
    e->type = (uint8_t)type;
    e->seat = (int8_t)seat;
    e->tile = (int8_t)tile;
    e->a = (int8_t)a;
    e->b = (int8_t)b;
    e->x = (int16_t)x;
    return e;
}

/* Hand._pay: add to the deltas and log a payment */
static void mj_pay(mj_hand_t *h, const int d[4], int reason) {
    if (h->npay == h->paycap) {
        int cap = h->paycap ? 2 * h->paycap : 8;
        int(*pay)[4] = realloc(h->pay, (size_t)cap * sizeof *pay);
        if (!pay) {
            h->nomem = 1;
            return;
        }
        h->pay = pay;
        h->paycap = cap;
    }
    memcpy(h->pay[h->npay], d, 4 * sizeof(int));
    for (int i = 0; i < 4; i++) h->deltas[i] += d[i];
    mj_emit(h, E_PAYMENT, -1, -1, reason, 0, h->npay++);
}

/* ---- the wall (majiang.engine.wall: Wall, SeatWalls) ----------------------------------------- */
static int mj_is_bonus(const mj_hand_t *h, int tile) { return h->r->flowers && tile >= MJ_KINDS; }

/* Wall.build / SeatWalls.build: the tile set shuffled by the seed; a shared wall rotated to the break */
static void mj_wall_build(mj_wall_t *w, const mj_rules_t *r, const uint8_t *seed, int seedlen) {
    uint8_t set[MJ_MAX_TILES];
    int n = 0;
    for (int t = 0; t < MJ_KINDS; t++)
        for (int k = 0; k < 4; k++) set[n++] = (uint8_t)t;
    if (r->flowers)
        for (int f = MJ_KINDS; f < MJ_KINDS + 8; f++) set[n++] = (uint8_t)f;
    seeded_shuffle(seed, (size_t)seedlen, set, n);
    memset(w, 0, sizeof *w);
    w->n = n;
    w->remaining = w->live = n;
    if (r->quarters) {
        memcpy(w->tiles, set, (size_t)n);
        return;
    }
    seedstream_t ss;
    seedstream_init(&ss, seed, (size_t)seedlen, (const uint8_t *)"dice", 4);
    int d1 = (int)seedstream_below(&ss, 6) + 1, d2 = (int)seedstream_below(&ss, 6) + 1;
    int thrower = (d1 + d2 - 1) % 4;
    int d3 = (int)seedstream_below(&ss, 6) + 1, d4 = (int)seedstream_below(&ss, 6) + 1;
    int count = d1 + d2 + d3 + d4, n_stacks = n / 2;
    int start = (thrower * r->stacks + count) % n_stacks;
    memcpy(w->tiles, set + 2 * start, (size_t)(n - 2 * start));
    memcpy(w->tiles + (n - 2 * start), set, (size_t)(2 * start));
    w->dice[0] = d1, w->dice[1] = d2, w->dice[2] = d3, w->dice[3] = d4;
    w->break_seat = thrower;
    w->break_stack = count;
}

/* Wall.left / SeatWalls.left */
static inline int mj_left(const mj_hand_t *h, int seat) {
    const mj_wall_t *w = &h->wall;
    if (!h->r->quarters) return w->live;
    return w->n / 4 - w->drawn[(seat - w->dealer) & 3];
}

static int mj_take(mj_wall_t *w, int i) {
    w->taken[i] = 1;
    w->remaining--;
    w->live = w->remaining; /* no dead wall in MCR */
    return w->tiles[i];
}

/* Wall.draw / SeatWalls.draw (the caller checked mj_left) */
static int mj_wall_draw(mj_hand_t *h, int seat, int tail) {
    mj_wall_t *w = &h->wall;
    if (h->r->quarters) {
        int k = (seat - w->dealer) & 3;
        int i = (k + 1) * (w->n / 4) - 1 - w->drawn[k];
        w->drawn[k]++;
        return mj_take(w, i);
    }
    if (!tail) {
        int i = w->head;
        while (w->taken[i]) i++;
        w->head = i + 1;
        return mj_take(w, i);
    }
    /* Wall.tail_index: the top of the last stack first, then its bottom */
    int n_stacks = w->n / 2, k = w->tail_drawn, idx;
    for (;;) {
        idx = 2 * (n_stacks - 1 - k / 2) + (k % 2);
        if (!w->taken[idx]) break;
        k++;
    }
    w->tail_drawn = (n_stacks - 1 - idx / 2) * 2 + idx % 2 + 1;
    return mj_take(w, idx);
}

/* Wall.deal (4-4-4 by stacks, then 跳牌) / SeatWalls.deal (13 each from the part's back, the dealer's 14th) */
static void mj_wall_deal(mj_hand_t *h, uint8_t hands[4][14], int nh[4]) {
    mj_wall_t *w = &h->wall;
    int dealer = h->dealer;
    memset(nh, 0, 4 * sizeof(int));
    if (h->r->quarters) {
        w->dealer = dealer;
        for (int s = 0; s < 4; s++)
            for (int i = 0; i < 13; i++) hands[s][nh[s]++] = (uint8_t)mj_wall_draw(h, s, 0);
        hands[dealer][nh[dealer]++] = (uint8_t)mj_wall_draw(h, dealer, 0);
        return;
    }
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++) {
            int s = (dealer + k) & 3;
            for (int i = 0; i < 4; i++) hands[s][nh[s]++] = w->tiles[16 * r + 4 * k + i];
        }
    for (int i = 0; i < 48; i++) w->taken[i] = 1;
    w->remaining -= 48;
    w->live = w->remaining;
    w->head = 48;
    int base = w->head;
    hands[dealer][nh[dealer]++] = (uint8_t)mj_take(w, base);
    hands[dealer][nh[dealer]++] = (uint8_t)mj_take(w, base + 4);
    for (int k = 1; k < 4; k++) {
        int s = (dealer + k) & 3;
        hands[s][nh[s]++] = (uint8_t)mj_take(w, base + k);
    }
}

/* ---- win tests ------------------------------------------------------------------------------- */
/* MCR.could_win: the winning shape alone (the seat's counts, with `tile` unless self-drawn) */
static int mj_could_win(const mj_hand_t *h, int seat, int tile, int self_drawn) {
    const mj_seat_t *st = &h->seats[seat];
    int c[MJ_KINDS];
    for (int t = 0; t < MJ_KINDS; t++) c[t] = st->counts[t];
    if (!self_drawn) c[tile]++;
    return win_shape(c, st->nmelds);
}

typedef struct {
    int discarder; /* -1 self-drawn */
    int kong, last, fourth_tile;
} mj_ctx_t;

/* Hand.win_context */
static mj_ctx_t mj_win_context(const mj_hand_t *h, int seat, int tile, int discarder, int robbing) {
    mj_ctx_t x;
    int visible = h->visible[tile];
    if (discarder >= 0 && !robbing) visible -= 1; /* the discard itself is the winning tile */
    int left = mj_left(h, ((discarder < 0 ? seat : discarder) + 1) & 3);
    x.discarder = discarder;
    x.kong = robbing || (discarder < 0 && h->after_kong);
    x.last = left == 0;
    x.fourth_tile = visible == 3;
    return x;
}

/* MCR._score: the fans of the win, or 0 (not a winning shape, or scoring refuses it) */
static int mj_score(const mj_hand_t *h, int seat, int tile, const mj_ctx_t *x, fantab_t *fans) {
    int self_drawn = x->discarder < 0;
    if (!mj_could_win(h, seat, tile, self_drawn)) return 0;
    const mj_seat_t *st = &h->seats[seat];
    hand_t w;
    w.nmelds = st->nmelds;
    for (int i = 0; i < st->nmelds; i++) {
        w.mkind[i] = st->melds[i].kind;
        w.mtile[i] = st->melds[i].tile;
        w.mconc[i] = st->melds[i].concealed;
    }
    int n = 0, skip = self_drawn;
    for (int t = 0; t < MJ_KINDS; t++)
        for (int k = 0; k < st->counts[t]; k++) {
            if (skip && t == tile) {
                skip = 0;
                continue;
            }
            if (n == 14) return 0;
            w.hand[n++] = (uint8_t)t;
        }
    w.nhand = n;
    w.win = tile;
    w.self_drawn = self_drawn;
    w.fourth_tile = x->fourth_tile;
    w.kong = x->kong;
    w.wall_last = x->last;
    w.seat = (seat - h->dealer) & 3;
    w.prevalent = h->prevalent;
    w.flowers = st->nflowers;
    w.r = h->r->fan;
    return h->r->compute(&w, fans);
}

/* MCR.check_win (with Hand._try_win's barred test): 1 and the points, or 0 */
static int mj_check_win(const mj_hand_t *h, int seat, int tile, const mj_ctx_t *x, fantab_t *fans, int *points) {
    if (h->seats[seat].barred) return 0;
    if (!mj_score(h, seat, tile, x, fans)) return 0;
    if (h->r->fan_points(fans) < h->r->fan.min_fan) return 0;
    *points = h->r->points(fans);
    return 1;
}

/* Hand._try_win: 1 with the context, fans and points of the win, or 0 */
static int mj_try_win(const mj_hand_t *h, int seat, int tile, int discarder, int robbing, mj_ctx_t *x, fantab_t *fans,
                      int *points) {
    if (h->seats[seat].barred || !mj_could_win(h, seat, tile, discarder < 0)) return 0;
    *x = mj_win_context(h, seat, tile, discarder, robbing);
    return mj_check_win(h, seat, tile, x, fans, points);
}

/* ---- the end (Hand._finish, Hand._end) --------------------------------------------------------- */
static void mj_end(mj_hand_t *h, int result, int seat) {
    h->phase = PH_OVER;
    memset(h->nopt, 0, sizeof h->nopt);
    h->noptseats = 0;
    memset(h->responded, 0, sizeof h->responded);
    h->nresp = 0;
    h->result = result;
    h->end_seat = seat;
    mj_emit(h, E_HAND_END, seat, -1, result, 0, 0);
}

/* Hand._finish with MCR.settle: won = 0 is 荒牌 (no score) */
static void mj_finish(mj_hand_t *h, int won, int seat, int tile, int from, const mj_ctx_t *x, const fantab_t *fans,
                      int points) {
    int d[4] = {0, 0, 0, 0};
    h->won = won;
    if (won) {
        h->win_seat = seat, h->win_tile = tile, h->win_from = from, h->win_points = points;
        h->win_kong = x->kong, h->win_last = x->last, h->win_fourth = x->fourth_tile;
        h->win_fans = *fans;
        mj_emit(h, E_WIN, seat, tile, from, 0, 0);
        /* majiang.mcr.payment.hand_deltas, base 8 */
        for (int s = 0; s < 4; s++) {
            if (s == seat) continue;
            int pay = from < 0 || s == from ? 8 + points : 8;
            d[s] = -pay;
            d[seat] += pay;
        }
    } else {
        mj_emit(h, E_EXHAUSTED, -1, -1, 0, 0, 0);
    }
    mj_pay(h, d, PAY_SETTLEMENT);
    mj_end(h, won ? R_WIN : R_DRAW, -1);
}

/* ---- the turn --------------------------------------------------------------------------------- */
static inline void mj_add_opt(mj_hand_t *h, int seat, mj_act_t a) { h->opt[seat][h->nopt[seat]++] = a; }

/* Ruleset.can_kong (MCR: a replacement tile must remain) */
static inline int mj_can_kong(const mj_hand_t *h) { return h->wall.live > 0; }

/* Hand._enter_turn */
static void mj_enter_turn(mj_hand_t *h) {
    int s = h->current;
    mj_seat_t *st = &h->seats[s];
    const uint8_t *c = st->counts;
    h->nopt[s] = 0;
    if (h->turn_drawn) {
        int tile = st->drawn;
        if (tile < 0)
            for (int t = MJ_KINDS - 1; t >= 0; t--)
                if (c[t]) {
                    tile = t;
                    break;
                }
        fantab_t fans;
        int points;
        if (!st->barred && mj_could_win(h, s, tile, 1)) {
            mj_ctx_t x = mj_win_context(h, s, tile, -1, 0);
            if (mj_check_win(h, s, tile, &x, &fans, &points)) mj_add_opt(h, s, MJ_ACT(A_WIN, tile, 0));
        }
        /* a kong needs a replacement for the konger and a draw for the seat after it */
        int room = h->r->quarters ? mj_left(h, s) && mj_left(h, (s + 1) & 3) : h->wall.live;
        if (mj_can_kong(h) && room) {
            for (int t = 0; t < MJ_KINDS; t++)
                if (c[t] == 4) mj_add_opt(h, s, MJ_ACT(A_CONCEALED_KONG, t, 0));
            for (int i = 0; i < st->nmelds; i++)
                if (st->melds[i].kind == MELD_PUNG && c[st->melds[i].tile])
                    mj_add_opt(h, s, MJ_ACT(A_ADDED_KONG, st->melds[i].tile, 0));
        }
    }
    for (int t = 0; t < MJ_KINDS; t++)
        if (c[t]) mj_add_opt(h, s, MJ_ACT(A_DISCARD, t, 0));
    h->optseats[0] = s;
    h->noptseats = 1;
    memset(h->responded, 0, sizeof h->responded);
    h->nresp = 0;
    h->phase = PH_TURN;
}

static void mj_receive(mj_hand_t *h, int seat, int tile) {
    mj_seat_t *st = &h->seats[seat];
    if (mj_is_bonus(h, tile)) {
        st->flowers[st->nflowers++] = (uint8_t)tile;
    } else {
        st->counts[tile]++;
        st->nconc++;
    }
}

/* Hand._replace_flower: show a flower, draw its replacement from the tail (repeating); -1 = nothing left */
static int mj_replace_flower(mj_hand_t *h, int seat, int flower) {
    mj_seat_t *st = &h->seats[seat];
    for (;;) {
        if (mj_left(h, seat) == 0) {
            mj_emit(h, E_FLOWER, seat, flower, -1, 0, 0);
            return -1;
        }
        int t = mj_wall_draw(h, seat, 1);
        mj_emit(h, E_FLOWER, seat, flower, t, 0, 0);
        if (!mj_is_bonus(h, t)) {
            st->counts[t]++;
            st->nconc++;
            return t;
        }
        st->flowers[st->nflowers++] = (uint8_t)t;
        flower = t;
    }
}

/* Hand._draw: draw for `seat` (head, or tail after a kong); nothing left for it ends the hand */
static void mj_draw(mj_hand_t *h, int seat, int tail) {
    if (mj_left(h, seat) == 0) {
        mj_finish(h, 0, -1, -1, -1, NULL, NULL, 0);
        return;
    }
    int t = mj_wall_draw(h, seat, tail);
    mj_seat_t *st = &h->seats[seat];
    h->first_turn = 0;
    mj_emit(h, E_DRAW, seat, t, tail, 0, 0);
    if (mj_is_bonus(h, t)) {
        st->flowers[st->nflowers++] = (uint8_t)t;
        int r = mj_replace_flower(h, seat, t);
        if (r < 0) {
            mj_finish(h, 0, -1, -1, -1, NULL, NULL, 0);
            return;
        }
        t = r;
    } else {
        st->counts[t]++;
        st->nconc++;
    }
    st->drawn = t;
    st->passed_win = 0;
    h->current = seat;
    h->turn_drawn = 1;
    h->phase = PH_TURN;
    mj_enter_turn(h);
}

/* Hand.__init__ after the header: the wall, the deal, 补花, the first turn.  `arrange`: wall swaps. */
static void mj_start(mj_hand_t *h, const mj_rules_t *r, const uint8_t *seed, int seedlen, int dealer, int prevalent,
                     const int (*arrange)[2], int narrange) {
    mj_ev_t *ev = h->ev;
    int evcap = h->evcap, (*pay)[4] = h->pay, paycap = h->paycap;
    memset(h, 0, sizeof *h);
    h->ev = ev, h->evcap = evcap, h->pay = pay, h->paycap = paycap;
    h->r = r;
    memcpy(h->seed, seed, (size_t)seedlen);
    h->seedlen = seedlen;
    h->dealer = dealer;
    h->prevalent = prevalent;
    for (int s = 0; s < 4; s++) h->seats[s].drawn = -1;
    h->phase = PH_TURN;
    h->current = dealer;
    h->turn_drawn = 1;
    h->first_turn = 1;
    h->pend_seat = h->pend_tile = -1;
    h->win_seat = h->win_tile = h->win_from = h->end_seat = -1;
    mj_wall_build(&h->wall, r, seed, seedlen);
    for (int i = 0; i < narrange; i++) {
        uint8_t *t = h->wall.tiles;
        uint8_t x = t[arrange[i][0]];
        t[arrange[i][0]] = t[arrange[i][1]];
        t[arrange[i][1]] = x;
    }
    if (!r->quarters) mj_emit(h, E_DICE, -1, -1, 0, 0, 0);
    uint8_t hands[4][14];
    int nh[4];
    mj_wall_deal(h, hands, nh);
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < nh[s]; i++) mj_receive(h, s, hands[s][i]);
    for (int s = 0; s < 4; s++) { /* sorted, for the deal event */
        uint8_t *d = h->dealt[s];
        memcpy(d, hands[s], (size_t)nh[s]);
        h->ndealt[s] = nh[s];
        for (int i = 1; i < nh[s]; i++)
            for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
                uint8_t x = d[j];
                d[j] = d[j - 1];
                d[j - 1] = x;
            }
    }
    mj_emit(h, E_DEAL, -1, -1, 0, 0, 0);
    for (int k = 0; k < 4; k++) { /* 补花: dealer first, each replaces until none */
        int s = (dealer + k) & 3;
        mj_seat_t *st = &h->seats[s];
        uint8_t shown[8];
        int n = st->nflowers;
        memcpy(shown, st->flowers, (size_t)n);
        for (int i = 0; i < n; i++) mj_replace_flower(h, s, shown[i]);
    }
    int last = hands[dealer][nh[dealer] - 1];
    h->seats[dealer].drawn = mj_is_bonus(h, last) ? -1 : last;
    mj_enter_turn(h);
}

/* ---- claims ----------------------------------------------------------------------------------- */
static void mj_draw_next(mj_hand_t *h, int src) {
    h->pend_seat = h->pend_tile = -1;
    mj_draw(h, (src + 1) & 3, 0);
}

/* Hand._open_claims */
static void mj_open_claims(mj_hand_t *h, int discarder, int tile) {
    int live = mj_left(h, (discarder + 1) & 3) > 0; /* the next seat can still draw */
    memset(h->nopt, 0, sizeof h->nopt); /* a new window: only the seats asked have options */
    const uint8_t *nc = h->seats[(discarder + 1) & 3].counts;
    int r = tile % 9;
    int chow_maybe = tile < 27 && ((r && nc[tile - 1]) || (r < 8 && nc[tile + 1])); /* MCR: no honour chows */
    h->noptseats = 0;
    for (int k = 1; k < 4; k++) {
        int s = (discarder + k) & 3;
        mj_seat_t *st = &h->seats[s];
        const uint8_t *c = st->counts;
        h->nopt[s] = 0;
        fantab_t fans;
        int points;
        if (!st->barred && mj_could_win(h, s, tile, 0)) {
            mj_ctx_t x = mj_win_context(h, s, tile, discarder, 0);
            if (mj_check_win(h, s, tile, &x, &fans, &points)) mj_add_opt(h, s, MJ_ACT(A_WIN, tile, 0));
        }
        if (live) {
            int n = c[tile];
            if (n >= 2) {
                mj_add_opt(h, s, MJ_ACT(A_PUNG, tile, 0));
                if (n == 3 && mj_can_kong(h)) mj_add_opt(h, s, MJ_ACT(A_KONG, tile, 0));
            }
            if (k == 1 && chow_maybe) /* MCR.chows: the lowest tile tile-2, tile-1, tile */
                for (int pos = 2; pos >= 0; pos--) {
                    int low = tile - pos, lr = r - pos;
                    if (lr < 0 || lr > 6) continue;
                    int ok = 1;
                    for (int u = low; u < low + 3; u++)
                        if (u != tile && !c[u]) ok = 0;
                    if (ok) mj_add_opt(h, s, MJ_ACT(A_CHOW, tile, pos));
                }
        }
        if (h->nopt[s]) {
            mj_add_opt(h, s, MJ_PASS);
            h->optseats[h->noptseats++] = s;
        }
    }
    h->pend_seat = discarder, h->pend_tile = tile;
    memset(h->responded, 0, sizeof h->responded);
    h->nresp = 0;
    if (h->noptseats) {
        h->phase = PH_CLAIM;
    } else {
        mj_draw_next(h, discarder);
    }
}

/* events.moqie: the seat's last tile move drew `tile` (a draw, or a flower's replacement) */
static int mj_moqie(const mj_hand_t *h, int seat, int tile) {
    for (int i = h->nev - 1; i >= 0; i--) {
        const mj_ev_t *e = &h->ev[i];
        if (e->seat != seat) continue;
        switch (e->type) {
        case E_DRAW: return e->tile == tile;
        case E_FLOWER: return e->a == tile;
        case E_DISCARD: case E_CHOW: case E_PUNG: case E_KONG: case E_ADD_KONG_DECLARED: return 0;
        default: break;
        }
    }
    return 0;
}

/* Hand._discard */
static void mj_discard(mj_hand_t *h, int seat, int tile) {
    mj_seat_t *st = &h->seats[seat];
    st->counts[tile]--;
    st->nconc--;
    mj_disc_t *d = &h->order[h->norder++];
    d->seat = (uint8_t)seat, d->index = (uint8_t)st->npond, d->tile = (uint8_t)tile, d->claimer = -1;
    st->claimed[st->npond] = 0;
    st->moqie[st->npond] = (uint8_t)mj_moqie(h, seat, tile);
    mj_emit(h, E_DISCARD, seat, tile, st->moqie[st->npond], 0, 0);
    st->pond[st->npond++] = (uint8_t)tile;
    st->drawn = -1;
    h->after_kong = 0;
    h->visible[tile]++;
    mj_open_claims(h, seat, tile);
}

/* ---- kongs ------------------------------------------------------------------------------------ */
/* Hand._kong_done (MCR pays no kong bonus) */
static void mj_kong_done(mj_hand_t *h, int seat, int tile, int kind) {
    h->first_turn = 0;
    mj_emit(h, E_KONG, seat, tile, kind, 0, 0);
    h->after_kong = 1;
    mj_draw(h, seat, 1);
}

static void mj_add_meld(mj_seat_t *st, int kind, int tile, int concealed, int claimed, int source) {
    mj_meld_t *m = &st->melds[st->nmelds++];
    m->kind = (uint8_t)kind, m->tile = (uint8_t)tile, m->concealed = (uint8_t)concealed, m->added = 0;
    m->claimed = (int8_t)claimed, m->source = (int8_t)source;
}

/* Hand._complete_added_kong */
static void mj_complete_added_kong(mj_hand_t *h, int seat, int tile) {
    mj_seat_t *st = &h->seats[seat];
    st->counts[tile]--;
    st->nconc--;
    for (int i = 0; i < st->nmelds; i++)
        if (st->melds[i].kind == MELD_PUNG && st->melds[i].tile == tile) {
            st->melds[i].kind = MELD_KONG;
            st->melds[i].added = 1;
            break;
        }
    h->visible[tile]++;
    h->pend_seat = h->pend_tile = -1;
    mj_kong_done(h, seat, tile, KONG_ADDED);
}

/* Hand._turn_action (a legal decision of the current seat) */
static void mj_turn_action(mj_hand_t *h, int seat, mj_act_t a) {
    int t = MJ_ACT_TILE(a);
    mj_seat_t *st = &h->seats[seat];
    mj_ctx_t x;
    fantab_t fans;
    int points;
    switch (MJ_ACT_TYPE(a)) {
    case A_DISCARD:
        mj_discard(h, seat, t);
        break;
    case A_WIN:
        mj_try_win(h, seat, t, -1, 0, &x, &fans, &points); /* legal, so a win */
        mj_finish(h, 1, seat, t, -1, &x, &fans, points);
        break;
    case A_CONCEALED_KONG:
        st->counts[t] -= 4;
        st->nconc -= 4;
        mj_add_meld(st, MELD_KONG, t, 1, -1, -1);
        mj_kong_done(h, seat, t, KONG_CONCEALED);
        break;
    case A_ADDED_KONG: {
        h->pend_seat = seat, h->pend_tile = t;
        int robbers[3], nr = 0;
        for (int k = 1; k < 4; k++) {
            int s = (seat + k) & 3;
            if (mj_try_win(h, s, t, seat, 1, &x, &fans, &points)) robbers[nr++] = s;
        }
        mj_emit(h, E_ADD_KONG_DECLARED, seat, t, 0, 0, 0);
        if (nr) {
            h->phase = PH_ROB;
            memset(h->nopt, 0, sizeof h->nopt);
            h->noptseats = 0;
            for (int i = 0; i < nr; i++) {
                int s = robbers[i];
                mj_add_opt(h, s, MJ_ACT(A_WIN, t, 0));
                mj_add_opt(h, s, MJ_PASS);
                h->optseats[h->noptseats++] = s;
            }
            memset(h->responded, 0, sizeof h->responded);
            h->nresp = 0;
        } else {
            mj_complete_added_kong(h, seat, t);
        }
        break;
    }
    }
}

/* ---- resolving a claim window ------------------------------------------------------------------ */
static int mj_has_type(const mj_hand_t *h, int seat, int type) {
    for (int i = 0; i < h->nopt[seat]; i++)
        if (MJ_ACT_TYPE(h->opt[seat][i]) == type) return 1;
    return 0;
}

/* Hand._claim_set */
static void mj_claim_set(mj_hand_t *h, int seat, int src, int tile, mj_act_t a) {
    mj_seat_t *st = &h->seats[seat], *sv = &h->seats[src];
    sv->claimed[sv->npond - 1] = 1;
    h->order[h->norder - 1].claimer = (int8_t)seat;
    h->pend_seat = h->pend_tile = -1;
    h->first_turn = 0;
    int source = 4 - ((src - seat) & 3); /* where the tile came from: 1 上家, 2 对家, 3 下家 */
    switch (MJ_ACT_TYPE(a)) {
    case A_CHOW: {
        int pos = MJ_ACT_POS(a), low = tile - pos;
        for (int u = low; u < low + 3; u++) h->visible[u]++;
        h->visible[tile]--; /* the claimed discard was already visible in the pond */
        for (int u = low; u < low + 3; u++)
            if (u != tile) {
                st->counts[u]--;
                st->nconc--;
            }
        mj_add_meld(st, MELD_CHOW, low, 0, pos, -1);
        mj_emit(h, E_CHOW, seat, tile, src, low, 0);
        break;
    }
    case A_PUNG:
        st->counts[tile] -= 2;
        st->nconc -= 2;
        h->visible[tile] += 2;
        mj_add_meld(st, MELD_PUNG, tile, 0, -1, source);
        mj_emit(h, E_PUNG, seat, tile, src, 0, 0);
        break;
    default: /* A_KONG */
        st->counts[tile] -= 3;
        st->nconc -= 3;
        h->visible[tile] += 3;
        mj_add_meld(st, MELD_KONG, tile, 0, -1, source);
        h->current = seat;
        mj_kong_done(h, seat, tile, KONG_EXPOSED);
        return;
    }
    h->current = seat;
    h->turn_drawn = 0;
    st->drawn = -1;
    mj_enter_turn(h);
}

/* Hand._resolve: 和 beats 碰/杠 beats 吃; of several wins the first seat after the discarder */
static void mj_resolve(mj_hand_t *h) {
    int src = h->pend_seat, tile = h->pend_tile, order[3];
    for (int k = 0; k < 3; k++) order[k] = (src + k + 1) & 3;
    for (int k = 0; k < 3; k++) { /* the seats that let a win go by: 过手胡 */
        int s = order[k];
        if (h->responded[s] && MJ_ACT_TYPE(h->resp[s]) != A_WIN && mj_has_type(h, s, A_WIN))
            h->seats[s].passed_win = 1;
    }
    int robbing = h->phase == PH_ROB;
    for (int k = 0; k < 3; k++) {
        int s = order[k];
        if (h->responded[s] && MJ_ACT_TYPE(h->resp[s]) == A_WIN) {
            mj_ctx_t x;
            fantab_t fans;
            int points;
            mj_try_win(h, s, tile, src, robbing, &x, &fans, &points);
            if (robbing) {
                h->seats[src].counts[tile]--; /* the robbed tile goes to the winner */
                h->seats[src].nconc--;
                mj_emit(h, E_ROBBED, s, tile, src, 0, 0);
            } else {
                mj_seat_t *sv = &h->seats[src];
                sv->claimed[sv->npond - 1] = 1;
                h->order[h->norder - 1].claimer = (int8_t)s;
            }
            mj_finish(h, 1, s, tile, src, &x, &fans, points);
            return;
        }
    }
    if (robbing) {
        mj_complete_added_kong(h, src, tile);
        return;
    }
    for (int k = 0; k < 3; k++) {
        int s = order[k], t = MJ_ACT_TYPE(h->resp[s]);
        if (h->responded[s] && (t == A_PUNG || t == A_KONG)) {
            mj_claim_set(h, s, src, tile, h->resp[s]);
            return;
        }
    }
    for (int k = 0; k < 3; k++) {
        int s = order[k];
        if (h->responded[s] && MJ_ACT_TYPE(h->resp[s]) == A_CHOW) {
            mj_claim_set(h, s, src, tile, h->resp[s]);
            return;
        }
    }
    mj_draw_next(h, src);
}

/* ---- decisions -------------------------------------------------------------------------------- */
/* Hand.legal: the options of `seat` now (n = 0: none) */
static const mj_act_t *mj_legal(const mj_hand_t *h, int seat, int *n) {
    *n = 0;
    if (seat < 0 || seat > 3) return NULL;
    if (h->phase == PH_TURN) {
        if (seat == h->current) *n = h->nopt[seat];
    } else if ((h->phase == PH_CLAIM || h->phase == PH_ROB) && !h->responded[seat]) {
        *n = h->nopt[seat];
    }
    return h->opt[seat];
}

/* Hand.prompted: the seats that must decide, in the order asked */
static int mj_prompted(const mj_hand_t *h, int out[4]) {
    if (h->phase == PH_TURN) {
        out[0] = h->current;
        return 1;
    }
    int n = 0;
    if (h->phase == PH_CLAIM || h->phase == PH_ROB)
        for (int i = 0; i < h->noptseats; i++)
            if (!h->responded[h->optseats[i]]) out[n++] = h->optseats[i];
    return n;
}

static int mj_in_options(const mj_hand_t *h, int seat) {
    for (int i = 0; i < h->noptseats; i++)
        if (h->optseats[i] == seat) return 1;
    return 0;
}

/* Hand._may_declare: may `seat` declare a win now (a false one is then penalised) */
static int mj_may_declare(const mj_hand_t *h, int seat) {
    if (h->phase == PH_TURN) return seat == h->current && h->turn_drawn;
    return (h->phase == PH_CLAIM || h->phase == PH_ROB) && h->pend_seat >= 0 && seat != h->pend_seat &&
           !h->responded[seat];
}

/* MCR.false_win and Hand._false_win: `atile` is the declared action's tile */
static int mj_false_win(mj_hand_t *h, int seat, int atile) {
    mj_seat_t *st = &h->seats[seat];
    int tile;
    mj_ctx_t x;
    if (h->phase == PH_TURN) {
        tile = st->drawn >= 0 ? st->drawn : atile;
        if (tile < 0 || tile >= MJ_KINDS || !st->counts[tile]) return MJ_ILLEGAL;
        x = mj_win_context(h, seat, tile, -1, 0);
    } else {
        tile = h->pend_tile;
        x = mj_win_context(h, seat, tile, h->pend_seat, h->phase == PH_ROB);
    }
    fantab_t fans;
    int kind = FW_WRONG; /* a complete hand below the minimum, or a tile that does not complete a ready one */
    if (!mj_score(h, seat, tile, &x, &fans)) {
        int c[MJ_KINDS], ready = 0;
        for (int t = 0; t < MJ_KINDS; t++) c[t] = st->counts[t];
        if (x.discarder < 0) c[tile]--;
        for (int t = 0; t < MJ_KINDS && !ready; t++) {
            c[t]++;
            ready = win_shape(c, st->nmelds);
            c[t]--;
        }
        if (!ready) kind = FW_SHORT; /* 诈和: not even ready */
    }
    int ends = h->r->false_win_ends, each = !ends && kind == FW_SHORT ? 20 : 10;
    int d[4] = {each, each, each, each};
    d[seat] = -3 * each;
    mj_emit(h, E_FALSE_WIN, seat, tile, kind, ends, 0);
    mj_pay(h, d, PAY_FALSE_WIN);
    if (ends) {
        mj_end(h, R_FALSE_WIN, seat);
        return MJ_OK;
    }
    st->barred = 1;
    if (!mj_in_options(h, seat)) return MJ_OK; /* a seat that was not asked: the penalty is all there is */
    int n = 0;
    for (int i = 0; i < h->nopt[seat]; i++)
        if (MJ_ACT_TYPE(h->opt[seat][i]) != A_WIN) h->opt[seat][n++] = h->opt[seat][i];
    h->nopt[seat] = n;
    if ((h->phase == PH_CLAIM || h->phase == PH_ROB) && n == 1 && h->opt[seat][0] == MJ_PASS) {
        h->responded[seat] = 1; /* nothing left to claim: the answer counts as a pass */
        h->resp[seat] = MJ_PASS;
        if (++h->nresp == h->noptseats) mj_resolve(h);
    }
    return MJ_OK;
}

/* Hand.act: `code` is the action's code (-1: not a canonical action, never legal), `type` and
 * `tile` its fields (type -1: unknown).  MJ_ILLEGAL changes nothing. */
static int mj_act(mj_hand_t *h, int seat, int code, int type, int tile) {
    if (h->phase == PH_OVER || seat < 0 || seat > 3) return MJ_ILLEGAL;
    if (h->phase == PH_TURN && type == A_DISCARD && seat == h->current && code >= 0) {
        if (tile >= 0 && tile < MJ_KINDS && h->seats[seat].counts[tile]) {
            mj_discard(h, seat, tile); /* the common case, without a list search */
            return MJ_OK;
        }
    }
    int n, found = 0;
    const mj_act_t *opts = mj_legal(h, seat, &n);
    for (int i = 0; i < n && code >= 0; i++)
        if (opts[i] == code) found = 1;
    if (!found) {
        if (type == A_WIN && mj_may_declare(h, seat)) return mj_false_win(h, seat, tile);
        return MJ_ILLEGAL;
    }
    if (h->phase == PH_TURN) {
        mj_turn_action(h, seat, (mj_act_t)code);
    } else {
        h->responded[seat] = 1;
        h->resp[seat] = (mj_act_t)code;
        if (++h->nresp == h->noptseats) mj_resolve(h);
    }
    return MJ_OK;
}

/* Hand.fault with Botzone.fault: the offender −30, the others +10, the hand ends.  `kind` is the
 * glue's index of the fault's name.  MJ_ILLEGAL: the hand is over, or the ruleset has no such rule. */
static int mj_fault(mj_hand_t *h, int seat, int kind) {
    if (h->phase == PH_OVER || seat < 0 || seat > 3 || !h->r->fault) return MJ_ILLEGAL;
    int d[4];
    for (int s = 0; s < 4; s++) d[s] = s == seat ? h->r->fault_offender : h->r->fault_other;
    mj_emit(h, E_FAULT, seat, -1, 0, 1, kind);
    mj_pay(h, d, PAY_FAULT);
    mj_end(h, R_FAULT, seat);
    return MJ_OK;
}

/* Hand.default_action (托管): discard the drawn tile (else the last discard offered), pass a claim.
 * The caller checked that `seat` has options. */
static mj_act_t mj_default_action(const mj_hand_t *h, int seat) {
    if (h->phase != PH_TURN) return MJ_PASS;
    const mj_seat_t *st = &h->seats[seat];
    if (st->drawn >= 0 && st->counts[st->drawn]) return MJ_ACT(A_DISCARD, st->drawn, 0);
    mj_act_t last = MJ_PASS;
    for (int i = 0; i < h->nopt[seat]; i++)
        if (MJ_ACT_TYPE(h->opt[seat][i]) == A_DISCARD) last = h->opt[seat][i];
    return last;
}

/* ---- bots inside the core --------------------------------------------------------------------- */
/* majiang.bots.efficiency.best_after_claim */
static int mj_best_after_claim(const mj_seat_t *st, mj_act_t a) {
    unsigned char c[MJ_KINDS];
    memcpy(c, st->counts, MJ_KINDS);
    int t = MJ_ACT_TILE(a);
    switch (MJ_ACT_TYPE(a)) {
    case A_CHOW: {
        int low = t - MJ_ACT_POS(a);
        for (int u = low; u < low + 3; u++)
            if (u != t) c[u]--;
        break;
    }
    case A_PUNG:
        c[t] -= 2;
        break;
    default: /* A_KONG: a 3n+1 hand, no discard follows */
        c[t] -= 3;
        return overall(c, st->nmelds + 1);
    }
    return lowest_after_discard(c, st->nmelds + 1); /* shanten_after_best_discard */
}

/* the index of a bot's chosen action in `legal` */
static int mj_index_of(const mj_act_t *legal, int n, mj_act_t a) {
    for (int i = 0; i < n; i++)
        if (legal[i] == a) return i;
    return n - 1; /* not reached: the bot chooses among the legal actions */
}

/* majiang.bots.efficiency.EfficiencyBot.choose (TurnOrClaim): the index of its choice in `legal` */
static int mj_eff_choose(const mj_hand_t *h, int seat, const mj_act_t *legal, int n) {
    for (int i = 0; i < n; i++)
        if (MJ_ACT_TYPE(legal[i]) == A_WIN) return i;
    const mj_seat_t *st = &h->seats[seat];
    int melds = st->nmelds, now = 99, have_now = 0; /* the shanten now, computed where a choice needs it */
    unsigned char c[MJ_KINDS];
    memcpy(c, st->counts, MJ_KINDS);
    if (h->phase == PH_TURN) {
        for (int i = 0; i < n; i++) {
            int type = MJ_ACT_TYPE(legal[i]), t = MJ_ACT_TILE(legal[i]);
            if (type != A_CONCEALED_KONG && type != A_ADDED_KONG) continue;
            if (!have_now) now = overall(c, melds), have_now = 1;
            c[t] -= type == A_CONCEALED_KONG ? 4 : 1;
            int s = overall(c, melds + (type == A_CONCEALED_KONG));
            c[t] += type == A_CONCEALED_KONG ? 4 : 1;
            if (s <= now) return i;
        }
        long unseen[MJ_KINDS], rows[MJ_KINDS][3];
        for (int t = 0; t < MJ_KINDS; t++) unseen[t] = 4 - c[t] - h->visible[t];
        for (int i = 0; i < st->nmelds; i++) /* seen_counts: own concealed kongs */
            if (st->melds[i].concealed) unseen[st->melds[i].tile] -= 4;
        int nr = best_discard_rows(c, melds, unseen, rows), best = 0;
        for (int i = 1; i < nr; i++) /* most unseen useful copies, then the lowest tile (rows are in tile order) */
            if (rows[i][1] > rows[best][1]) best = i;
        return mj_index_of(legal, n, MJ_ACT(A_DISCARD, (int)rows[best][2], 0));
    }
    int best = -1, best_after = 0;
    for (int i = 0; i < n; i++) {
        int type = MJ_ACT_TYPE(legal[i]);
        if (type != A_PUNG && type != A_CHOW && type != A_KONG) continue;
        if (!have_now) now = overall(c, melds), have_now = 1;
        int after = mj_best_after_claim(st, legal[i]);
        if (after < now && (best < 0 || after < best_after)) best = i, best_after = after;
    }
    if (best >= 0) return best;
    for (int i = 0; i < n; i++)
        if (MJ_ACT_TYPE(legal[i]) == A_PASS) return i;
    return n - 1;
}

/* ---- majiang.bots.fan.FanBot ------------------------------------------------------------------ */
/* Its distances are in quarters of a step (PLAIN_PENALTY 0.25 = 1, FLUSH_PENALTY = PUNGS_PENALTY 0.5 = 2),
 * so the comparisons are exact; its dangers are doubles computed as Python computes them. */
#define FAN_Q 4
#define FAN_PLAIN 1
#define FAN_FLUSH 2
#define FAN_PUNGS 2
#define FAN_DEFENCE_WALL 20
#define FAN_DEFENCE_STEPS (2 * FAN_Q)

typedef struct { /* the declared melds of a hand as measured, maybe with one supposed */
    int n;
    uint8_t kind[4], tile[4], conc[4];
} mj_fmelds_t;

static const uint8_t FAN_FILLERS[3][6] = {{9, 12, 15, 18, 21, 24}, {0, 3, 6, 18, 21, 24}, {0, 3, 6, 9, 12, 15}};

static void mj_fmelds_of(const mj_seat_t *st, mj_fmelds_t *m) {
    m->n = st->nmelds;
    for (int i = 0; i < st->nmelds; i++)
        m->kind[i] = st->melds[i].kind, m->tile[i] = st->melds[i].tile, m->conc[i] = st->melds[i].concealed;
}

static void mj_fmelds_plus(const mj_fmelds_t *m, int kind, int tile, int conc, mj_fmelds_t *out) {
    *out = *m;
    out->kind[out->n] = (uint8_t)kind, out->tile[out->n] = (uint8_t)tile, out->conc[out->n] = (uint8_t)conc;
    out->n++;
}

/* SeatView.unseen: copies of `tile` the seat cannot see */
static int mj_unseen_one(const mj_hand_t *h, int seat, int tile) {
    const mj_seat_t *st = &h->seats[seat];
    int own = st->counts[tile];
    for (int i = 0; i < st->nmelds; i++)
        if (st->melds[i].concealed && st->melds[i].tile == tile) own += 4;
    int u = 4 - own - h->visible[tile];
    return u > 0 ? u : 0;
}

/* FanBot._ready_worth_eight: a wait not all seen wins 8 fan, by discard or self-drawn */
static int mj_fan_ready_worth_eight(const mj_hand_t *h, int seat, unsigned char *c, const mj_fmelds_t *m) {
    if (overall(c, m->n) != 0) return 0;
    unsigned long long waits = useful_mask_at(c, m->n, 0);
    hand_t w;
    fantab_t fans;
    for (int t = 0; t < MJ_KINDS; t++) {
        if (!(waits >> t & 1) || mj_unseen_one(h, seat, t) <= 0) continue;
        for (int self_drawn = 0; self_drawn < 2; self_drawn++) { /* WinningHand's defaults otherwise */
            memset(&w, 0, sizeof w);
            w.nmelds = m->n;
            for (int i = 0; i < m->n; i++) w.mkind[i] = m->kind[i], w.mtile[i] = m->tile[i], w.mconc[i] = m->conc[i];
            for (int u = 0; u < MJ_KINDS; u++)
                for (int k = 0; k < c[u] && w.nhand < 14; k++) w.hand[w.nhand++] = (uint8_t)u;
            w.win = t;
            w.self_drawn = self_drawn;
            w.seat = (seat - h->dealer) & 3;
            w.prevalent = h->prevalent;
            w.r = h->r->fan;
            if (h->r->compute(&w, &fans) && h->r->fan_points(&fans) >= h->r->fan.min_fan) return 1;
        }
    }
    return 0;
}

/* FanBot._flush: shanten of the hand kept to one suit and honours (off-suit tiles as isolated
 * stand-ins), or NA */
static int mj_fan_flush(const unsigned char *c, const mj_fmelds_t *m, int suit) {
    for (int i = 0; i < m->n; i++)
        if (m->tile[i] < 27 && m->tile[i] / 9 != suit) return NA;
    int lo = 9 * suit, off = 0;
    for (int t = 0; t < 27; t++)
        if (t < lo || t >= lo + 9) off += c[t];
    if (off > 6) return NA;
    unsigned char f[MJ_KINDS] = {0};
    memcpy(f + lo, c + lo, 9);
    memcpy(f + 27, c + 27, 7);
    for (int i = 0; i < off; i++) f[FAN_FILLERS[suit][i]] = 1;
    return overall(f, m->n);
}

/* FanBot._distance of a 13-tile hand (3n + 1), in quarters */
static int mj_fan_distance(const mj_hand_t *h, int seat, unsigned char *c, const mj_fmelds_t *m) {
    int n = m->n, d = NA * FAN_Q, v;
    for (int f = 0; f < 5; f++) {
        if ((v = form_value(c, n, f)) == NA) continue;
        v = v * FAN_Q + (f == 0 ? FAN_PLAIN : 0);
        if (v < d) d = v;
    }
    int honours = 0;
    for (int t = 27; t < MJ_KINDS; t++) honours |= c[t] > 0;
    for (int i = 0; i < n; i++) honours |= m->tile[i] >= 27;
    for (int suit = 0; suit < 3; suit++)
        if ((v = mj_fan_flush(c, m, suit)) != NA && (v = v * FAN_Q + (honours ? FAN_FLUSH : 0)) < d) d = v;
    int chow = 0, pungs = n, pairs = 0;
    for (int i = 0; i < n; i++) chow |= m->kind[i] == MELD_CHOW;
    if (!chow) { /* _pungs_shanten: 碰碰和 */
        for (int t = 0; t < MJ_KINDS; t++) pungs += c[t] >= 3, pairs += c[t] == 2;
        if (pungs > 4) pungs = 4;
        v = (8 - 2 * pungs - (pairs < 5 - pungs ? pairs : 5 - pungs)) * FAN_Q + FAN_PUNGS;
        if (v < d) d = v;
    }
    if (d < FAN_Q && !mj_fan_ready_worth_eight(h, seat, c, m)) d += FAN_Q; /* ready, no wait worth 8 */
    return d;
}

/* _distance(drawn=True): the nearest after one discard */
static int mj_fan_distance_drawn(const mj_hand_t *h, int seat, unsigned char *c, const mj_fmelds_t *m) {
    int best = NA * FAN_Q;
    for (int t = 0; t < MJ_KINDS; t++) {
        if (!c[t]) continue;
        c[t]--;
        int d = mj_fan_distance(h, seat, c, m);
        c[t]++;
        if (d < best) best = d;
    }
    return best;
}

/* FanBot._danger */
static double mj_fan_danger(const mj_hand_t *h, int seat, int tile) {
    for (int s = 0; s < 4; s++) {
        if (s == seat) continue;
        const mj_seat_t *o = &h->seats[s];
        for (int i = 0; i < o->npond; i++)
            if (o->pond[i] == tile) return 0.0;
    }
    double u = (double)mj_unseen_one(h, seat, tile);
    if (tile >= 27) return 0.3 * u;
    int r = tile % 9;
    return u * (r == 0 || r == 8 ? 0.6 : r == 1 || r == 7 ? 0.8 : 1.0);
}

/* FanBot.turn's kongs (EVBot.turn's too): the first added kong, or the first concealed kong that
 * keeps the hand as near as the best discard would; -1 for none */
static int mj_fan_kong(const mj_hand_t *h, int seat, const mj_act_t *legal, int n) {
    const mj_seat_t *st = &h->seats[seat];
    unsigned char c[MJ_KINDS];
    memcpy(c, st->counts, MJ_KINDS);
    mj_fmelds_t m, mk;
    mj_fmelds_of(st, &m);
    int now = -1; /* the distance with the drawn tile, computed where a concealed kong needs it */
    for (int i = 0; i < n; i++) {
        int type = MJ_ACT_TYPE(legal[i]), t = MJ_ACT_TILE(legal[i]);
        if (type == A_ADDED_KONG) return i;
        if (type != A_CONCEALED_KONG) continue;
        if (now < 0) now = mj_fan_distance_drawn(h, seat, c, &m);
        mj_fmelds_plus(&m, MELD_KONG, t, 1, &mk);
        c[t] -= 4;
        int after = mj_fan_distance(h, seat, c, &mk);
        c[t] += 4;
        if (after <= now) return i;
    }
    return -1;
}

/* a claim `a` applied to a seat's hand: its concealed counts in c, its melds (m and the claim's) in out */
static void mj_claimed(const mj_seat_t *st, const mj_fmelds_t *m, mj_act_t a, unsigned char *c, mj_fmelds_t *out) {
    int type = MJ_ACT_TYPE(a), t = MJ_ACT_TILE(a);
    memcpy(c, st->counts, MJ_KINDS);
    if (type == A_CHOW) {
        int lo = t - MJ_ACT_POS(a);
        for (int u = lo; u < lo + 3; u++)
            if (u != t) c[u]--;
        mj_fmelds_plus(m, MELD_CHOW, lo, 0, out);
    } else {
        c[t] -= type == A_PUNG ? 2 : 3;
        mj_fmelds_plus(m, type == A_PUNG ? MELD_PUNG : MELD_KONG, t, 0, out);
    }
}

/* FanBot.turn's discard (no kong taken): the nearest pattern, late and far the safest tile */
static int mj_fan_discard(const mj_hand_t *h, int seat, const mj_act_t *legal, int n) {
    const mj_seat_t *st = &h->seats[seat];
    unsigned char c[MJ_KINDS];
    memcpy(c, st->counts, MJ_KINDS);
    mj_fmelds_t m;
    mj_fmelds_of(st, &m);
    long unseen[MJ_KINDS];
    for (int t = 0; t < MJ_KINDS; t++) unseen[t] = 4 - c[t] - h->visible[t];
    for (int i = 0; i < st->nmelds; i++) /* seen_counts: own concealed kongs */
        if (st->melds[i].concealed) unseen[st->melds[i].tile] -= 4;
    int tiles[MJ_KINDS], dist[MJ_KINDS], nc = 0, low = NA * FAN_Q;
    long extra[MJ_KINDS];
    for (int t = 0; t < MJ_KINDS; t++) {
        if (!c[t]) continue;
        c[t]--;
        tiles[nc] = t, dist[nc] = mj_fan_distance(h, seat, c, &m), extra[nc] = 0;
        c[t]++;
        if (dist[nc] < low) low = dist[nc];
        nc++;
    }
    for (int i = 0; i < nc; i++) { /* among the nearest, the most unseen useful tiles */
        if (dist[i] != low) continue;
        int t = tiles[i];
        c[t]--;
        unsigned long long mask = useful_mask(c, m.n, -1);
        c[t]++;
        for (int u = 0; u < MJ_KINDS; u++)
            if (mask >> u & 1) extra[i] -= unseen[u];
    }
    int order[MJ_KINDS]; /* sorted by (distance, extra, tile): an insertion sort, tiles already in order */
    for (int i = 0; i < nc; i++) {
        int j = i;
        while (j > 0 && (dist[order[j - 1]] > dist[i] || (dist[order[j - 1]] == dist[i] && extra[order[j - 1]] > extra[i])))
            order[j] = order[j - 1], j--;
        order[j] = i;
    }
    int pick = order[0];
    if (h->wall.live < FAN_DEFENCE_WALL && dist[pick] >= FAN_DEFENCE_STEPS) { /* late and far: the safest */
        double best = 0;
        for (int k = 0; k < nc; k++) {
            int i = order[k];
            double dg = mj_fan_danger(h, seat, tiles[i]);
            if (k == 0 || dg < best || (dg == best && dist[i] < dist[pick])) best = dg, pick = i;
        }
    }
    return mj_index_of(legal, n, MJ_ACT(A_DISCARD, tiles[pick], 0));
}

/* FanBot.turn */
static int mj_fan_turn(const mj_hand_t *h, int seat, const mj_act_t *legal, int n) {
    int kong = mj_fan_kong(h, seat, legal, n);
    return kong >= 0 ? kong : mj_fan_discard(h, seat, legal, n);
}

/* FanBot.claim: the claim that brings the hand nearest, if at least a step nearer; else pass */
static int mj_fan_claim(const mj_hand_t *h, int seat, const mj_act_t *legal, int n) {
    const mj_seat_t *st = &h->seats[seat];
    unsigned char c[MJ_KINDS];
    mj_fmelds_t m, after_m;
    mj_fmelds_of(st, &m);
    int now = -1, best = -1, best_after = 0;
    for (int i = 0; i < n; i++) {
        int type = MJ_ACT_TYPE(legal[i]), after;
        if (type != A_PUNG && type != A_CHOW && type != A_KONG) continue;
        if (now < 0) memcpy(c, st->counts, MJ_KINDS), now = mj_fan_distance(h, seat, c, &m);
        mj_claimed(st, &m, legal[i], c, &after_m);
        after = type == A_KONG ? mj_fan_distance(h, seat, c, &after_m) : mj_fan_distance_drawn(h, seat, c, &after_m);
        if (after <= now - FAN_Q && (best < 0 || after < best_after)) best = i, best_after = after;
    }
    if (best >= 0) return best;
    for (int i = 0; i < n; i++)
        if (MJ_ACT_TYPE(legal[i]) == A_PASS) return i;
    return n - 1;
}

/* FanBot.choose (TurnOrClaim): the index of its choice in `legal` */
static int mj_fan_choose(const mj_hand_t *h, int seat, const mj_act_t *legal, int n) {
    for (int i = 0; i < n; i++)
        if (MJ_ACT_TYPE(legal[i]) == A_WIN) return i;
    return h->phase == PH_TURN ? mj_fan_turn(h, seat, legal, n) : mj_fan_claim(h, seat, legal, n);
}

static void mj_free(mj_hand_t *h) {
    free(h->ev);
    free(h->pay);
    h->ev = NULL;
    h->pay = NULL;
    h->evcap = h->paycap = 0;
}

#endif /* MAJIANG_HAND_CORE_H */
