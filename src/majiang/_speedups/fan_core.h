/* fan_core.h — the MCR fan calculator proper: plain C99, no CPython.
 *
 * A function-by-function port of the readable reference (majiang/mcr/scorer.py with shapes.py,
 * combos.py, exclusions.py and highest.py); each function names its Python twin in a comment, and
 * tests/test_fan_fast.py checks that every private function of the reference has a twin here or is
 * declared Python-only.  Its tables (points, report order, the 不重复 table, the tie-break, tile sets,
 * knitted straights, the reference order) are filled by configure() in fan.c, the CPython glue,
 * which is the only file that includes this one (it is not an extension of its own: setup.py builds
 * each .c file of _speedups).  Entry point: compute(hand_t *, fantab_t *).
 */
#ifndef MAJIANG_FAN_CORE_H
#define MAJIANG_FAN_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fan_types.h"

/* ------------------------------------------------------------------------------------------ */
/* fan numbers (majiang.mcr.fans.Fan)                                                           */

#define FAN_NAME(name, value) {#name, value},
static const struct { const char *name; int value; } FAN_NAMES[] = { FAN_LIST(FAN_NAME) };
#undef FAN_NAME
#define N_FAN_NAMES ((int)(sizeof FAN_NAMES / sizeof FAN_NAMES[0]))

/* ------------------------------------------------------------------------------------------ */
/* tiles and packs (majiang.tiles, majiang.mcr.shapes)                                         */

#define EAST 27
#define NORTH 30
#define RED 31
#define GREEN 32
#define WHITE 33
#define NO_TILE 255

enum { CHOW = 1, PUNG = 2, KONG = 3, PAIR = 4, KNIT = 5 };

#define SW_NAME(id, name) #name,
static const char *const SWITCH_NAMES[NSW] = {SWITCH_LIST(SW_NAME)};
#undef SW_NAME
/* Rules fields that are not scoring switches: read for valid / below_minimum, or not read at all */
static const char *const NON_SWITCH_FIELDS[] = {"name", "min_fan", "false_win"};
#define N_NON_SWITCH ((int)(sizeof NON_SWITCH_FIELDS / sizeof NON_SWITCH_FIELDS[0]))

/* ------------------------------------------------------------------------------------------ */
/* configuration (set once by configure() in fan.c, from majiang.mcr.fast)                      */

static int POINTS[NFAN];
static uint8_t REPORT[NFAN];
static int n_report = 0;
/* 不重复 (majiang.mcr.exclusions): entry i — when excl_src[i] is counted (and switch excl_sw[i] is on,
 * or excl_sw[i] < 0), its excl_to[i] are not.  Entries come sorted by fan number, each excluding
 * only later fans, so clearing in order means a fan that is not counted excludes nothing. */
#define MAX_EXCL (2 * NFAN)
static uint8_t excl_src[MAX_EXCL];
static int8_t excl_sw[MAX_EXCL];
static int n_excl = 0;
static uint8_t excl_n[MAX_EXCL];
static uint8_t excl_to[MAX_EXCL][NFAN];
static uint8_t deducted[NFAN];
static int n_deducted = 0;
static uint8_t tie_break[NFAN]; /* majiang.mcr.highest.TIE_BREAK_FANS */
static int n_tie_break = 0;
static uint64_t GREEN_M, REVERSIBLE_M, T13_M;
static uint64_t KS_M[6];
static int n_ks = 0;
static uint8_t REF[NK];

#define TERM_M ((1ULL << 0) | (1ULL << 8) | (1ULL << 9) | (1ULL << 17) | (1ULL << 18) | (1ULL << 26))
#define HONOR_M (0x7FULL << 27)
#define SUITED_M ((1ULL << 27) - 1)
#define WIND_M (0xFULL << 27)
#define DRAGON_M (0x7ULL << 31)

static int popc64(uint64_t x) {
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* the suit table: can one suit's counts (0–5 each) be split into sets and at most one pair?    */

static const uint32_t POW6[10] = {1, 6, 36, 216, 1296, 7776, 46656, 279936, 1679616, 10077696};
static uint8_t *suit_ok = NULL; /* bit per key; the pair is there iff the tile count is 2 mod 3 */

static void mark_key(const uint8_t cnt[9]) {
    uint32_t key = 0;
    for (int r = 0; r < 9; r++) {
        if (cnt[r] > 5) return;
        key += cnt[r] * POW6[r];
    }
    suit_ok[key >> 3] |= (uint8_t)(1u << (key & 7));
}

static void build_suit_table(uint8_t cnt[9], int start, int left) {
    mark_key(cnt);
    for (int r = 0; r < 9; r++) {
        cnt[r] += 2;
        mark_key(cnt);
        cnt[r] -= 2;
    }
    if (!left) return;
    for (int s = start; s < 16; s++) { /* 0–8 pungs, 9–15 chows */
        int ok = 1;
        if (s < 9) {
            cnt[s] += 3;
            ok = cnt[s] <= 5;
        } else {
            int r = s - 9;
            cnt[r]++, cnt[r + 1]++, cnt[r + 2]++;
            ok = cnt[r] <= 5 && cnt[r + 1] <= 5 && cnt[r + 2] <= 5;
        }
        if (ok) build_suit_table(cnt, s, left - 1);
        if (s < 9) {
            cnt[s] -= 3;
        } else {
            int r = s - 9;
            cnt[r]--, cnt[r + 1]--, cnt[r + 2]--;
        }
    }
}

static inline int suit_key_ok(uint32_t key) { return (suit_ok[key >> 3] >> (key & 7)) & 1; }

/* Number of waits of the concealed counts c (the winning tile removed; n_tiles of them), as
 * regular_and_pairs_waits + the exhausted_tile_is_wait filter of scorer._waits; counting stops at
 * `limit`.  The filter drops a wait w when c[w] + fixed[w] >= 4, where the reference takes fixed[w]
 * as merged - standing at the time of the call: for the regular reading standing has the winning
 * tile removed (so it counts once more there: `extra` = the winning tile), for the knitted straight
 * it has not (`extra` = -1). */
static int count_waits(const hand_t *h, const uint8_t *c, int n_tiles, int limit, int extra) {
    uint32_t key[3];
    int sum[3], ok[3], pp[3];
    int bad = 0, hp = 0, nw = 0;
    uint64_t odd = 0;
    for (int s = 0; s < 3; s++) {
        uint32_t k = 0;
        int n = 0;
        for (int r = 0; r < 9; r++) {
            k += c[s * 9 + r] * POW6[r];
            n += c[s * 9 + r];
        }
        key[s] = k;
        sum[s] = n;
        ok[s] = (n % 3 != 1) && suit_key_ok(k);
        pp[s] = n % 3 == 2;
    }
    for (int t = 27; t < NK; t++) {
        int n = c[t];
        bad += (n == 1 || n == 4);
        hp += (n == 2 || n == 5);
    }
    for (int t = 0; t < NK; t++)
        if (c[t] & 1) odd |= 1ULL << t;
    for (int t = 0; t < NK; t++) {
        int regular;
        if (t < 27) {
            int s = t / 9, n = sum[s] + 1;
            int oks = (n % 3 != 1) && suit_key_ok(key[s] + POW6[t % 9]);
            int pairs = (n % 3 == 2) + hp;
            int all = oks && bad == 0;
            for (int o = 0; o < 3; o++)
                if (o != s) {
                    all = all && ok[o];
                    pairs += pp[o];
                }
            regular = all && pairs == 1;
        } else {
            int n = c[t], m = n + 1;
            int b = bad - (n == 1 || n == 4) + (m == 1 || m == 4);
            int p = hp - (n == 2 || n == 5) + (m == 2 || m == 5);
            regular = ok[0] && ok[1] && ok[2] && b == 0 && pp[0] + pp[1] + pp[2] + p == 1;
        }
        if (regular || (n_tiles == 13 && odd == (1ULL << t))) {
            if (!h->r.sw[SW_EXHAUSTED] && c[t] + h->fixedc[t] + (t == extra) >= 4) continue;
            if (++nw >= limit) return nw;
        }
    }
    return nw;
}

/* ------------------------------------------------------------------------------------------ */
/* fan-table helpers                                                                            */

static inline void poth_set(fantab_t *t, uint8_t mask) {
    t->poth = mask;
    t->c[F_POTH] = (uint8_t)popc64(mask);
}

static inline void clear_fan(fantab_t *t, int f) {
    if (f == F_POTH) poth_set(t, 0);
    else t->c[f] = 0;
}

static int points_of(const fantab_t *t) {
    int p = 0;
    for (int f = 1; f < NFAN; f++) p += POINTS[f] * t->c[f];
    return p;
}

static int is_empty(const fantab_t *t) {
    static const uint8_t none[NFAN];
    return memcmp(t->c, none, sizeof none) == 0; /* c[0] is never set */
}

/* scorer._win_flags */
static void win_flags(fantab_t *t, const hand_t *h) {
    if (h->last) t->c[F_LAST_TILE] = 1;
    if (h->self_drawn) {
        t->c[F_SELF_DRAWN] = 1;
        if (h->wall_last) t->c[F_LAST_TILE_DRAW] = 1;
        if (h->kong) t->c[F_OUT_WITH_REPLACEMENT_TILE] = 1;
    } else {
        if (h->wall_last) t->c[F_LAST_TILE_CLAIM] = 1;
        if (h->kong) t->c[F_ROBBING_THE_KONG] = 1;
    }
}

/* scorer._suits, _tile_traits, _rank_range: fans of the set of kinds present */
static void kind_traits(fantab_t *t, uint64_t u) {
    uint64_t m = u & 0x1FF, p = (u >> 9) & 0x1FF, s = (u >> 18) & 0x1FF;
    int has_honor = (u & HONOR_M) != 0;
    /* _suits */
    if (!has_honor) t->c[F_NO_HONORS] = 1;
    int voided = 3 - (m != 0) - (p != 0) - (s != 0);
    if (voided == 2) {
        if (has_honor) {
            t->c[F_HALF_FLUSH] = 1;
        } else {
            t->c[F_FULL_FLUSH] = 1;
        }
    } else if (voided) {
        t->c[F_ONE_VOIDED_SUIT] = (uint8_t)voided;
    }
    if (voided == 0 && (u & WIND_M) && (u & DRAGON_M)) t->c[F_ALL_TYPES] = 1;
    /* _tile_traits */
    int simples = (u & (TERM_M | HONOR_M)) == 0;
    if (simples) t->c[F_ALL_SIMPLES] = 1;
    if ((u & ~REVERSIBLE_M) == 0) t->c[F_REVERSIBLE_TILES] = 1;
    if ((u & ~GREEN_M) == 0) t->c[F_ALL_GREEN] = 1;
    if (!simples) {
        if ((u & SUITED_M) == 0) t->c[F_ALL_HONORS] = 1;
        else if ((u & ~TERM_M) == 0) t->c[F_ALL_TERMINALS] = 1;
        else if ((u & ~(TERM_M | HONOR_M)) == 0) t->c[F_ALL_TERMINALS_AND_HONORS] = 1;
    }
    /* _rank_range */
    if (has_honor) return;
    unsigned ranks = (unsigned)(m | p | s);
    if ((ranks & ~0xFu) == 0) t->c[(ranks & 0x8u) ? F_LOWER_FOUR : F_LOWER_TILES] = 1;
    else if ((ranks & 0x1Fu) == 0) t->c[(ranks & 0x20u) ? F_UPPER_FOUR : F_UPPER_TILES] = 1;
    else if ((ranks & ~0x38u) == 0) t->c[F_MIDDLE_TILES] = 1;
}

/* scorer._final_adjust */
static void final_adjust(fantab_t *t, const rules_t *r) {
    for (int i = 0; i < n_excl; i++)
        if (t->c[excl_src[i]] && (excl_sw[i] < 0 || r->sw[excl_sw[i]]))
            for (int j = 0; j < excl_n[i]; j++) clear_fan(t, excl_to[i][j]);
    if (t->c[F_BIG_THREE_WINDS] && !t->c[F_ALL_HONORS] && !t->c[F_ALL_TERMINALS_AND_HONORS])
        poth_set(t, (uint8_t)(t->poth & ~t->b3w));
}

/* scorer._winds */
static void winds(fantab_t *t, int idx, int tile, const hand_t *h) {
    int ded = 0;
    for (int i = 0; i < n_deducted; i++)
        if (t->c[deducted[i]]) ded = 1;
    long wind = tile - 27;
    if (wind == h->prevalent) {
        t->c[F_PREVALENT_WIND] = 1;
        if (!ded) poth_set(t, (uint8_t)(t->poth & ~(1u << idx)));
    }
    if (wind == h->seat) {
        t->c[F_SEAT_WIND] = 1;
        if (h->seat != h->prevalent && !ded) poth_set(t, (uint8_t)(t->poth & ~(1u << idx)));
    }
}

/* scorer._waiting_form */
static void waiting_form(fantab_t *t, const pack_t *P, int first, int n, int win) {
    int edge = 0, closed = 0, single = 0;
    for (int i = first; i < n; i++) {
        const pack_t *p = &P[i];
        if (p->kind == CHOW) {
            if (p->tile == win) closed = 1;
            else if (p->tile + 1 == win || p->tile - 1 == win) edge = 1;
        } else if (p->kind == PAIR && p->tile == win) {
            single = 1;
        }
    }
    if (edge) t->c[F_EDGE_WAIT] = 1;
    else if (closed) t->c[F_CLOSED_WAIT] = 1;
    else if (single) t->c[F_SINGLE_WAIT] = 1;
}

/* ------------------------------------------------------------------------------------------ */
/* combos.py: chows with chows, pungs with pungs                                                */

#define SUIT(t) ((t) / 9)
#define RANK(t) ((t) % 9 + 1)

static inline int mixed3(int a, int b, int c) {
    int sa = SUIT(a), sb = SUIT(b), sc = SUIT(c);
    return sa != sb && sa != sc && sb != sc;
}

static inline int shifted_any_order(int r0, int r1, int r2) {
    int lo = r0, mid = r1, hi = r2, x;
    if (lo > mid) x = lo, lo = mid, mid = x;
    if (mid > hi) x = mid, mid = hi, hi = x;
    if (lo > mid) x = lo, lo = mid, mid = x;
    return lo + 1 == mid && mid + 1 == hi;
}

static int four_chows_fan(int t0, int t1, int t2, int t3) {
    if (SUIT(t0) == SUIT(t1) && SUIT(t1) == SUIT(t2) && SUIT(t2) == SUIT(t3)) {
        int r0 = RANK(t0), r1 = RANK(t1), r2 = RANK(t2), r3 = RANK(t3);
        if (r0 + 2 == r1 && r1 + 2 == r2 && r2 + 2 == r3) return F_FOUR_PURE_SHIFTED_CHOWS;
        if (r0 + 1 == r1 && r1 + 1 == r2 && r2 + 1 == r3) return F_FOUR_PURE_SHIFTED_CHOWS;
        if (t0 == t1 && t1 == t2 && t2 == t3) return F_QUADRUPLE_CHOW;
    }
    return 0;
}

static int three_chows_fan(int t0, int t1, int t2) {
    int r0 = RANK(t0), r1 = RANK(t1), r2 = RANK(t2);
    if (mixed3(t0, t1, t2)) {
        if (shifted_any_order(r0, r1, r2)) return F_MIXED_SHIFTED_CHOWS;
        if (r0 == r1 && r1 == r2) return F_MIXED_TRIPLE_CHOW;
        /* sorted ranks == 2, 5, 8 */
        if (r0 != r1 && r0 != r2 && r1 != r2 && (r0 == 2 || r1 == 2 || r2 == 2) &&
            (r0 == 5 || r1 == 5 || r2 == 5) && (r0 == 8 || r1 == 8 || r2 == 8))
            return F_MIXED_STRAIGHT;
    } else if (SUIT(t0) == SUIT(t1) && SUIT(t1) == SUIT(t2)) {
        if (r0 == 2 && r1 == 5 && r2 == 8) return F_PURE_STRAIGHT;
        if ((r0 + 2 == r1 && r1 + 2 == r2) || (r0 + 1 == r1 && r1 + 1 == r2)) return F_PURE_SHIFTED_CHOWS;
        if (r0 == r1 && r1 == r2) return F_PURE_TRIPLE_CHOW;
    }
    return 0;
}

static int two_chows_fan(int t0, int t1) {
    if (SUIT(t0) != SUIT(t1)) return RANK(t0) == RANK(t1) ? F_MIXED_DOUBLE_CHOW : 0;
    int d = t0 > t1 ? t0 - t1 : t1 - t0;
    if (d == 3) return F_SHORT_STRAIGHT;
    int r0 = RANK(t0), r1 = RANK(t1);
    if ((r0 == 2 && r1 == 8) || (r0 == 8 && r1 == 2)) return F_TWO_TERMINAL_CHOWS;
    if (d == 0) return F_PURE_DOUBLE_CHOW;
    return 0;
}

/* 套算一次 preference and the 不得相同 trimming order (combos._EXTRA_PREFERENCE, _PAIR_FANS) */
static const int PAIR_FANS[4] = {F_PURE_DOUBLE_CHOW, F_MIXED_DOUBLE_CHOW, F_SHORT_STRAIGHT, F_TWO_TERMINAL_CHOWS};

/* combos._trim: `found` holds fan numbers (each one of PAIR_FANS) */
static void trim_add(fantab_t *t, const int *found, int n, int max_cnt) {
    int by[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            if (found[i] == PAIR_FANS[k]) by[k]++;
    int cnt = n;
    for (int limit = 1; limit >= 0; limit--) {
        for (int k = 3; k >= 0; k--) {
            while (by[k] > limit && cnt > max_cnt) {
                by[k]--;
                cnt--;
            }
            if (cnt <= max_cnt) break;
        }
        if (cnt <= max_cnt) break;
    }
    for (int k = 0; k < 4; k++) t->c[PAIR_FANS[k]] += (uint8_t)by[k];
}

static const int COMBO3[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
static const int PAIRS4[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
static const int PAIRS3[3][2] = {{0, 1}, {0, 2}, {1, 2}};

/* combos.chow_fans; tiles (middle tiles) in reference order */
static void chow_fans(fantab_t *t, const int *tl, int n) {
    if (n == 4) {
        int f = four_chows_fan(tl[0], tl[1], tl[2], tl[3]);
        if (f) {
            t->c[f]++;
            return;
        }
        for (int k = 0; k < 4; k++) {
            int a = COMBO3[k][0], b = COMBO3[k][1], c = COMBO3[k][2], extra = COMBO3[k][3];
            f = three_chows_fan(tl[a], tl[b], tl[c]);
            if (f) {
                t->c[f]++;
                int pa = two_chows_fan(tl[a], tl[extra]), pb = two_chows_fan(tl[b], tl[extra]),
                    pc = two_chows_fan(tl[c], tl[extra]);
                for (int q = 0; q < 4; q++) {
                    int pref = PAIR_FANS[q];
                    if (pa == pref || pb == pref || pc == pref) {
                        t->c[pref]++;
                        break;
                    }
                }
                return;
            }
        }
        int fans[6], found[6], nf = 0;
        for (int k = 0; k < 6; k++) fans[k] = two_chows_fan(tl[PAIRS4[k][0]], tl[PAIRS4[k][1]]);
        int max_cnt = 3;
        for (int x = 0; x < 4; x++) {
            int any = 0;
            for (int k = 0; k < 6; k++)
                if ((PAIRS4[k][0] == x || PAIRS4[k][1] == x) && fans[k]) any = 1;
            if (!any) max_cnt--;
        }
        if (max_cnt <= 0) return;
        for (int k = 0; k < 6; k++)
            if (fans[k]) found[nf++] = fans[k];
        trim_add(t, found, nf, max_cnt);
    } else if (n == 3) {
        int f = three_chows_fan(tl[0], tl[1], tl[2]);
        if (f) {
            t->c[f]++;
            return;
        }
        int found[3], nf = 0;
        for (int k = 0; k < 3; k++) {
            int g = two_chows_fan(tl[PAIRS3[k][0]], tl[PAIRS3[k][1]]);
            if (g) found[nf++] = g;
        }
        trim_add(t, found, nf, 2);
    } else if (n == 2) {
        int f = two_chows_fan(tl[0], tl[1]);
        if (f) t->c[f]++;
    }
}

static int four_pungs_fan(int t0, int t1, int t2, int t3) {
    if (t3 < 27 && SUIT(t0) == SUIT(t3) && t0 + 1 == t1 && t1 + 1 == t2 && t2 + 1 == t3)
        return F_FOUR_PURE_SHIFTED_PUNGS;
    if (t0 == 27 && t1 == 28 && t2 == 29 && t3 == 30) return F_BIG_FOUR_WINDS;
    return 0;
}

static int three_pungs_fan(int t0, int t1, int t2) {
    if (t0 < 27 && t1 < 27 && t2 < 27) {
        int r0 = RANK(t0), r1 = RANK(t1), r2 = RANK(t2);
        if (mixed3(t0, t1, t2)) {
            if (shifted_any_order(r0, r1, r2)) return F_MIXED_SHIFTED_PUNGS;
            if (r0 == r1 && r1 == r2) return F_TRIPLE_PUNG;
        } else if (SUIT(t0) == SUIT(t1) && SUIT(t1) == SUIT(t2) && t0 + 1 == t1 && t1 + 1 == t2) {
            return F_PURE_SHIFTED_PUNGS;
        }
        return 0;
    }
    /* the four (E,S,W) (E,S,N) (E,W,N) (S,W,N), as ordered triples */
    if (t0 >= EAST && t2 <= NORTH && t0 < t1 && t1 < t2) return F_BIG_THREE_WINDS;
    if (t0 == RED && t1 == GREEN && t2 == WHITE) return F_BIG_THREE_DRAGONS;
    return 0;
}

static int two_pungs_fan(int t0, int t1) {
    if (t0 < 27 && t1 < 27) return RANK(t0) == RANK(t1) ? F_DOUBLE_PUNG : 0;
    if (t0 >= RED && t1 >= RED) return F_TWO_DRAGON_PUNGS;
    return 0;
}

/* combos.pung_fans; tl = tiles, ix = their pack indices (for 三风刻's instance) */
static void add_pung_fan(fantab_t *t, int f, uint8_t packs_mask) {
    t->c[f]++;
    if (f == F_BIG_THREE_WINDS) t->b3w = packs_mask;
}

static void pung_fans(fantab_t *t, const int *tl, const int *ix, int n) {
    if (n == 4) {
        int f = four_pungs_fan(tl[0], tl[1], tl[2], tl[3]);
        if (f) {
            t->c[f]++;
            return;
        }
        for (int k = 0; k < 4; k++) {
            int a = COMBO3[k][0], b = COMBO3[k][1], c = COMBO3[k][2], free = COMBO3[k][3];
            f = three_pungs_fan(tl[a], tl[b], tl[c]);
            if (f) {
                add_pung_fan(t, f, (uint8_t)((1u << ix[a]) | (1u << ix[b]) | (1u << ix[c])));
                for (int p = 0; p < 4; p++) {
                    if (p == free) continue;
                    int g = two_pungs_fan(tl[p], tl[free]);
                    if (g) {
                        t->c[g]++;
                        break;
                    }
                }
                return;
            }
        }
        for (int k = 0; k < 6; k++) {
            int g = two_pungs_fan(tl[PAIRS4[k][0]], tl[PAIRS4[k][1]]);
            if (g) t->c[g]++;
        }
    } else if (n == 3) {
        int f = three_pungs_fan(tl[0], tl[1], tl[2]);
        if (f) {
            add_pung_fan(t, f, (uint8_t)((1u << ix[0]) | (1u << ix[1]) | (1u << ix[2])));
            return;
        }
        for (int k = 0; k < 3; k++) {
            int g = two_pungs_fan(tl[PAIRS3[k][0]], tl[PAIRS3[k][1]]);
            if (g) t->c[g]++;
        }
    } else if (n == 2) {
        int g = two_pungs_fan(tl[0], tl[1]);
        if (g) t->c[g]++;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* one regular reading (scorer._regular)                                                        */

static int ref_key(int t) { /* shapes.REF_KEY: m, s, p, honours */
    if (t < 9) return t;
    if (t < 18) return t + 9;
    if (t < 27) return t - 9;
    return t;
}

static void sort_by_ref(int *tl, int *ix, int n) {
    for (int i = 1; i < n; i++) {
        int t = tl[i], x = ix[i], k = ref_key(t), j = i - 1;
        while (j >= 0 && ref_key(tl[j]) > k) {
            tl[j + 1] = tl[j];
            ix[j + 1] = ix[j];
            j--;
        }
        tl[j + 1] = t;
        ix[j + 1] = x;
    }
}

static inline int is_terminal(int t) { return t < 27 && (t % 9 == 0 || t % 9 == 8); }

static void regular_fans(const hand_t *h, const pack_t *P, int unique_wait, fantab_t *t) {
    int chows[5], nch = 0, pungs[5], npu = 0, cp[5], ncp = 0, nmk = 0, nck = 0, pair = -1;
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 5; i++) {
        const pack_t *p = &P[i];
        if (p->kind == CHOW) {
            chows[nch++] = i;
        } else if (p->kind == PUNG) {
            pungs[npu++] = i;
            if (!p->exposed) cp[ncp++] = i;
        } else if (p->kind == KONG) {
            pungs[npu++] = i;
            if (p->exposed) nmk++;
            else nck++;
        } else {
            pair = i;
        }
    }
    int win = h->win;
    win_flags(t, h);

    if (!h->self_drawn) {
        int any = 0;
        for (int k = 0; k < nch; k++) {
            const pack_t *p = &P[chows[k]];
            if (!p->exposed && p->tile - 1 <= win && win <= p->tile + 1) any = 1;
        }
        if (!any) {
            int n = 0;
            for (int k = 0; k < ncp; k++)
                if (P[cp[k]].tile != win) cp[n++] = cp[k];
            ncp = n;
        }
    }

    if (npu) {
        /* _kongs */
        int kongs = nmk + nck, dark = ncp + nck;
        if (kongs == 1) {
            t->c[nmk ? F_MELDED_KONG : F_CONCEALED_KONG] = 1;
        } else if (kongs == 2) {
            if (nck == 0) {
                t->c[F_TWO_MELDED_KONGS] = 1;
            } else if (nck == 1) {
                if (h->r.sw[SW_CMK]) {
                    t->c[F_CONCEALED_KONG_AND_MELDED_KONG] = 1;
                } else {
                    t->c[F_MELDED_KONG] = 1;
                    t->c[F_CONCEALED_KONG] = 1;
                }
            } else {
                t->c[F_TWO_CONCEALED_KONGS] = 1;
            }
        } else if (kongs == 3) {
            t->c[F_THREE_KONGS] = 1;
        } else if (kongs == 4) {
            t->c[F_FOUR_KONGS] = 1;
        }
        if (dark >= 2)
            t->c[dark == 2 ? F_TWO_CONCEALED_PUNGS : dark == 3 ? F_THREE_CONCEALED_PUNGS : F_FOUR_CONCEALED_PUNGS] = 1;
        if (npu == 4) t->c[F_ALL_PUNGS] = 1;
        uint8_t poth = 0;
        for (int k = 0; k < npu; k++) {
            int tile = P[pungs[k]].tile;
            if (tile >= RED) t->c[F_DRAGON_PUNG]++;
            else if (tile >= 27 || is_terminal(tile)) poth |= (uint8_t)(1u << pungs[k]);
        }
        poth_set(t, poth);
    }

    int pair_tile = P[pair].tile;
    int tsc = 0, ptc = 0;
    if (nch == 4 && pair_tile < 27 && pair_tile % 9 == 4) {
        /* _three_suited_terminal_chows, then _pure_terminal_chows */
        int ok = 1, suits = 0;
        uint32_t found = 0;
        for (int k = 0; k < 4; k++) {
            int tile = P[chows[k]].tile, r = RANK(tile);
            if (SUIT(tile) == SUIT(pair_tile) || (r != 2 && r != 8)) ok = 0;
            found |= 1u << tile;
            suits |= 1 << SUIT(tile);
        }
        tsc = ok && popc64(found) == 4 && popc64((uint64_t)suits) == 2;
        if (!tsc) {
            int n2 = 0, n8 = 0, same = 1;
            for (int k = 0; k < 4; k++) {
                int tile = P[chows[k]].tile;
                if (SUIT(tile) != SUIT(pair_tile)) same = 0;
                n2 += RANK(tile) == 2;
                n8 += RANK(tile) == 8;
            }
            ptc = same && n2 == 2 && n8 == 2;
        }
    }
    if (tsc) {
        t->c[F_THREE_SUITED_TERMINAL_CHOWS] = 1;
    } else if (ptc) {
        t->c[F_PURE_TERMINAL_CHOWS] = 1;
    } else {
        if (nch >= 2) {
            int tl[4], ix[4];
            for (int k = 0; k < nch; k++) tl[k] = P[chows[k]].tile, ix[k] = chows[k];
            sort_by_ref(tl, ix, nch);
            chow_fans(t, tl, nch);
        }
        if (npu >= 2) {
            int tl[4], ix[4];
            for (int k = 0; k < npu; k++) tl[k] = P[pungs[k]].tile, ix[k] = pungs[k];
            if (npu >= 3) sort_by_ref(tl, ix, npu);
            pung_fans(t, tl, ix, npu);
        }
    }

    /* 不求人 / 门前清 / 全求人 / 自摸 */
    if (h->melded == 0) t->c[h->self_drawn ? F_FULLY_CONCEALED_HAND : F_CONCEALED_HAND] = 1;
    else if (h->melded == 4 && !h->self_drawn) t->c[F_MELDED_HAND] = 1;

    /* the pair: 平和, 小三元, 小四喜 */
    if (nch == 4) {
        if (pair_tile < 27) t->c[F_ALL_CHOWS] = 1;
    } else if (t->c[F_TWO_DRAGON_PUNGS]) {
        if (pair_tile >= RED) t->c[F_LITTLE_THREE_DRAGONS] = 1;
    } else if (t->c[F_BIG_THREE_WINDS] && pair_tile >= EAST && pair_tile <= NORTH) {
        t->c[F_LITTLE_FOUR_WINDS] = 1;
    }

    /* _pack_traits */
    int terminal = 0, honor = 0, five = 0, even = 0;
    for (int i = 0; i < 5; i++) {
        int tile = P[i].tile;
        if (tile >= 27) {
            honor++;
            continue;
        }
        int r = RANK(tile);
        if (P[i].kind == CHOW) {
            if (r == 2 || r == 8) terminal++;
            else if (r >= 4 && r <= 6) five++;
        } else {
            if (r == 1 || r == 9) terminal++;
            else if (r == 5) five++;
            else if (r % 2 == 0) even++;
        }
    }
    if (terminal + honor == 5) t->c[F_OUTSIDE_HAND] = 1;
    else if (five == 5) t->c[F_ALL_FIVE] = 1;
    else if (even == 5) t->c[F_ALL_EVEN_PUNGS] = 1;

    kind_traits(t, h->unique);
    {
        /* _tile_hog: four of a kind, not a declared kong (kongs only come from melds) */
        int hogs = 0;
        for (int x = 0; x < NK; x++)
            if (h->merged[x] == 4) hogs++;
        for (int k = 0; k < h->nfixed; k++)
            if (h->fixed[k].kind == KONG) hogs--;
        if (hogs) t->c[F_TILE_HOG] = (uint8_t)hogs;
    }
    if (unique_wait) waiting_form(t, P, h->nfixed, 5, win);
    for (int k = 0; k < npu; k++) {
        int tile = P[pungs[k]].tile;
        if (tile >= EAST && tile <= NORTH) winds(t, pungs[k], tile, h);
    }
    final_adjust(t, &h->r);
    if (is_empty(t)) t->c[F_CHICKEN_HAND] = 1;
}

/* ------------------------------------------------------------------------------------------ */
/* decompositions (shapes.regular_divisions, in its order)                                      */

typedef struct {
    const hand_t *h;
    uint8_t c[NK];
    pack_t packs[5];
    int nfix, need;
    int collect; /* 1: only count divisions and keep the first (for the knitted straight) */
    int count;
    pack_t first[5];
    /* regular mode */
    int waits_known, unique_wait;
    int max_fan, seven_pairs, have_best;
    fantab_t *best;
} divctx_t;

static void emit(divctx_t *x) {
    if (x->collect) {
        if (x->count++ == 0) memcpy(x->first, x->packs, sizeof x->packs);
        return;
    }
    const hand_t *h = x->h;
    if (!x->waits_known) {
        uint8_t c[NK];
        memcpy(c, h->st, NK);
        c[h->win]--;
        x->unique_wait = count_waits(h, c, 13 - 3 * h->nfixed, 2, h->win) == 1;
        x->waits_known = 1;
    }
    fantab_t t;
    regular_fans(h, x->packs, x->unique_wait, &t);
    int f = points_of(&t), replaces = f > x->max_fan;
    if (f == x->max_fan) { /* highest.replaces: the rule between equal readings, and why, is there */
        replaces = x->seven_pairs;
        for (int i = 0; i < n_tie_break; i++)
            if (t.c[tie_break[i]]) replaces = 1;
    }
    if (replaces) {
        x->max_fan = f;
        *x->best = t;
        x->have_best = 1;
    }
}

/* `below`: tiles left at reference positions before prev_pos, which no later set can take; more
 * than two of them can no longer end as the pair, so the branch yields nothing (pruned). */
static void div_rec(divctx_t *x, int step, int prev_pos, int below) {
    uint8_t *c = x->c;
    if (step == x->need) {
        for (int pos = 0; pos < NK; pos++) {
            int t = REF[pos];
            if (c[t] == 2) {
                x->packs[x->nfix + step] = (pack_t){PAIR, (uint8_t)t, 0};
                emit(x);
                return;
            }
        }
        return;
    }
    for (int pos = prev_pos; pos < NK; pos++) {
        if (pos > prev_pos) {
            below += c[REF[pos - 1]];
            if (below > 2) return;
        }
        int t = REF[pos], n = c[t];
        if (!n) continue;
        if (n >= 3 && (step == 0 || pos > prev_pos)) {
            c[t] -= 3;
            x->packs[x->nfix + step] = (pack_t){PUNG, (uint8_t)t, 0};
            div_rec(x, step + 1, pos, below);
            c[t] += 3;
        }
        if (t < 27 && t % 9 <= 6 && c[t + 1] && c[t + 2]) {
            c[t]--, c[t + 1]--, c[t + 2]--;
            x->packs[x->nfix + step] = (pack_t){CHOW, (uint8_t)(t + 1), 0};
            div_rec(x, step + 1, pos, below);
            c[t]++, c[t + 1]++, c[t + 2]++;
        }
    }
}

static void divisions(divctx_t *x, const uint8_t *counts, const pack_t *fixed, int nfix) {
    x->nfix = nfix;
    x->need = 4 - nfix;
    memcpy(x->c, counts, NK);
    for (int i = 0; i < nfix; i++) x->packs[i] = fixed[i];
    if (x->need < 0) return;
    int pair = 0;
    for (int t = 0; t < NK; t++)
        if (counts[t] >= 2) pair = 1;
    if (!pair) return;
    div_rec(x, 0, 0, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* special shapes (scorer._special, _knitted_straight, _nine_gates)                             */

static int special(const hand_t *h, fantab_t *t) {
    const uint8_t *st = h->st;
    memset(t, 0, sizeof *t);
    int all_even = 1;
    for (int x = 0; x < NK; x++)
        if (st[x] & 1) all_even = 0;
    if (all_even) {
        int s = h->win < 27 ? h->win / 9 : -1;
        if (s >= 0) {
            int lo = -1, hi = -1, n = 0, twos = 1;
            for (int r = 0; r < 9; r++)
                if (st[s * 9 + r]) {
                    if (lo < 0) lo = r;
                    hi = r;
                    n++;
                    if (st[s * 9 + r] != 2) twos = 0;
                }
            if (n == 7 && hi - lo == 6 && twos) {
                t->c[F_SEVEN_SHIFTED_PAIRS] = 1;
                if (st[s * 9] == 0 && st[s * 9 + 8] == 0) t->c[F_ALL_SIMPLES] = 1;
                win_flags(t, h);
                final_adjust(t, &h->r);
                return 1;
            }
        }
        t->c[F_SEVEN_PAIRS] = 1;
        kind_traits(t, h->unique);
        int hogs = 0;
        for (int x = 0; x < NK; x++)
            if (st[x] == 4) hogs++;
        if (hogs) t->c[F_TILE_HOG] = (uint8_t)hogs;
        win_flags(t, h);
        final_adjust(t, &h->r);
        return 1;
    }
    int nu = popc64(h->unique);
    if (nu == 14) {
        uint64_t numbered = h->unique & SUITED_M;
        int nn = popc64(numbered);
        if (nn >= 7 && nn <= 9) {
            for (int k = 0; k < n_ks; k++)
                if ((numbered & ~KS_M[k]) == 0) {
                    if (nn == 7) {
                        t->c[F_GREATER_HONORS_AND_KNITTED_TILES] = 1;
                    } else {
                        t->c[F_LESSER_HONORS_AND_KNITTED_TILES] = 1;
                        if (nn == 9) t->c[F_KNITTED_STRAIGHT] = 1;
                    }
                    win_flags(t, h);
                    final_adjust(t, &h->r);
                    return 1;
                }
        }
    }
    if (nu == 13 && h->unique == T13_M) {
        t->c[F_THIRTEEN_ORPHANS] = 1;
        win_flags(t, h);
        final_adjust(t, &h->r);
        return 1;
    }
    return 0;
}

static int knitted_straight(const hand_t *h, fantab_t *t) {
    const uint8_t *st = h->st;
    int two = 0;
    for (int x = 0; x < NK; x++)
        if (st[x] >= 2) two = 1;
    if (!two) return 0;
    uint64_t present = 0;
    for (int x = 0; x < 27; x++)
        if (st[x]) present |= 1ULL << x;
    int ks = -1;
    for (int k = 0; k < n_ks && ks < 0; k++)
        if ((present & KS_M[k]) == KS_M[k]) ks = k;
    if (ks < 0) return 0;
    uint64_t seq = KS_M[ks];
    uint8_t rest[NK];
    for (int x = 0; x < NK; x++) rest[x] = (uint8_t)(st[x] - ((seq >> x) & 1));
    divctx_t dx;
    memset(&dx, 0, sizeof dx);
    dx.h = h;
    dx.collect = 1;
    pack_t fixed[4];
    int nfix = 0;
    for (int i = 0; i < 3; i++) fixed[nfix++] = (pack_t){CHOW, 0, 0};
    for (int i = 0; i < h->nfixed; i++) fixed[nfix++] = h->fixed[i];
    divisions(&dx, rest, fixed, nfix);
    if (dx.count != 1) return 0;
    pack_t packs[5];
    for (int i = 0; i < 3; i++) packs[i] = (pack_t){KNIT, (uint8_t)ks, 0};
    packs[3] = dx.first[3];
    packs[4] = dx.first[4];
    const pack_t *inv = &packs[3];
    int pair_tile = packs[4].tile;
    memset(t, 0, sizeof *t);
    t->c[F_KNITTED_STRAIGHT] = 1;
    if (inv->kind == CHOW) {
        if (pair_tile < 27) t->c[F_ALL_CHOWS] = 1;
        if (st[pair_tile] + h->fixedc[pair_tile] == 4) t->c[F_TILE_HOG] = 1;
    } else {
        int it = inv->tile;
        if (it >= 27) {
            if (it <= NORTH) {
                poth_set(t, 1u << 3);
                winds(t, 3, it, h);
                if (pair_tile >= RED) t->c[F_ALL_TYPES] = 1;
            } else {
                t->c[F_DRAGON_PUNG] = 1;
                if (pair_tile >= EAST && pair_tile <= NORTH) t->c[F_ALL_TYPES] = 1;
            }
        } else {
            if (is_terminal(it)) poth_set(t, 1u << 3);
            if (pair_tile < 27) t->c[F_NO_HONORS] = 1;
            if (inv->kind != KONG && st[it] + h->fixedc[it] == 4) t->c[F_TILE_HOG] = 1;
        }
    }
    win_flags(t, h);
    if (inv->exposed) {
        if (inv->kind == KONG) t->c[F_MELDED_KONG] = 1;
    } else {
        if (inv->kind == KONG) t->c[F_CONCEALED_KONG] = 1;
        if (h->self_drawn) {
            t->c[F_FULLY_CONCEALED_HAND] = 1;
        } else {
            t->c[F_CONCEALED_HAND] = 1;
        }
    }
    int win = h->win, in_seq = (int)((seq >> win) & 1);
    if (h->nfixed == 0) {
        if ((h->r.sw[SW_KS_WAIT] || !in_seq) && rest[win] >= 1) {
            rest[win]--;
            int nw = count_waits(h, rest, 4, 2, -1);
            rest[win]++;
            if (nw == 1) waiting_form(t, packs, 3, 5, win);
        }
    } else if (!in_seq || (h->r.sw[SW_KS_WAIT] && st[win] == 3)) {
        t->c[F_SINGLE_WAIT] = 1;
    }
    final_adjust(t, &h->r);
    return 1;
}

static int nine_gates(const hand_t *h, fantab_t *t) {
    int w = h->win;
    if (w >= 27) return 0;
    int s0 = (w / 9) * 9, r = w % 9;
    static const uint8_t base0[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
    for (int i = 0; i < 9; i++)
        if (h->st[s0 + i] != base0[i] + (i == r)) return 0;
    memset(t, 0, sizeof *t);
    t->c[F_NINE_GATES] = 1;
    int rank = r + 1;
    if (rank == 1 || rank == 9) {
        t->c[F_PURE_STRAIGHT] = 1;
        t->c[F_TILE_HOG] = 1;
    } else if (rank == 2 || rank == 8) {
        t->c[F_TWO_CONCEALED_PUNGS] = 1;
        t->c[F_SHORT_STRAIGHT] = 1;
        poth_set(t, 0x80); /* counted from the whole hand, not a pack */
    } else if (rank == 5) {
        t->c[F_TWO_CONCEALED_PUNGS] = 1;
        poth_set(t, 0x80);
    } else {
        t->c[F_SHORT_STRAIGHT] = 1;
    }
    win_flags(t, h);
    final_adjust(t, &h->r);
    return 1;
}

/* scorer._best_reading: 1 and the fans in *best, or 0 (not a win) */
static int best_reading(const hand_t *h, fantab_t *best) {
    fantab_t sp;
    int have = 0, max_fan = 0;
    if (h->nfixed == 0) have = special(h, &sp);
    if (!have && h->nfixed <= 1) have = knitted_straight(h, &sp);
    if (!have && h->nfixed == 0) have = nine_gates(h, &sp);
    if (have) {
        *best = sp;
        max_fan = points_of(&sp);
    }
    int seven = have && sp.c[F_SEVEN_PAIRS];
    if (max_fan == 0 || seven) {
        divctx_t dx;
        dx.h = h;
        dx.collect = 0;
        dx.count = 0;
        dx.waits_known = 0;
        dx.unique_wait = 0;
        dx.max_fan = max_fan;
        dx.seven_pairs = seven;
        dx.have_best = 0;
        dx.best = best;
        divisions(&dx, h->st, h->fixed, h->nfixed);
        max_fan = dx.max_fan;
    }
    return max_fan != 0;
}

/* score(): check_structure, _check_flags, then the best reading.  0 = let the reference answer. */
static int compute(hand_t *h, fantab_t *t) {
    if (h->nmelds > 4 || h->nhand != 13 - 3 * h->nmelds) return 0;
    if (h->win < 0 || h->win >= NK) return 0;
    memset(h->st, 0, NK);
    memset(h->merged, 0, NK);
    memset(h->fixedc, 0, NK);
    for (int i = 0; i < h->nhand; i++) {
        if (h->hand[i] >= NK) return 0;
        h->st[h->hand[i]]++;
    }
    h->st[h->win]++;
    h->nfixed = h->nmelds;
    h->melded = 0;
    int has_kong = 0;
    for (int i = 0; i < h->nmelds; i++) {
        int k = h->mkind[i], tile = h->mtile[i];
        if (k == M_CHOW) {
            h->fixed[i] = (pack_t){CHOW, (uint8_t)(tile + 1), 1};
            h->fixedc[tile]++, h->fixedc[tile + 1]++, h->fixedc[tile + 2]++;
        } else if (k == M_PUNG) {
            h->fixed[i] = (pack_t){PUNG, (uint8_t)tile, 1};
            h->fixedc[tile] += 3;
        } else {
            h->fixed[i] = (pack_t){KONG, (uint8_t)tile, (uint8_t)!h->mconc[i]};
            h->fixedc[tile] += 4;
            has_kong = 1;
        }
        if (h->fixed[i].exposed) h->melded++;
    }
    h->unique = 0;
    for (int x = 0; x < NK; x++) {
        int n = h->st[x] + h->fixedc[x];
        if (n > 4) return 0;
        h->merged[x] = (uint8_t)n;
        if (n) h->unique |= 1ULL << x;
    }
    if (h->flowers < 0 || h->flowers > 8) return 0;
    if (h->seat < 0 || h->seat > 3 || h->prevalent < 0 || h->prevalent > 3) return 0;
    /* _check_flags */
    int w = h->win;
    if (h->kong && !h->self_drawn && (h->wall_last || h->st[w] != 1 || h->fixedc[w] != 0)) return 0;
    if (h->kong && h->self_drawn && !has_kong) return 0;
    h->last = h->fourth_tile;
    if (h->last && h->st[w] != 1 && h->r.sw[SW_NEEDS_VISIBLE]) return 0;
    if (h->fixedc[w] == 3) h->last = 1;
    if (!best_reading(h, t)) return 0;
    if (h->flowers) t->c[F_FLOWER_TILES] = (uint8_t)h->flowers;
    return 1;
}

#endif /* MAJIANG_FAN_CORE_H */
