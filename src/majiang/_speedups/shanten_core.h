/* shanten_core.h — 向听数 and tile efficiency on count vectors: plain C99, no CPython.
 *
 * The computation behind majiang._speedups.shanten (its CPython glue is shanten.c) and the compiled
 * hand core's efficiency bot (core.c); the readable definitions are in src/majiang/shanten/forms.py
 * and the pure-Python table-driven path in _tables.py, and the tests hold all of them equal.
 *
 * Regular form: a group (a suit or the honours) is summed up in a *profile*: best[pair][k], the most
 * 2*sets + partners + pair the group is worth using at most k blocks (k = 0..4), without (pair 0) or
 * with (pair 1) the hand's pair cut from it.  Profiles are memoised per group count vector (base-5
 * key) in tables filled on first use; the groups of a hand are combined by a small max-plus
 * convolution.  Shanten after f finished sets = 8 - 2f - best value using at most 4 - f blocks.
 *
 * Entry points (c = 34 copies-per-tile of the concealed hand, 0..4; melds = declared sets):
 *   shanten_tables()                 allocate the memo tables once (0, or -1 out of memory)
 *   overall(c, melds)                lowest shanten over the forms
 *   form_value(c, melds, form)       one form's shanten (NA where it does not apply)
 *   useful_mask(c, melds, form)      bit mask of useful tiles (form -1 = overall), 13-tile hands
 *   best_discard_rows(c, melds, unseen, rows)  the bots' discard choice: the discards keeping the
 *                                    lowest shanten, with their unseen useful copies
 * Trying each tile in turn (useful tiles, discards) changes one group only: the other three groups'
 * profile and the special forms' counts are tallied once (tally_t) and updated per tile.
 */
#ifndef MAJIANG_SHANTEN_CORE_H
#define MAJIANG_SHANTEN_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NK 34
#define NEG (-99)      /* "impossible"; sums with it stay far below any real value */
#define NA 1000        /* the form does not apply */
#define SUIT_KEYS 1953125 /* 5^9 */
#define HONOR_KEYS 78125  /* 5^7 */

typedef struct { signed char v[10]; } prof_t; /* v[k] without the pair, v[5 + k] with it */

static prof_t *suit_tab, *honor_tab; /* calloc'd: pages become resident only when touched */

static const prof_t EMPTY = {{0, 0, 0, 0, 0, NEG, NEG, NEG, NEG, NEG}};

/* the six 组合龙: residue (rank-1 mod 3) of the 147/258/369 run given to m, p, s */
static const int PATTERNS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static inline void add_block(prof_t *best, const prof_t *rest, int value) {
    for (int k = 1; k <= 4; k++) {
        int a = rest->v[k - 1] + value, b = rest->v[4 + k] + value;
        if (a > best->v[k]) best->v[k] = (signed char)a;
        if (b > best->v[5 + k]) best->v[5 + k] = (signed char)b;
    }
}

static inline void add_pair(prof_t *best, const prof_t *rest) {
    for (int k = 0; k <= 4; k++) {
        int a = rest->v[k] + 1;
        if (a > best->v[5 + k]) best->v[5 + k] = (signed char)a;
    }
}

static inline void group_profile(unsigned char *c, int n, int suited, prof_t *out);

/* The lowest tile present stays isolated or starts a block; nothing else can hold it. */
static inline void compute_profile(unsigned char *c, int n, int suited, prof_t *out) {
    int i = 0;
    while (i < n && !c[i]) i++;
    if (i == n) {
        *out = EMPTY;
        return;
    }
    prof_t best, rest;
    c[i] -= 1;
    group_profile(c, n, suited, &best);
    c[i] += 1;
    if (c[i] >= 3) {
        c[i] -= 3;
        group_profile(c, n, suited, &rest);
        c[i] += 3;
        add_block(&best, &rest, 2);
    }
    if (c[i] >= 2) {
        c[i] -= 2;
        group_profile(c, n, suited, &rest);
        c[i] += 2;
        add_block(&best, &rest, 1);
        add_pair(&best, &rest);
    }
    if (suited) {
        int n1 = i + 1 < n ? c[i + 1] : 0, n2 = i + 2 < n ? c[i + 2] : 0;
        if (n1 && n2) {
            c[i]--; c[i + 1]--; c[i + 2]--;
            group_profile(c, n, suited, &rest);
            c[i]++; c[i + 1]++; c[i + 2]++;
            add_block(&best, &rest, 2);
        }
        if (n1) {
            c[i]--; c[i + 1]--;
            group_profile(c, n, suited, &rest);
            c[i]++; c[i + 1]++;
            add_block(&best, &rest, 1);
        }
        if (n2) {
            c[i]--; c[i + 2]--;
            group_profile(c, n, suited, &rest);
            c[i]++; c[i + 2]++;
            add_block(&best, &rest, 1);
        }
    }
    *out = best;
}

/* Memoised profile; a fifth copy (only tried when looking for waits) bypasses the tables.  v[0] (the
 * worth with no block) is always 0, so the tables keep 1 there to mark an entry as filled. */
static inline void profile_of_key(unsigned char *c, int n, int suited, int key, int big, prof_t *out);

static inline void group_profile(unsigned char *c, int n, int suited, prof_t *out) {
    int key = 0, big = 0;
    for (int i = 0; i < n; i++) {
        big |= c[i] > 4;
        key = key * 5 + c[i];
    }
    profile_of_key(c, n, suited, key, big, out);
}

/* group_profile of the group c (n tiles) whose base-5 key is known */
static inline void profile_of_key(unsigned char *c, int n, int suited, int key, int big, prof_t *out) {
    prof_t *tab = suited ? suit_tab : honor_tab;
    if (!big && tab[key].v[0]) {
        *out = tab[key];
        out->v[0] = 0;
        return;
    }
    compute_profile(c, n, suited, out);
    if (!big) {
        tab[key] = *out;
        tab[key].v[0] = 1;
    }
}

static inline void combine(const prof_t *a, const prof_t *b, prof_t *out) {
    for (int k = 0; k <= 4; k++) {
        int o0 = NEG, o1 = NEG;
        for (int i = 0; i <= k; i++) {
            int j = k - i;
            int x = a->v[i] + b->v[j];
            int y = a->v[i] + b->v[5 + j];
            int z = a->v[5 + i] + b->v[j];
            if (x > o0) o0 = x;
            if (y > o1) o1 = y;
            if (z > o1) o1 = z;
        }
        out->v[k] = (signed char)o0;
        out->v[5 + k] = (signed char)(o1 < NEG ? NEG : o1);
    }
}

static inline int shanten_after(const prof_t *p, int sets) {
    int k = 4 - sets, a = p->v[k], b = p->v[5 + k];
    return 8 - 2 * sets - (a > b ? a : b);
}

/* shanten_after(combine(a, b), sets), computing only the column it reads (the same number: a
 * profile's entries without the pair are never below 0, so combine's clamp of the pair entries at NEG
 * never decides the maximum) */
static inline int shanten_after_combined(const prof_t *a, const prof_t *b, int sets) {
    int k = 4 - sets, o0 = NEG, o1 = NEG;
    for (int i = 0; i <= k; i++) {
        int j = k - i;
        int x = a->v[i] + b->v[j];
        int y = a->v[i] + b->v[5 + j];
        int z = a->v[5 + i] + b->v[j];
        if (x > o0) o0 = x;
        if (y > o1) o1 = y;
        if (z > o1) o1 = z;
    }
    return 8 - 2 * sets - (o0 > o1 ? o0 : o1);
}

/* the whole hand's profile */
static inline void hand_profile(unsigned char *c, prof_t *out) {
    prof_t m, p, s, h, mp, sh;
    group_profile(c, 9, 1, &m);
    group_profile(c + 9, 9, 1, &p);
    group_profile(c + 18, 9, 1, &s);
    group_profile(c + 27, 7, 0, &h);
    combine(&m, &p, &mp);
    combine(&s, &h, &sh);
    combine(&mp, &sh, out);
}

static inline int seven_pairs(const unsigned char *c) {
    int pairs = 0;
    for (int t = 0; t < NK; t++) pairs += c[t] / 2;
    return 6 - pairs;
}

static inline int thirteen_orphans(const unsigned char *c) {
    int kinds = 0, pair = 0;
    for (int i = 0; i < 13; i++) {
        kinds += c[ORPHANS[i]] > 0;
        pair |= c[ORPHANS[i]] >= 2;
    }
    return 13 - kinds - pair;
}

static inline int knitted_held(const unsigned char *c, int pattern) {
    int held = 0;
    for (int suit = 0; suit < 3; suit++)
        for (int r = PATTERNS[pattern][suit]; r < 9; r += 3) held += c[9 * suit + r] > 0;
    return held;
}

static inline int honors_knitted(const unsigned char *c) {
    int honors = 0, most = 0;
    for (int t = 27; t < NK; t++) honors += c[t] > 0;
    for (int i = 0; i < 6; i++) {
        int held = knitted_held(c, i);
        if (held > most) most = held;
    }
    return 13 - honors - most;
}

/* one 组合龙: its missing tiles plus the regular shanten of the rest after three more sets */
static inline int knitted_one(const unsigned char *c, int melds, int pattern) {
    unsigned char rest[NK];
    memcpy(rest, c, NK);
    int missing = 0;
    for (int suit = 0; suit < 3; suit++)
        for (int r = PATTERNS[pattern][suit]; r < 9; r += 3) {
            int t = 9 * suit + r;
            if (rest[t]) rest[t]--;
            else missing++;
        }
    prof_t all;
    hand_profile(rest, &all);
    return missing + shanten_after(&all, melds + 3);
}

/* 组合龙 shanten, or `best` when no straight beats it.  The whole hand's regular shanten after three
 * more sets is a floor for the rest of any straight, so most straights need no closer look. */
static inline int knitted(const unsigned char *c, int melds, const prof_t *all, int best) {
    int floor = shanten_after(all, melds + 3);
    for (int i = 0; i < 6; i++) {
        int held = knitted_held(c, i);
        if (9 - held + floor < best) {
            int v = knitted_one(c, melds, i);
            if (v < best) best = v;
        }
    }
    return best;
}


/* lowest shanten over the forms; c is modified and restored */
static inline int overall(unsigned char *c, int melds) {
    prof_t all;
    hand_profile(c, &all);
    int best = shanten_after(&all, melds);
    if (melds > 1 || best < 0) return best;
    if (!melds) {
        int v = seven_pairs(c);
        if (v < best) best = v;
        v = thirteen_orphans(c);
        if (v < best) best = v;
        v = honors_knitted(c);
        if (v < best) best = v;
    }
    return knitted(c, melds, &all, best);
}

/* one form's shanten (form 0..4 in forms.FORMS order), -1 for the overall one; NA if it does not apply */
static inline int form_value(unsigned char *c, int melds, int form) {
    prof_t all;
    switch (form) {
    case -1:
        return overall(c, melds);
    case 0:
        hand_profile(c, &all);
        return shanten_after(&all, melds);
    case 1:
        return melds ? NA : seven_pairs(c);
    case 2:
        return melds ? NA : thirteen_orphans(c);
    case 3:
        if (melds > 1) return NA;
        hand_profile(c, &all);
        return knitted(c, melds, &all, NA);
    case 4:
        return melds ? NA : honors_knitted(c);
    }
    return NA;
}

static const int GROUP_AT[4] = {0, 9, 18, 27}, GROUP_LEN[4] = {9, 9, 9, 7};
static const int POW5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
/* NEAR[t]: the suited tiles within two of t in its suit, a bit each (none for an honour) */
#define NEAR3(r) ((0x1Fu << (r)) >> 2 & 0x1FFu)
#define NEAR_SUIT(s) NEAR3(0) << (s), NEAR3(1) << (s), NEAR3(2) << (s), NEAR3(3) << (s), NEAR3(4) << (s), \
    NEAR3(5) << (s), NEAR3(6) << (s), NEAR3(7) << (s), NEAR3(8) << (s)
static const uint32_t NEAR[NK] = {NEAR_SUIT(0), NEAR_SUIT(9), NEAR_SUIT(18), 0, 0, 0, 0, 0, 0, 0};

/* What the special forms count, kept so that changing one tile updates them in O(1). */
typedef struct {
    prof_t rest[4]; /* the other three groups' combined profile, per group */
    int pairs, orphan_kinds, orphan_pairs, honors, held[6];
} tally_t;

static inline int is_orphan(int t) { return t >= 27 || t % 9 == 0 || t % 9 == 8; }

/* tally() with the four groups' profiles already known */
static inline void tally_with(const unsigned char *c, tally_t *s, const prof_t g[4]) {
    prof_t ab, cd;
    combine(&g[0], &g[1], &ab);
    combine(&g[2], &g[3], &cd);
    combine(&g[1], &cd, &s->rest[0]);
    combine(&g[0], &cd, &s->rest[1]);
    combine(&ab, &g[3], &s->rest[2]);
    combine(&ab, &g[2], &s->rest[3]);
    s->pairs = 6 - seven_pairs(c);
    s->orphan_kinds = s->orphan_pairs = s->honors = 0;
    for (int i = 0; i < 13; i++) {
        s->orphan_kinds += c[ORPHANS[i]] > 0;
        s->orphan_pairs += c[ORPHANS[i]] >= 2;
    }
    for (int t = 27; t < NK; t++) s->honors += c[t] > 0;
    for (int i = 0; i < 6; i++) s->held[i] = knitted_held(c, i);
}

/* The tally of c after one copy of t left it (c holds the hand after), from the tally before (`was`),
 * its groups' profiles g, their pairwise combinations g2[a][b] (a < b) and the profile of t's group
 * after (`minus`): t's group's rest is unchanged, the others' rests take the new profile. */
static inline void tally_minus(const unsigned char *c, const tally_t *was, const prof_t g2[4][4], int t,
                               const prof_t *minus, tally_t *s) {
    int gt = t < 27 ? t / 9 : 3, now = c[t], before = now + 1;
    for (int g = 0; g < 4; g++) {
        if (g == gt) {
            s->rest[g] = was->rest[g];
            continue;
        }
        int a = -1, b = -1; /* the two groups that are neither g nor gt */
        for (int x = 0; x < 4; x++)
            if (x != g && x != gt) {
                if (a < 0) a = x;
                else b = x;
            }
        combine(minus, &g2[a][b], &s->rest[g]);
    }
    s->pairs = was->pairs - before / 2 + now / 2;
    s->orphan_kinds = was->orphan_kinds;
    s->orphan_pairs = was->orphan_pairs;
    if (is_orphan(t)) {
        s->orphan_kinds -= !now;
        s->orphan_pairs -= before >= 2 && now < 2;
    }
    s->honors = was->honors - (t >= 27 && !now);
    for (int i = 0; i < 6; i++)
        s->held[i] = was->held[i] - (t < 27 && !now && t % 9 % 3 == PATTERNS[i][t / 9]);
}

static inline void tally(unsigned char *c, tally_t *s) {
    prof_t g[4];
    for (int i = 0; i < 4; i++) group_profile(c + GROUP_AT[i], GROUP_LEN[i], i < 3, &g[i]);
    tally_with(c, s, g);
}

/* overall() of c, where c differs from the tallied hand only in tile t (which had `old` copies) and
 * `mine` is the profile of t's group in c.  Stops at the first form below `bound` (pass NEG for the
 * exact value). */
static inline int overall_changed_with(const unsigned char *c, int melds, const tally_t *s, int t, int old, int bound,
                                const prof_t *mine) {
    int g = t < 27 ? t / 9 : 3, had = old > 0, has = c[t] > 0;
    int best = shanten_after_combined(mine, &s->rest[g], melds);
    if (best < bound || melds > 1 || best < 0) return best;
    int held[6], most = 0;
    for (int i = 0; i < 6; i++) {
        held[i] = s->held[i] + ((t < 27 && t % 9 % 3 == PATTERNS[i][t / 9]) ? has - had : 0);
        if (held[i] > most) most = held[i];
    }
    if (!melds) {
        int kinds = s->orphan_kinds, opairs = s->orphan_pairs;
        if (is_orphan(t)) {
            kinds += has - had;
            opairs += (c[t] >= 2) - (old >= 2);
        }
        int forms[3] = {6 - (s->pairs - old / 2 + c[t] / 2), 13 - kinds - (opairs > 0),
                        13 - (s->honors + (t >= 27 ? has - had : 0)) - most};
        for (int i = 0; i < 3; i++) {
            if (forms[i] < best) best = forms[i];
            if (best < bound) return best;
        }
    }
    int floor = shanten_after_combined(mine, &s->rest[g], melds + 3);
    for (int i = 0; i < 6; i++)
        if (9 - held[i] + floor < best) {
            int v = knitted_one(c, melds, i);
            if (v < best) best = v;
            if (best < bound) return best;
        }
    return best;
}

static inline int overall_changed(unsigned char *c, int melds, const tally_t *s, int t, int old, int bound) {
    int g = t < 27 ? t / 9 : 3;
    prof_t mine;
    group_profile(c + GROUP_AT[g], GROUP_LEN[g], g < 3, &mine);
    return overall_changed_with(c, melds, s, t, old, bound, &mine);
}

/* Tiles whose draw lowers the shanten; a fifth copy only as the wait of a ready hand. */
/* useful_mask over all forms of a hand whose shanten `now` is known */
static inline unsigned long long useful_mask_at(unsigned char *c, int melds, int now) {
    tally_t s;
    tally(c, &s);
    unsigned long long mask = 0;
    for (int t = 0; t < NK; t++) {
        if (c[t] >= 4 && now > 0) continue;
        c[t]++;
        if (overall_changed(c, melds, &s, t, c[t] - 1, now) < now) mask |= 1ULL << t;
        c[t]--;
    }
    return mask;
}

static inline unsigned long long useful_mask(unsigned char *c, int melds, int form) {
    int now = form_value(c, melds, form);
    if (now == NA) return 0;
    if (form == -1) return useful_mask_at(c, melds, now);
    unsigned long long mask = 0;
    for (int t = 0; t < NK; t++) {
        if (c[t] >= 4 && now > 0) continue;
        c[t]++;
        int after = form_value(c, melds, form);
        c[t]--;
        if (after < now) mask |= 1ULL << t;
    }
    return mask;
}

/* The memo tables, allocated on first use (calloc: pages become resident only when touched). */
static inline int shanten_tables(void) {
    if (suit_tab) return 0;
    suit_tab = calloc(SUIT_KEYS, sizeof(prof_t));
    honor_tab = calloc(HONOR_KEYS, sizeof(prof_t));
    if (!suit_tab || !honor_tab) {
        free(suit_tab);
        free(honor_tab);
        suit_tab = honor_tab = NULL;
        return -1;
    }
    return 0;
}

/* knitted() of a tallied hand: its groups' profiles g and the tally s give the floor and the tiles held */
static inline int knitted_tallied(const unsigned char *c, int melds, const prof_t g[4], const tally_t *s, int best) {
    int floor = shanten_after_combined(&g[0], &s->rest[0], melds + 3);
    for (int i = 0; i < 6; i++)
        if (9 - s->held[i] + floor < best) {
            int v = knitted_one(c, melds, i);
            if (v < best) best = v;
        }
    return best;
}

/* Whether every special form of the 13-tile hand c (its groups' profiles g, tallied in s) is at
 * `low` + 1 or above, so that no drawn tile brings one of them below `low`. */
static inline int specials_above(const unsigned char *c, int melds, const prof_t g[4], const tally_t *s, int low) {
    if (!melds) {
        int most = 0;
        for (int i = 0; i < 6; i++)
            if (s->held[i] > most) most = s->held[i];
        if (6 - s->pairs <= low || 13 - s->orphan_kinds - (s->orphan_pairs > 0) <= low ||
            13 - s->honors - most <= low)
            return 0;
    }
    return knitted_tallied(c, melds, g, s, low + 1) > low;
}

/* useful_mask_at(c, melds, low) of a 13-tile hand c of shanten `low`, tallied in s from its groups'
 * profiles g, form by form: a drawn tile lowers the hand below `low` when it lowers some form that is
 * at `low`, and each special form tells exactly which tiles lower it by one (the most one tile can).
 * The regular form is tested tile by tile; gt is the group whose profile changed last (q caches the
 * profiles of the other groups with one tile more, have_q says which are filled). */
static inline unsigned long long useful_at_low(unsigned char *c, int melds, int low, const tally_t *s, const prof_t g[4],
                                               int gt, prof_t q[NK], unsigned char have_q[NK]) {
    unsigned long long mask = 0, skip = 0;
    for (int u = 0; u < NK; u++)
        if (c[u] >= 4 && low > 0) skip |= 1ULL << u; /* a fifth copy only as the wait of a ready hand */
    /* The regular form: u is useful when the combined value at column k beats T, i.e. for some split
     * i of the blocks, mine.v[i] + max(rest.v[k-i], rest.v[5+k-i]) > T or mine.v[5+i] + rest.v[k-i] > T
     * (shanten_after_combined < low, with the sums against each group's rest taken once) */
    int k = 4 - melds, T = 8 - 2 * melds - low, need[4][5], needp[4][5];
    for (int x = 0; x < 4; x++) {
        const prof_t *r = &s->rest[x];
        for (int i = 0; i <= k; i++) {
            int a = r->v[k - i], b = r->v[5 + k - i];
            need[x][i] = T - (a > b ? a : b);
            needp[x][i] = T - a;
        }
    }
    uint32_t held_bits = 0; /* the suited tiles held, a bit each */
    for (int t = 0; t < 27; t++) held_bits |= (uint32_t)(c[t] > 0) << t;
    int keys[4]; /* each group's base-5 key (group_profile's), a drawn tile adding its digit */
    for (int x = 0; x < 4; x++) {
        keys[x] = 0;
        for (int i = 0; i < GROUP_LEN[x]; i++) keys[x] = keys[x] * 5 + c[GROUP_AT[x] + i];
    }
    prof_t mine[NK];
    for (int u = 0; u < NK; u++) {
        if (skip >> u & 1) continue;
        int gu = u < 27 ? u / 9 : 3;
        if (!c[u] && !(held_bits & NEAR[u])) { /* no tile of its suit within two: adds nothing to its group */
            mine[u] = g[gu];
            continue;
        }
        int n = GROUP_LEN[gu], key = keys[gu] + POW5[n - 1 - (u - GROUP_AT[gu])], big = c[u] >= 4;
        c[u]++;
        if (gu == gt) {
            profile_of_key(c + GROUP_AT[gu], n, gu < 3, key, big, &mine[u]);
        } else {
            if (!have_q[u]) {
                profile_of_key(c + GROUP_AT[gu], n, gu < 3, key, big, &q[u]);
                have_q[u] = 1;
            }
            mine[u] = q[u];
        }
        c[u]--;
        const prof_t *m = &mine[u];
        for (int i = 0; i <= k; i++)
            if (m->v[i] > need[gu][i] || m->v[5 + i] > needp[gu][i]) {
                mask |= 1ULL << u;
                break;
            }
    }
    if (melds > 1) return mask;
    if (!melds) {
        int most = 0;
        for (int i = 0; i < 6; i++)
            if (s->held[i] > most) most = s->held[i];
        unsigned long long more = 0;
        if (6 - s->pairs == low) /* seven pairs: a tile held once or three times */
            for (int u = 0; u < NK; u++)
                if (c[u] & 1) more |= 1ULL << u;
        if (13 - s->orphan_kinds - (s->orphan_pairs > 0) == low) /* thirteen orphans: a new kind, or the pair */
            for (int i = 0; i < 13; i++) {
                int u = ORPHANS[i];
                if (!c[u] || (c[u] == 1 && !s->orphan_pairs)) more |= 1ULL << u;
            }
        if (13 - s->honors - most == low) /* honours and knitted tiles: a new honour, or a new tile of a best pattern */
            for (int u = 0; u < NK; u++) {
                if (c[u]) continue;
                int lowers = u >= 27;
                for (int i = 0; i < 6 && !lowers; i++)
                    lowers = u % 9 % 3 == PATTERNS[i][u / 9] && s->held[i] == most;
                if (lowers) more |= 1ULL << u;
            }
        mask |= more & ~skip;
    }
    if (knitted_tallied(c, melds, g, s, low + 1) > low) return mask; /* the knitted straight is not at `low` */
    for (int u = 0; u < NK; u++) { /* the knitted straight (组合龙): as overall_changed tests it */
        if ((skip | mask) >> u & 1) continue;
        int gu = u < 27 ? u / 9 : 3, had = c[u] > 0;
        c[u]++;
        int floor = shanten_after_combined(&mine[u], &s->rest[gu], melds + 3);
        for (int i = 0; i < 6; i++) {
            int held = s->held[i] + (u < 27 && u % 9 % 3 == PATTERNS[i][u / 9] && !had);
            if (9 - held + floor < low && knitted_one(c, melds, i) < low) {
                mask |= 1ULL << u;
                break;
            }
        }
        c[u]--;
    }
    return mask;
}

/* The bots' discard choice for a 14-tile hand: the discards that keep the lowest shanten, each with
 * how many copies of its useful tiles are unseen (unseen[t] per tile), in tile order.  Writes rows
 * (shanten, unseen useful copies, tile) and returns their number.
 *
 * The same numbers as useful_mask(c - t) for each such t, with fewer table lookups: after
 * discarding t and drawing u of another group than t's, u's group is the 14-tile hand's group plus u
 * whatever t was, so its profile is looked up once for all t (q[u]); t's own group is looked up once
 * per t (minus[t]); the other groups keep the 14-tile hand's profiles (base). */
/* The shanten after each discard of a 3n+2-tile hand: what best_discard_rows and the bots' claims
 * start from.  after[t] is exact where it equals `low` (the lowest), and above `low` elsewhere. */
typedef struct {
    prof_t base[4], minus[NK]; /* the groups' profiles; t's group without one t */
    tally_t whole;
    int after[NK], low;
} discards_t;

static inline void discard_shanten(unsigned char *c, int melds, discards_t *d) {
    int *after = d->after, low = 99;
    for (int g = 0; g < 4; g++) group_profile(c + GROUP_AT[g], GROUP_LEN[g], g < 3, &d->base[g]);
    tally_with(c, &d->whole, d->base);
    for (int t = 0; t < NK; t++) { /* the regular form first */
        after[t] = 99;
        if (!c[t]) continue;
        int g = t < 27 ? t / 9 : 3;
        c[t]--;
        group_profile(c + GROUP_AT[g], GROUP_LEN[g], g < 3, &d->minus[t]);
        after[t] = shanten_after_combined(&d->minus[t], &d->whole.rest[g], melds);
        c[t]++;
        if (after[t] < low) low = after[t];
    }
    /* A discard never lowers a form's shanten: when every special form of the 3n+2-tile hand is above
     * the best regular one, the regular form alone decides which discards keep the lowest shanten
     * (the others may be lower than counted here, but not down to `low`).  Otherwise all forms count. */
    if (melds <= 1 && !specials_above(c, melds, d->base, &d->whole, low)) {
        low = 99;
        for (int t = 0; t < NK; t++) {
            if (!c[t]) continue;
            c[t]--;
            after[t] = overall_changed_with(c, melds, &d->whole, t, c[t] + 1, NEG, &d->minus[t]);
            c[t]++;
            if (after[t] < low) low = after[t];
        }
    }
    d->low = low;
}

/* The lowest shanten reachable by one discard from a 3n+2-tile hand
 * (majiang.shanten.efficiency.shanten_after_best_discard). */
static inline int lowest_after_discard(unsigned char *c, int melds) {
    discards_t d;
    discard_shanten(c, melds, &d);
    return d.low;
}

static inline int best_discard_rows(unsigned char *c, int melds, const long *unseen, long rows[][3]) {
    discards_t d;
    discard_shanten(c, melds, &d);
    const int *after = d.after, low = d.low;
    const prof_t *base = d.base, *minus = d.minus;
    const tally_t *whole = &d.whole;
    int n = 0;
    prof_t q[NK], g2[4][4];
    unsigned char have_q[NK] = {0};
    int have_g2 = 0;
    for (int t = 0; t < NK; t++) {
        if (after[t] != low) continue;
        int gt = t < 27 ? t / 9 : 3;
        c[t]--;
        prof_t groups[4] = {base[0], base[1], base[2], base[3]};
        groups[gt] = minus[t];
        tally_t s;
        if (!have_g2) {
            for (int a = 0; a < 4; a++)
                for (int b = a + 1; b < 4; b++) combine(&base[a], &base[b], &g2[a][b]);
            have_g2 = 1;
        }
        tally_minus(c, whole, (const prof_t(*)[4])g2, t, &minus[t], &s);
        unsigned long long mask = useful_at_low(c, melds, low, &s, groups, gt, q, have_q);
        c[t]++;
        long sum = 0;
        for (int x = 0; x < NK; x++)
            if (mask & (1ULL << x)) sum += unseen[x];
        rows[n][0] = low;
        rows[n][1] = sum;
        rows[n][2] = t;
        n++;
    }
    return n;
}

#endif /* MAJIANG_SHANTEN_CORE_H */
