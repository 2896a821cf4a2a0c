/* winshape_core.h — the MCR winning-shape test on count vectors: plain C99, no CPython.
 *
 * The C twin of majiang.mcr.shapes.is_win_shape, used by majiang._speedups.winshape (its CPython
 * glue, winshape.c; tested equal to the reference in tests/mcr/test_winshape_fast.py) and by the
 * compiled hand core (core.c).  win_shape(c, n_melds): c = 34 counts of the concealed tiles, the
 * winning one included (modified during the call and restored).
 */
#ifndef MAJIANG_WINSHAPE_CORE_H
#define MAJIANG_WINSHAPE_CORE_H

#include <string.h>

static const int WS_ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
/* the six knitted straights: 147/258/369 over m, p, s (tiles 0-8 m, 9-17 p, 18-26 s) */
static const int WS_KNITTED[6][9] = {
    {0, 3, 6, 10, 13, 16, 20, 23, 26}, {0, 3, 6, 11, 14, 17, 19, 22, 25}, {1, 4, 7, 9, 12, 15, 20, 23, 26},
    {1, 4, 7, 11, 14, 17, 18, 21, 24}, {2, 5, 8, 9, 12, 15, 19, 22, 25}, {2, 5, 8, 10, 13, 16, 18, 21, 24},
};

static int sets_only(int *c, int i) {
    while (i < 9 && c[i] == 0) i++;
    if (i == 9) return 1;
    if (c[i] >= 3) {
        c[i] -= 3;
        int ok = sets_only(c, i);
        c[i] += 3;
        if (ok) return 1;
    }
    if (i <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--; c[i + 1]--; c[i + 2]--;
        int ok = sets_only(c, i);
        c[i]++; c[i + 1]++; c[i + 2]++;
        return ok;
    }
    return 0;
}

static int suit_splits(int *c) {
    int n = 0;
    for (int i = 0; i < 9; i++) n += c[i];
    if (n % 3 == 1) return 0;
    if (n % 3 == 0) return sets_only(c, 0);
    for (int i = 0; i < 9; i++) {
        if (c[i] >= 2) {
            c[i] -= 2;
            int ok = sets_only(c, 0);
            c[i] += 2;
            if (ok) return 1;
        }
    }
    return 0;
}

static int regular(int *c) {
    int pairs = 0;
    for (int base = 0; base < 27; base += 9) {
        int n = 0;
        for (int i = 0; i < 9; i++) n += c[base + i];
        if (n == 0) continue;
        if (n % 3 == 1 || !suit_splits(c + base)) return 0;
        if (n % 3 == 2) pairs++;
    }
    for (int t = 27; t < 34; t++) {
        if (c[t] == 2) pairs++;
        else if (c[t] == 1 || c[t] == 4) return 0;
    }
    return pairs == 1;
}

static int win_shape(int *c, int n_melds) {
    if (regular(c)) return 1;
    int kinds = 0;
    for (int t = 0; t < 34; t++) if (c[t]) kinds++;
    if (n_melds == 0) {
        int even = 1;
        for (int t = 0; t < 34; t++) if (c[t] & 1) { even = 0; break; }
        if (even) return 1;
        if (kinds == 13) {
            int ok = 1;
            for (int k = 0; k < 13; k++) if (!c[WS_ORPHANS[k]]) { ok = 0; break; }
            if (ok) return 1;
        }
        if (kinds == 14) {
            int numbered = 0;
            for (int t = 0; t < 27; t++) if (c[t]) numbered++;
            if (numbered >= 7 && numbered <= 9) {
                for (int k = 0; k < 6; k++) {
                    int in = 0;
                    for (int j = 0; j < 9; j++) if (c[WS_KNITTED[k][j]]) in++;
                    if (in == numbered) return 1;
                }
            }
        }
    }
    if (n_melds <= 1 && kinds >= 9) {
        for (int k = 0; k < 6; k++) {
            int all = 1;
            for (int j = 0; j < 9; j++) if (!c[WS_KNITTED[k][j]]) { all = 0; break; }
            if (all) {
                int rest[34];
                memcpy(rest, c, sizeof(rest));
                for (int j = 0; j < 9; j++) rest[WS_KNITTED[k][j]]--;
                return regular(rest);
            }
        }
    }
    return 0;
}

#endif /* MAJIANG_WINSHAPE_CORE_H */
