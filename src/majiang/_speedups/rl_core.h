/* rl_core.h — the RL observation planes, action mask and action codes of a compiled hand: plain C99.
 *
 * The twin of majiang.rl.features.encode(SeatView(hand, seat)) (the layout is documented there and in
 * docs/rl.md) and of majiang.rl.actions (the 109 action codes), computed from the core's arrays:
 * the discard order with its claimers is the core's own log (mj_hand_t.order), so nothing is
 * reconstructed.  The glue (core.c) checks that these constants equal majiang.rl.features' (the
 * layout tuple RL_LAYOUT) before the environments use it; tests/rl/test_rl_core.py holds the planes
 * equal to encode() at every decision of many hands.
 */
#ifndef MAJIANG_RL_CORE_H
#define MAJIANG_RL_CORE_H

#include <string.h>

#include "hand_core.h"

/* majiang.rl.features */
#define RL_OWN 0
#define RL_DRAWN 4
#define RL_OFFER 5
#define RL_UNSEEN 6
#define RL_PREVALENT 10
#define RL_SEAT_WIND 11
#define RL_SCALARS 12
#define RL_JING 13
#define RL_GLOBAL_ROWS 16
#define RL_B_MELDS 0
#define RL_B_POND 4
#define RL_B_INFO 8
#define RL_B_ORDER 9
#define RL_MAX_DISCARDS 34
#define RL_B_CLAIMED (RL_B_ORDER + RL_MAX_DISCARDS)
#define RL_B_SEQ (RL_B_CLAIMED + 3)
#define RL_BLOCK_ROWS (RL_B_SEQ + 1)
#define RL_ROWS (RL_GLOBAL_ROWS + 4 * RL_BLOCK_ROWS)
#define RL_INFO_FLOWERS 0
#define RL_INFO_CONCEALED 8
#define RL_INFO_CONCEALED_KONGS 9
#define RL_INFO_MELDS 10
#define RL_INFO_SCORE 11
#define RL_INFO_WIND 12
#define RL_INFO_DEALER 16
#define RL_INFO_CURRENT 17
#define RL_INFO_DISCARDS 18
#define RL_ORDER_SCALE 128.0
#define RL_SCORE_SCALE 100.0
#define RL_EAST 27
#define RL_OBS (RL_ROWS * MJ_KINDS)

/* majiang.rl.actions: 0–33 discard, 34–67 concealed kong, 68–101 added kong, 102 pung, 103 kong,
 * 104–106 chow (the claimed tile lowest / middle / highest), 107 win, 108 pass */
#define RL_ACTIONS 109
#define RL_PASS 108

static int mj_rl_code(mj_act_t a) {
    int t = MJ_ACT_TILE(a);
    switch (MJ_ACT_TYPE(a)) {
    case A_DISCARD: return t;
    case A_CONCEALED_KONG: return 34 + t;
    case A_ADDED_KONG: return 68 + t;
    case A_PUNG: return 102;
    case A_KONG: return 103;
    case A_CHOW: return 104 + MJ_ACT_POS(a);
    case A_WIN: return 107;
    default: return RL_PASS;
    }
}

/* The legal action of `seat` with RL code `code`, or -1 (actions.decode_action) */
static int mj_rl_decode(const mj_hand_t *h, int seat, int code) {
    int n;
    const mj_act_t *legal = mj_legal(h, seat, &n);
    for (int i = 0; i < n; i++)
        if (mj_rl_code(legal[i]) == code) return legal[i];
    return -1;
}

/* actions.action_mask: the legal codes of `seat` (a seat with nothing to decide may only pass) */
static void mj_rl_mask(const mj_hand_t *h, int seat, int8_t *mask) {
    int n;
    const mj_act_t *legal = mj_legal(h, seat, &n);
    memset(mask, 0, RL_ACTIONS);
    if (!n) mask[RL_PASS] = 1;
    for (int i = 0; i < n; i++) mask[mj_rl_code(legal[i])] = 1;
}

/* the 摸切 rows (majiang.rl.features.moqie_rows): per seat from `seat`, column i = its discard i was 摸切 */
static void mj_rl_moqie(const mj_hand_t *h, int seat, float *rows) {
    memset(rows, 0, 4 * MJ_KINDS * sizeof *rows);
    for (int k = 0; k < 4; k++) {
        const mj_seat_t *st = &h->seats[(seat + k) & 3];
        for (int i = 0; i < st->npond && i < RL_MAX_DISCARDS; i++) rows[k * MJ_KINDS + i] = st->moqie[i];
    }
}

/* rows[l][t] = counts[t] >= l + 1 for the four levels */
static inline void rl_levels(float *rows, const int *counts) {
    for (int t = 0; t < MJ_KINDS; t++) {
        int n = counts[t];
        for (int l = 0; l < 4 && l < n; l++) rows[l * MJ_KINDS + t] = 1.0f;
    }
}

static inline double rl_min(double a, double b) { return a < b ? a : b; }

/* features.encode(SeatView(hand, seat)): the ROWS x 34 float32 planes into obs.  hand_no and
 * scores_before are the hand header's (the core does not keep them). */
static void mj_rl_encode(const mj_hand_t *h, int seat, int hand_no, const int scores_before[4], float *obs) {
    memset(obs, 0, RL_OBS * sizeof(float));
    const mj_seat_t *me = &h->seats[seat];
    int counts[MJ_KINDS], known[MJ_KINDS];
    for (int t = 0; t < MJ_KINDS; t++) counts[t] = me->counts[t], known[t] = me->counts[t] + h->visible[t];
    rl_levels(obs + RL_OWN * MJ_KINDS, counts);
    int over = h->phase == PH_OVER;
    if (h->current == seat && me->drawn >= 0) obs[RL_DRAWN * MJ_KINDS + me->drawn] = 1.0f;
    if ((h->phase == PH_CLAIM || h->phase == PH_ROB) && h->pend_seat >= 0) obs[RL_OFFER * MJ_KINDS + h->pend_tile] = 1.0f;
    for (int i = 0; i < me->nmelds; i++)
        if (me->melds[i].concealed) known[me->melds[i].tile] += 4;
    int unseen[MJ_KINDS];
    for (int t = 0; t < MJ_KINDS; t++) unseen[t] = 4 - known[t];
    rl_levels(obs + RL_UNSEEN * MJ_KINDS, unseen);
    obs[RL_PREVALENT * MJ_KINDS + RL_EAST + h->prevalent] = 1.0f;
    obs[RL_SEAT_WIND * MJ_KINDS + RL_EAST + ((seat - h->dealer) & 3)] = 1.0f;
    float *scalars = obs + RL_SCALARS * MJ_KINDS;
    scalars[0] = (float)(rl_min(h->wall.live, 144) / 144.0);
    scalars[1] = (float)(rl_min(hand_no, 15) / 15.0);
    scalars[2 + h->phase] = 1.0f; /* turn, claim, rob, over */
    scalars[6] = (float)(rl_min(h->norder, RL_ORDER_SCALE) / RL_ORDER_SCALE);
    for (int k = 0; k < 4; k++) {
        int s = (seat + k) & 3;
        const mj_seat_t *st = &h->seats[s];
        float *block = obs + (RL_GLOBAL_ROWS + k * RL_BLOCK_ROWS) * MJ_KINDS;
        int faced[MJ_KINDS] = {0}, pond[MJ_KINDS] = {0}, kongs = 0;
        for (int i = 0; i < st->nmelds; i++) { /* another seat's 暗杠: that it exists is public, its faces not */
            const mj_meld_t *m = &st->melds[i];
            kongs += m->concealed;
            if (m->concealed && k) continue;
            if (m->kind == MELD_CHOW) {
                faced[m->tile]++, faced[m->tile + 1]++, faced[m->tile + 2]++;
            } else {
                faced[m->tile] += m->kind == MELD_KONG ? 4 : 3;
            }
        }
        rl_levels(block + RL_B_MELDS * MJ_KINDS, faced);
        for (int i = 0; i < st->npond; i++)
            if (!st->claimed[i]) pond[st->pond[i]]++;
        rl_levels(block + RL_B_POND * MJ_KINDS, pond);
        float *info = block + RL_B_INFO * MJ_KINDS;
        for (int i = 0; i < st->nflowers; i++) info[RL_INFO_FLOWERS + st->flowers[i] - MJ_KINDS] = 1.0f;
        info[RL_INFO_CONCEALED] = (float)(rl_min(st->nconc, 14) / 14.0);
        info[RL_INFO_CONCEALED_KONGS] = (float)(rl_min(kongs, 4) / 4.0);
        info[RL_INFO_MELDS] = (float)(rl_min(st->nmelds, 4) / 4.0);
        double score = (scores_before[s] + h->deltas[s]) / RL_SCORE_SCALE;
        score = score < -1.0 ? -1.0 : score > 1.0 ? 1.0 : score;
        info[RL_INFO_SCORE] = (float)((score + 1) / 2);
        info[RL_INFO_WIND + ((s - h->dealer) & 3)] = 1.0f;
        info[RL_INFO_DEALER] = s == h->dealer ? 1.0f : 0.0f;
        info[RL_INFO_CURRENT] = s == h->current && !over ? 1.0f : 0.0f;
        info[RL_INFO_DISCARDS] = (float)(rl_min(st->npond, RL_MAX_DISCARDS) / RL_MAX_DISCARDS);
    }
    for (int g = 0; g < h->norder; g++) { /* each seat's discards in order, their claimers, their places */
        const mj_disc_t *d = &h->order[g];
        if (d->index >= RL_MAX_DISCARDS) continue;
        float *block = obs + (RL_GLOBAL_ROWS + ((d->seat - seat) & 3) * RL_BLOCK_ROWS) * MJ_KINDS;
        block[(RL_B_ORDER + d->index) * MJ_KINDS + d->tile] = 1.0f;
        block[RL_B_SEQ * MJ_KINDS + d->index] = (float)(rl_min(g + 1, RL_ORDER_SCALE) / RL_ORDER_SCALE);
        if (d->claimer >= 0) block[(RL_B_CLAIMED + ((d->claimer - d->seat) & 3) - 1) * MJ_KINDS + d->index] = 1.0f;
    }
}

#endif /* MAJIANG_RL_CORE_H */
