/* search_core.h — determinised look-ahead on the compiled hand: plain C99, no CPython.
 *
 * What the search bot (majiang/bots/search.py) asks of the core: a copy of the hand in which
 * everything one seat cannot see is dealt again at random (mj_determinise), and a copy played to its
 * end by one of the core's bots (efficiency or fan) at every seat (mj_playout).  The hand being played is never
 * changed: both work on copies, with a scratch log of their own (mj_scratch_t).
 */
#ifndef MAJIANG_SEARCH_CORE_H
#define MAJIANG_SEARCH_CORE_H

#include "ev_core.h"

/* Deal what `seat` cannot see again: the other seats' concealed tiles and the wall's untaken tiles
 * are shuffled together and put back in the same places in the same numbers (each other seat keeps
 * its number of concealed tiles, each wall position its place in the drawing order), so every public
 * fact — ponds, exposed melds, flowers shown, what is left to draw from each part — is unchanged.
 * Flowers go only to the wall (a seat's concealed tiles never hold one).  Other seats' concealed
 * kongs keep their tiles: their kind is hidden, but a kong of four is rare enough not to matter. */
static void mj_determinise(mj_hand_t *h, int seat, mt_t *rng) {
    uint8_t pool[MJ_MAX_TILES], conc[MJ_MAX_TILES], rest[MJ_MAX_TILES];
    int wpos[MJ_MAX_TILES], np = 0, nw = 0, need = 0;
    for (int o = 0; o < 4; o++) {
        if (o == seat) continue;
        const mj_seat_t *st = &h->seats[o];
        for (int t = 0; t < MJ_KINDS; t++)
            for (int k = 0; k < st->counts[t]; k++) pool[np++] = (uint8_t)t;
    }
    need = np;
    mj_wall_t *w = &h->wall;
    for (int i = 0; i < w->n; i++)
        if (!w->taken[i]) {
            wpos[nw++] = i;
            pool[np++] = w->tiles[i];
        }
    /* in tile order first, so that the worlds depend on which tiles are hidden, never on where */
    int kinds[64] = {0}, m = 0; /* tile values: 34 kinds and the 8 flowers */
    for (int i = 0; i < np; i++) kinds[pool[i]]++;
    for (int t = 0; t < (int)(sizeof kinds / sizeof kinds[0]); t++)
        for (int j = 0; j < kinds[t]; j++) pool[m++] = (uint8_t)t;
    for (int i = np - 1; i > 0; i--) { /* Fisher–Yates */
        int j = (int)mt_randbelow(rng, (uint32_t)(i + 1));
        uint8_t x = pool[i];
        pool[i] = pool[j];
        pool[j] = x;
    }
    int nc = 0, nr = 0;
    for (int i = 0; i < np; i++) {
        if (nc < need && pool[i] < MJ_KINDS)
            conc[nc++] = pool[i];
        else
            rest[nr++] = pool[i];
    }
    if (nc < need) return; /* not enough suited tiles hidden (cannot happen with a real hand): unchanged */
    int k = 0;
    for (int o = 0; o < 4; o++) {
        if (o == seat) continue;
        mj_seat_t *st = &h->seats[o];
        int n = 0;
        for (int t = 0; t < MJ_KINDS; t++) n += st->counts[t];
        memset(st->counts, 0, sizeof st->counts);
        for (int j = 0; j < n; j++) st->counts[conc[k++]]++;
        if (st->drawn >= 0) st->drawn = n ? conc[k - 1] : -1;
        st->passed_win = 0; /* a pass on a win is what the other seat knew of its old tiles */
    }
    for (int i = 0; i < nw; i++) w->tiles[wpos[i]] = rest[i];
}

/* The log buffers of the copies: reused from one play-out to the next. */
typedef struct {
    mj_ev_t *ev;
    int evcap;
    int (*pay)[4];
    int paycap;
} mj_scratch_t;

/* `dst` = `src` with the scratch log (events are only written, never read by the rules) */
static void mj_copy(mj_hand_t *dst, const mj_hand_t *src, mj_scratch_t *s) {
    memcpy(dst, src, sizeof *dst);
    dst->ev = s->ev;
    dst->evcap = s->evcap;
    dst->nev = 0;
    dst->pay = s->pay;
    dst->paycap = s->paycap;
    dst->npay = 0;
}

/* hand the (maybe reallocated) buffers back to the scratch */
static void mj_release(mj_hand_t *h, mj_scratch_t *s) {
    s->ev = h->ev;
    s->evcap = h->evcap;
    s->pay = h->pay;
    s->paycap = h->paycap;
}

static void mj_scratch_free(mj_scratch_t *s) {
    free(s->ev);
    free(s->pay);
    s->ev = NULL;
    s->pay = NULL;
    s->evcap = s->paycap = 0;
}

/* Play the hand to its end with one of the core's bots at every seat (`policy`: BOT_EFF or BOT_FAN);
 * 0, or -1 when it stalls (no seat can act: not reached by a consistent hand) or runs out of memory. */
static int mj_playout(mj_hand_t *h, int policy) {
    int guard = 0;
    while (h->phase != PH_OVER) {
        int p[4], np = mj_prompted(h, p), acted = 0;
        for (int i = 0; i < np; i++) {
            int s = p[i], n;
            const mj_act_t *legal = mj_legal(h, s, &n);
            if (!n) continue;
            mj_act_t a = legal[mj_bot_choose(h, s, policy, NULL, legal, n)];
            if (mj_act(h, s, a, MJ_ACT_TYPE(a), MJ_ACT_TILE(a)) != MJ_OK) return -1;
            acted = 1;
            if (h->phase == PH_OVER) break;
        }
        if (h->nomem || !acted || ++guard > 4000) return -1;
    }
    return 0;
}

#endif /* MAJIANG_SEARCH_CORE_H */
