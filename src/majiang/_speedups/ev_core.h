/* ev_core.h — majiang.bots.ev.EVBot (the `ev` bot, `best`'s alias) inside the compiled core, and the
 * choice of a core bot by kind.
 *
 * A port of bots/ev.py function by function (each names its twin): the same values in the same
 * floating-point order, the same node count (ev.py's `max_nodes`, one per shanten evaluation) with the
 * same memo of the 一向听 values, so the choices are the reference's, hand log for hand log
 * (tests/engine/test_core_equal.py).  The reference's CPU-time safety net (`budget_s`) is not ported:
 * the node bound is what bounds a decision here.  Far from ready it is the fan bot (hand_core.h).
 */
#ifndef MAJIANG_EV_CORE_H
#define MAJIANG_EV_CORE_H

#include <math.h>

#include "hand_core.h"
#include "rl_core.h"

#define EV_RON 1.2
#define EV_WIN_BASE 24.0
#define EV_WIN_FAN 1.9
#define EV_DEAL_IN_COST 14.0
#define EV_WAIT_RATE 0.09
#define EV_END_RATE 0.04
#define EV_CLAIM_MARGIN 1.05
#define EV_DEPTH 2    /* ev: the steps from ready it searches; ev@3 (BOT_EV3) searches 3 */
#define EV_MAX_NODES 200000L
#define EV_LOOK_ROWS 3      /* the look-ahead rows (mj_ev_look, EVBot.look) */
#define EV_LOOK_SCALE 50.0  /* their values are points / EV_LOOK_SCALE */
#define EV_LOOK_CLAIM 102   /* the first claim code of the RL actions (pung), row 2's column 0 */

/* One decision's table (EVBot._prepare) and the fan context of the melds being valued (FanContext) */
typedef struct {
    const mj_hand_t *h;
    int seat, pool, draws, min_fan, depth;
    int unseen[MJ_KINDS];
    uint8_t others_visible[MJ_KINDS]; /* visible less the seat's own exposed melds */
    double danger[MJ_KINDS];
    long nodes;
    int over;
    /* the context: melds, their tiles, and an id (the memo's key: one per melds tuple) */
    mj_fmelds_t m;
    uint8_t in_melds[MJ_KINDS];
    int ctx;
    float *look; /* NULL, or the row the discards' values are written to (mj_ev_look) */
} mj_evbot_t;

static float *ev_look_rows; /* while mj_ev_look asks: its rows (the GIL serialises the core's callers) */

/* ---- one decision's memos, as ev.py keeps them: _one_away's values (key: counts, context, draws;
 * unseen is not in the key, as in ev.py) and wait_fans's waits (key: counts, context) ------------- */
#define EV_MEMO_SIZE (1 << 15)
#define EV_MEMO_PROBES 32
typedef struct {
    uint32_t gen; /* the entry is this decision's when gen is ev_memo_gen */
    uint8_t c[MJ_KINDS], ctx, draws;
} mj_ev_key_t;

typedef struct {
    mj_ev_key_t k;
    double v;
} mj_ev_memo_t;

typedef struct { /* a ready hand's waits that score, and their fans by discard and self-drawn */
    mj_ev_key_t k;
    uint8_t n, tile[MJ_KINDS];
    int16_t discard[MJ_KINDS], self_drawn[MJ_KINDS];
} mj_ev_waits_t;

static mj_ev_memo_t *ev_memo;  /* allocated once; the GIL serialises the core's callers */
static mj_ev_waits_t *ev_waits_memo;
static uint32_t ev_memo_gen;   /* a decision's entries are those of its generation */

static void ev_memo_new_decision(void) {
    if (!ev_memo) ev_memo = calloc(EV_MEMO_SIZE, sizeof *ev_memo); /* none: values are computed again */
    if (!ev_waits_memo) ev_waits_memo = calloc(EV_MEMO_SIZE, sizeof *ev_waits_memo);
    if (++ev_memo_gen == 0) { /* wrapped: forget everything */
        if (ev_memo) memset(ev_memo, 0, EV_MEMO_SIZE * sizeof *ev_memo);
        if (ev_waits_memo) memset(ev_waits_memo, 0, EV_MEMO_SIZE * sizeof *ev_waits_memo);
        ev_memo_gen = 1;
    }
}

static uint32_t ev_memo_hash(const unsigned char *c, int ctx, int draws) {
    uint32_t x = 2166136261u;
    for (int t = 0; t < MJ_KINDS; t++) x = (x ^ c[t]) * 16777619u;
    x = (x ^ (uint32_t)ctx) * 16777619u;
    return (x ^ (uint32_t)draws) * 16777619u;
}

/* The remembered entry's slot in `table` (entries of `size` bytes, each starting with its key), or
 * the free slot to fill, its key set (*found 0), or NULL (the table is full there: the value is
 * computed again, never remembered) */
#define EV_SLOT(table, c, ctx, draws, found) ev_slot((table), sizeof *(table), (c), (ctx), (draws), (found))
static void *ev_slot(void *table, size_t size, const unsigned char *c, int ctx, int draws, int *found) {
    *found = 0;
    if (!table) return NULL;
    uint32_t i = ev_memo_hash(c, ctx, draws);
    for (int k = 0; k < EV_MEMO_PROBES; k++) {
        mj_ev_key_t *e = (mj_ev_key_t *)((char *)table + ((i + (uint32_t)k) & (EV_MEMO_SIZE - 1)) * size);
        if (e->gen != ev_memo_gen) {
            e->gen = ev_memo_gen, e->ctx = (uint8_t)ctx, e->draws = (uint8_t)draws;
            memcpy(e->c, c, MJ_KINDS);
            return e;
        }
        if (e->ctx == ctx && e->draws == draws && !memcmp(e->c, c, MJ_KINDS)) {
            *found = 1;
            return e;
        }
    }
    return NULL;
}

/* ---- the context ---------------------------------------------------------------------------------- */
static void ev_set_melds(mj_evbot_t *b, const mj_fmelds_t *m, int ctx) {
    b->m = *m;
    b->ctx = ctx;
    memset(b->in_melds, 0, MJ_KINDS);
    for (int i = 0; i < m->n; i++) {
        int t = m->tile[i];
        if (m->kind[i] == MELD_CHOW)
            b->in_melds[t]++, b->in_melds[t + 1]++, b->in_melds[t + 2]++;
        else
            b->in_melds[t] += m->kind[i] == MELD_KONG ? 4 : 3;
    }
}

/* _readiness: a rough chance that an opponent is ready, from what anyone sees */
static double ev_readiness(int discards, int melds, int wall) {
    double r = 0.035 * discards + 0.12 * melds + (melds >= 3 ? 0.15 : 0.0);
    if (wall < 16) r += 0.1;
    r -= 0.1;
    return r > 0.9 ? 0.9 : r > 0.0 ? r : 0.0;
}

static int ev_in_pond(const mj_seat_t *o, int t) {
    for (int i = 0; i < o->npond; i++)
        if (o->pond[i] == t) return 1;
    return 0;
}

/* _tile_danger: the relative danger of t against one opponent */
static double ev_tile_danger(const mj_evbot_t *b, const mj_seat_t *o, int t) {
    static const double HONOURS[5] = {0.05, 0.5, 0.9, 0.7, 0.6};
    int left = b->unseen[t];
    double base;
    if (t >= 27) {
        base = HONOURS[left < 4 ? left : 4];
    } else {
        int r = t % 9;
        base = r == 0 || r == 8 ? 0.7 : r == 1 || r == 7 ? 0.85 : 1.0;
        if (left == 0) base *= 0.3;
        if ((r >= 3 && ev_in_pond(o, t - 3)) || (r <= 5 && ev_in_pond(o, t + 3))) base *= 0.6;
    }
    if (ev_in_pond(o, t)) base *= 0.3;
    return base;
}

/* EVBot._prepare (with _dangers) */
static void ev_prepare(mj_evbot_t *b, const mj_hand_t *h, int seat, int depth) {
    const mj_seat_t *st = &h->seats[seat];
    b->h = h, b->seat = seat, b->depth = depth, b->nodes = 0, b->over = 0, b->look = NULL;
    int pool = 0;
    for (int t = 0; t < MJ_KINDS; t++) pool += b->unseen[t] = mj_unseen_one(h, seat, t);
    b->pool = pool > 1 ? pool : 1;
    b->draws = (h->wall.live + 3) / 4;
    if (b->draws < 1) b->draws = 1;
    b->min_fan = h->r->fan.min_fan;
    memcpy(b->others_visible, h->visible, MJ_KINDS);
    for (int i = 0; i < st->nmelds; i++) {
        const mj_meld_t *m = &st->melds[i];
        if (m->concealed) continue;
        if (m->kind == MELD_CHOW)
            b->others_visible[m->tile]--, b->others_visible[m->tile + 1]--, b->others_visible[m->tile + 2]--;
        else
            b->others_visible[m->tile] -= m->kind == MELD_KONG ? 4 : 3;
    }
    for (int t = 0; t < MJ_KINDS; t++) b->danger[t] = 0.0;
    for (int o = 0; o < 4; o++) {
        if (o == seat) continue;
        const mj_seat_t *os = &h->seats[o];
        double threat = ev_readiness(os->npond, os->nmelds, h->wall.live);
        if (threat <= 0) continue;
        for (int t = 0; t < MJ_KINDS; t++) {
            double p = EV_WAIT_RATE * threat * ev_tile_danger(b, os, t);
            b->danger[t] = 1.0 - (1.0 - b->danger[t]) * (1.0 - p);
        }
    }
    ev_memo_new_decision();
}

/* _spent: past the node bound */
static int ev_spent(mj_evbot_t *b) {
    if (!b->over && b->nodes > EV_MAX_NODES) b->over = 1;
    return b->over;
}

/* _win_chance */
static double ev_win_chance(double h, int draws) {
    if (h <= 0) return 0.0;
    double go = (1.0 - EV_END_RATE) * (1.0 - h);
    return h * (1.0 - EV_END_RATE) * (1.0 - pow(go, (double)draws)) / (1.0 - go);
}

/* wait_fans (majiang.shanten.legal) of a ready hand with the context's melds: each wait the scorer
 * takes (no fifth copy) with its fans by discard and self-drawn, in tile order */
static void ev_wait_fans(const mj_evbot_t *b, unsigned char *c, mj_ev_waits_t *out) {
    const mj_hand_t *h = b->h;
    int n = b->m.n;
    unsigned long long waits = useful_mask(c, n, -1);
    hand_t w;
    fantab_t fans;
    out->n = 0;
    for (int t = 0; t < MJ_KINDS; t++) {
        if (!(waits >> t & 1) || c[t] + b->in_melds[t] >= 4) continue; /* no fifth copy */
        int fourth = c[t] == 0 && b->others_visible[t] + b->in_melds[t] == 3, pts[2], ok = 1;
        for (int self_drawn = 0; self_drawn < 2 && ok; self_drawn++) { /* WinningHand's defaults otherwise */
            memset(&w, 0, sizeof w);
            w.nmelds = n;
            for (int i = 0; i < n; i++) w.mkind[i] = b->m.kind[i], w.mtile[i] = b->m.tile[i], w.mconc[i] = b->m.conc[i];
            for (int u = 0; u < MJ_KINDS; u++)
                for (int k = 0; k < c[u] && w.nhand < 14; k++) w.hand[w.nhand++] = (uint8_t)u;
            w.win = t;
            w.self_drawn = self_drawn;
            w.fourth_tile = fourth;
            w.seat = (b->seat - h->dealer) & 3;
            w.prevalent = h->prevalent;
            w.r = h->r->fan;
            ok = h->r->compute(&w, &fans);
            if (ok) pts[self_drawn] = h->r->fan_points(&fans);
        }
        if (!ok) continue; /* a shape the shanten counts but the scorer does not: no win */
        out->tile[out->n] = (uint8_t)t, out->discard[out->n] = (int16_t)pts[0], out->self_drawn[out->n] = (int16_t)pts[1];
        out->n++;
    }
}

/* _ready: the per-turn hazard and the average fan of a ready hand, only waits worth min_fan counting;
 * *hz 0 when none */
static void ev_ready(const mj_evbot_t *b, unsigned char *c, const int *unseen, double *hz, double *fan) {
    int found;
    mj_ev_waits_t own, *wf = EV_SLOT(ev_waits_memo, c, b->ctx, 0, &found);
    if (!found) {
        mj_ev_waits_t *fill = wf ? wf : &own;
        ev_wait_fans(b, c, fill);
        wf = fill;
    }
    double live_sum = 0.0, fan_sum = 0.0;
    for (int i = 0; i < wf->n; i++) {
        int live = unseen[wf->tile[i]], d = wf->discard[i], sd = wf->self_drawn[i];
        if (!live) continue;
        double weight;
        if (d >= b->min_fan) {
            weight = live * (1.0 + EV_RON);
            fan_sum += weight * (d + sd) / 2;
        } else if (sd >= b->min_fan) {
            weight = (double)live;
            fan_sum += weight * sd;
        } else {
            continue;
        }
        live_sum += weight;
    }
    if (live_sum == 0.0) {
        *hz = 0.0, *fan = 0.0;
        return;
    }
    double x = live_sum / b->pool;
    *hz = x > 0.95 ? 0.95 : x;
    *fan = fan_sum / live_sum;
}

/* _one_away: 一向听, the exact expectation over the next draw of the legal ready hands it reaches */
static double ev_one_away(mj_evbot_t *b, unsigned char *c, int *unseen, int draws) {
    int n = b->m.n, found;
    mj_ev_memo_t *slot = EV_SLOT(ev_memo, c, b->ctx, draws, &found);
    if (found) return slot->v;
    double sp[MJ_KINDS], sh[MJ_KINDS], sv[MJ_KINDS]; /* stages: chance of the draw, hazard, win value */
    int ns = 0;
    unsigned long long useful = useful_mask(c, n, -1);
    for (int t = 0; t < MJ_KINDS; t++) {
        if (!(useful >> t & 1) || !unseen[t]) continue;
        c[t]++, unseen[t]--;
        discards_t d; /* the shanten after each discard at once: exact where it is the lowest */
        discard_shanten(c, n, &d);
        double bh = 0.0, bf = 0.0;
        for (int e = 0; e < MJ_KINDS; e++) {
            if (!c[e] || e == t) continue;
            b->nodes++;
            if (d.low == 0 && d.after[e] == 0) {
                double hz, fan;
                c[e]--;
                ev_ready(b, c, unseen, &hz, &fan);
                c[e]++;
                if (hz * (EV_WIN_BASE + EV_WIN_FAN * fan) > bh * (EV_WIN_BASE + EV_WIN_FAN * bf)) bh = hz, bf = fan;
            }
        }
        unseen[t]++, c[t]--;
        if (bh > 0) sp[ns] = (double)unseen[t] / b->pool, sh[ns] = bh, sv[ns] = EV_WIN_BASE + EV_WIN_FAN * bf, ns++;
    }
    double total = 0.0;
    if (ns) {
        double accept = 0.0, stay = 1.0;
        for (int i = 0; i < ns; i++) accept += sp[i];
        if (accept > 0.95) accept = 0.95;
        for (int j = 1; j < draws; j++) { /* ready at draw j, then draws − j draws to win */
            stay *= 1.0 - EV_END_RATE;
            double s = 0.0;
            for (int i = 0; i < ns; i++) s += sp[i] * ev_win_chance(sh[i], draws - j) * sv[i];
            total += stay * s;
            stay *= 1.0 - accept;
        }
    }
    if (slot) slot->v = total;
    return total;
}

/* _far: k (≥ 2) from ready (二向听, 三向听), over the next useful draw and the best discard after it of the
 * value k − 1 from ready, that hand reached after the expected wait for such a draw */
static double ev_far(mj_evbot_t *b, unsigned char *c, int *unseen, int draws, int k) {
    int n = b->m.n;
    if (draws < k + 1) return 0.0;
    unsigned long long useful = useful_mask(c, n, -1), keep[MJ_KINDS];
    double p[MJ_KINDS], accept = 0.0;
    int tiles[MJ_KINDS], nf = 0;
    for (int t = 0; t < MJ_KINDS; t++) {
        if (!(useful >> t & 1) || !unseen[t]) continue;
        accept += (double)unseen[t] / b->pool;
        c[t]++;
        discards_t d; /* a useful draw: no discard is below k − 1 from ready, so `low` k − 1 is exact */
        discard_shanten(c, n, &d);
        keep[nf] = 0;
        for (int e = 0; e < MJ_KINDS; e++)
            if (c[e] && e != t && d.low == k - 1 && d.after[e] == k - 1) keep[nf] |= 1ULL << e;
        p[nf] = (double)unseen[t] / b->pool, tiles[nf++] = t;
        c[t]--;
    }
    if (!nf) return 0.0;
    if (accept > 0.95) accept = 0.95;
    int delay = (int)nearbyint(1.0 / accept); /* Python's round: halves to even */
    if (delay < 1) delay = 1;
    if (delay > draws - k) delay = draws - k;
    double total = 0.0;
    for (int i = 0; i < nf; i++) {
        int t = tiles[i];
        c[t]++, unseen[t]--;
        double best = 0.0;
        for (int e = 0; e < MJ_KINDS; e++) {
            if (!(keep[i] >> e & 1)) continue;
            if (ev_spent(b)) break;
            c[e]--;
            double v = k == 2 ? ev_one_away(b, c, unseen, draws - delay) : ev_far(b, c, unseen, draws - delay, k - 1);
            if (v > best) best = v;
            c[e]++;
        }
        unseen[t]++, c[t]--;
        total += p[i] * best;
    }
    double reach = 0.0, stay = 1.0;
    for (int j = 1; j < draws - k + 1; j++) {
        stay *= 1.0 - EV_END_RATE;
        reach += stay;
        stay *= 1.0 - accept;
    }
    return total * reach;
}

/* _hand_value: the expected gain of a 13-tile hand with the context's melds (0: no legal ready hand
 * within reach, or the node bound passed) */
static double ev_hand_value(mj_evbot_t *b, unsigned char *c) {
    int s = overall(c, b->m.n);
    b->nodes++;
    if (s > b->depth || ev_spent(b)) return 0.0;
    if (s == 0) {
        double hz, fan;
        ev_ready(b, c, b->unseen, &hz, &fan);
        return ev_win_chance(hz, b->draws) * (EV_WIN_BASE + EV_WIN_FAN * fan);
    }
    if (s == 1) return ev_one_away(b, c, b->unseen, b->draws);
    return ev_far(b, c, b->unseen, b->draws, s);
}

/* _best_discard: the best discard of a hand with one tile more by value after the deal-in risk, among
 * those leaving a hand within the search's depth of ready; -1 when none has a value */
static int ev_best_discard(mj_evbot_t *b, unsigned char *c, double *value) {
    int after[MJ_KINDS], best = -1;
    for (int t = 0; t < MJ_KINDS; t++) {
        if (!c[t]) continue;
        c[t]--;
        after[t] = overall(c, b->m.n);
        c[t]++;
    }
    for (int level = 0; level <= b->depth; level++) /* sorted by the shanten after, stably */
        for (int t = 0; t < MJ_KINDS; t++) {
            if (!c[t] || after[t] != level) continue;
            c[t]--;
            double v = ev_hand_value(b, c);
            c[t]++;
            if (v <= 0) continue;
            double d = b->danger[t];
            v = v * (1.0 - d) - d * EV_DEAL_IN_COST;
            if (b->look) b->look[t] = (float)(v / EV_LOOK_SCALE);
            if (best < 0 || v > *value) *value = v, best = t;
        }
    return best;
}

/* EVBot.turn */
static int mj_ev_turn(const mj_hand_t *h, int seat, const mj_act_t *legal, int n, int depth) {
    int kong = mj_fan_kong(h, seat, legal, n);
    if (kong >= 0) return kong;
    const mj_seat_t *st = &h->seats[seat];
    unsigned char c[MJ_KINDS];
    memcpy(c, st->counts, MJ_KINDS);
    mj_fmelds_t m;
    mj_fmelds_of(st, &m);
    mj_evbot_t b;
    ev_prepare(&b, h, seat, depth);
    ev_set_melds(&b, &m, 0);
    if (ev_look_rows) b.look = ev_look_rows + MJ_KINDS;
    double value;
    int t = ev_best_discard(&b, c, &value);
    if (t >= 0) return mj_index_of(legal, n, MJ_ACT(A_DISCARD, t, 0));
    return mj_fan_discard(h, seat, legal, n); /* far from ready: the fan bot's patterns and defence */
}

/* EVBot.claim */
static int mj_ev_claim(const mj_hand_t *h, int seat, const mj_act_t *legal, int n, int depth) {
    const mj_seat_t *st = &h->seats[seat];
    unsigned char c[MJ_KINDS];
    memcpy(c, st->counts, MJ_KINDS);
    mj_fmelds_t m, after_m;
    mj_fmelds_of(st, &m);
    if (overall(c, m.n) > depth) return mj_fan_claim(h, seat, legal, n);
    mj_evbot_t b;
    ev_prepare(&b, h, seat, depth);
    ev_set_melds(&b, &m, 0);
    double pass_value = ev_hand_value(&b, c), best_value = 0.0;
    float *look = ev_look_rows ? ev_look_rows + 2 * MJ_KINDS : NULL;
    if (look) look[RL_PASS - EV_LOOK_CLAIM] = (float)(pass_value / EV_LOOK_SCALE);
    int best = -1;
    for (int i = 0; i < n; i++) {
        int type = MJ_ACT_TYPE(legal[i]);
        if (type != A_PUNG && type != A_CHOW && type != A_KONG) continue;
        mj_claimed(st, &m, legal[i], c, &after_m);
        ev_set_melds(&b, &after_m, i + 1);
        double value = 0.0;
        if (type == A_KONG)
            value = ev_hand_value(&b, c);
        else if (ev_best_discard(&b, c, &value) < 0)
            value = 0.0;
        if (look) look[mj_rl_code(legal[i]) - EV_LOOK_CLAIM] = (float)(value / EV_LOOK_SCALE);
        if (value > pass_value * EV_CLAIM_MARGIN && value > 0 && (best < 0 || value > best_value)) best_value = value, best = i;
    }
    if (best >= 0) return best;
    if (pass_value > 0)
        for (int i = 0; i < n; i++)
            if (MJ_ACT_TYPE(legal[i]) == A_PASS) return i;
    return mj_fan_claim(h, seat, legal, n);
}

/* EVBot.choose (TurnOrClaim) searching `depth` steps from ready: the index of its choice in `legal` */
static int mj_ev_choose(const mj_hand_t *h, int seat, const mj_act_t *legal, int n, int depth) {
    for (int i = 0; i < n; i++)
        if (MJ_ACT_TYPE(legal[i]) == A_WIN) return i;
    return h->phase == PH_TURN ? mj_ev_turn(h, seat, legal, n, depth) : mj_ev_claim(h, seat, legal, n, depth);
}

/* The ev bot's choice for `seat` (its index in `legal`) and its look-ahead rows, EV_LOOK_ROWS x 34
 * float32 zeroed by the caller (majiang.bots.ev.EVBot.look): row 0 the danger of each tile as ev
 * weighs it; on a turn valued by ev, row 1 the value of each discard it valued (after the deal-in
 * risk); on a claim valued by ev, row 2's columns 0-6 the values of the claim codes 102-108 it
 * valued (pass: the hand kept).  Values in points / EV_LOOK_SCALE; 0 where ev valued nothing. */
static int mj_ev_look(const mj_hand_t *h, int seat, const mj_act_t *legal, int n, float *rows) {
    mj_evbot_t b;
    ev_prepare(&b, h, seat, EV_DEPTH);
    for (int t = 0; t < MJ_KINDS; t++) rows[t] = (float)b.danger[t];
    ev_look_rows = rows;
    int i = mj_ev_choose(h, seat, legal, n, EV_DEPTH);
    ev_look_rows = NULL;
    return i;
}

/* ---- the bots the core plays itself ------------------------------------------------------------- */
enum { BOT_PYTHON = 0, BOT_RAND = 1, BOT_EFF = 2, BOT_FAN = 3, BOT_EV = 4, BOT_EV3 = 5 }; /* BOT_EV3: ev@3 */

/* One seat's decision by a core bot: the index of its choice in `legal` (rand: RandomBot.choose,
 * random.Random.choice on the seat's generator) */
static int mj_bot_choose(const mj_hand_t *h, int seat, int kind, mt_t *rng, const mj_act_t *legal, int n) {
    switch (kind) {
    case BOT_RAND:
        return (int)mt_randbelow(rng, (uint32_t)n);
    case BOT_FAN:
        return mj_fan_choose(h, seat, legal, n);
    case BOT_EV:
        return mj_ev_choose(h, seat, legal, n, EV_DEPTH);
    case BOT_EV3:
        return mj_ev_choose(h, seat, legal, n, 3);
    default:
        return mj_eff_choose(h, seat, legal, n);
    }
}

#endif /* MAJIANG_EV_CORE_H */
