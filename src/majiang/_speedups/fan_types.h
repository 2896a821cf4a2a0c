/* fan_types.h — the fan calculator's data types (plain C99): what fan_core.h computes on, and what
 * other compiled modules hand it through fan_api.h (the compiled hand core scores its wins so). */
#ifndef MAJIANG_FAN_TYPES_H
#define MAJIANG_FAN_TYPES_H

#include <stdint.h>

/* ------------------------------------------------------------------------------------------ */
/* fan numbers (majiang.mcr.fans.Fan)                                                           */

#define FAN_LIST(X) \
    X(BIG_FOUR_WINDS, 1) X(BIG_THREE_DRAGONS, 2) X(ALL_GREEN, 3) X(NINE_GATES, 4) X(FOUR_KONGS, 5) \
    X(SEVEN_SHIFTED_PAIRS, 6) X(THIRTEEN_ORPHANS, 7) X(ALL_TERMINALS, 8) X(LITTLE_FOUR_WINDS, 9) \
    X(LITTLE_THREE_DRAGONS, 10) X(ALL_HONORS, 11) X(FOUR_CONCEALED_PUNGS, 12) X(PURE_TERMINAL_CHOWS, 13) \
    X(QUADRUPLE_CHOW, 14) X(FOUR_PURE_SHIFTED_PUNGS, 15) X(FOUR_PURE_SHIFTED_CHOWS, 16) X(THREE_KONGS, 17) \
    X(ALL_TERMINALS_AND_HONORS, 18) X(SEVEN_PAIRS, 19) X(GREATER_HONORS_AND_KNITTED_TILES, 20) \
    X(ALL_EVEN_PUNGS, 21) X(FULL_FLUSH, 22) X(PURE_TRIPLE_CHOW, 23) X(PURE_SHIFTED_PUNGS, 24) \
    X(UPPER_TILES, 25) X(MIDDLE_TILES, 26) X(LOWER_TILES, 27) X(PURE_STRAIGHT, 28) \
    X(THREE_SUITED_TERMINAL_CHOWS, 29) X(PURE_SHIFTED_CHOWS, 30) X(ALL_FIVE, 31) X(TRIPLE_PUNG, 32) \
    X(THREE_CONCEALED_PUNGS, 33) X(LESSER_HONORS_AND_KNITTED_TILES, 34) X(KNITTED_STRAIGHT, 35) \
    X(UPPER_FOUR, 36) X(LOWER_FOUR, 37) X(BIG_THREE_WINDS, 38) X(MIXED_STRAIGHT, 39) \
    X(REVERSIBLE_TILES, 40) X(MIXED_TRIPLE_CHOW, 41) X(MIXED_SHIFTED_PUNGS, 42) X(CHICKEN_HAND, 43) \
    X(LAST_TILE_DRAW, 44) X(LAST_TILE_CLAIM, 45) X(OUT_WITH_REPLACEMENT_TILE, 46) X(ROBBING_THE_KONG, 47) \
    X(ALL_PUNGS, 48) X(HALF_FLUSH, 49) X(MIXED_SHIFTED_CHOWS, 50) X(ALL_TYPES, 51) X(MELDED_HAND, 52) \
    X(TWO_CONCEALED_KONGS, 53) X(TWO_DRAGON_PUNGS, 54) X(OUTSIDE_HAND, 55) X(FULLY_CONCEALED_HAND, 56) \
    X(TWO_MELDED_KONGS, 57) X(LAST_TILE, 58) X(DRAGON_PUNG, 59) X(PREVALENT_WIND, 60) X(SEAT_WIND, 61) \
    X(CONCEALED_HAND, 62) X(ALL_CHOWS, 63) X(TILE_HOG, 64) X(DOUBLE_PUNG, 65) X(TWO_CONCEALED_PUNGS, 66) \
    X(CONCEALED_KONG, 67) X(ALL_SIMPLES, 68) X(PURE_DOUBLE_CHOW, 69) X(MIXED_DOUBLE_CHOW, 70) \
    X(SHORT_STRAIGHT, 71) X(TWO_TERMINAL_CHOWS, 72) X(PUNG_OF_TERMINALS_OR_HONORS, 73) X(MELDED_KONG, 74) \
    X(ONE_VOIDED_SUIT, 75) X(NO_HONORS, 76) X(EDGE_WAIT, 77) X(CLOSED_WAIT, 78) X(SINGLE_WAIT, 79) \
    X(SELF_DRAWN, 80) X(FLOWER_TILES, 81) X(CONCEALED_KONG_AND_MELDED_KONG, 82)

#define FAN_ENUM(name, value) F_##name = value,
enum { FAN_LIST(FAN_ENUM) NFAN };
#undef FAN_ENUM
#define F_POTH F_PUNG_OF_TERMINALS_OR_HONORS

#define NK 34
enum { M_CHOW = 1, M_PUNG = 2, M_KONG = 3 }; /* MeldKind */

typedef struct {
    uint8_t kind;
    uint8_t tile; /* middle tile of a chow */
    uint8_t exposed;
} pack_t;

/* One reading's fans: counts by fan number.  幺九刻 (pung of terminals or honours) is kept as the
 * set of pack indices it was counted from, since later steps remove particular instances; its
 * count c[F_POTH] is kept equal to the number of bits. */
typedef struct {
    uint8_t c[NFAN];
    uint8_t poth;
    uint8_t b3w; /* pack indices of 三风刻, for the pung deduction */
} fantab_t;

/* The rule switches this port implements: the bool fields of majiang.mcr.rules.Rules, by name.
 * configure() refuses a Rules whose fields are not exactly these plus NON_SWITCH_FIELDS, so a new
 * field cannot be silently ignored here.  Adding a switch: one line here, and its use below. */
#define SWITCH_LIST(X)                                                                           \
    X(CMK, concealed_and_melded_kong) X(KS_WAIT, knitted_straight_wait_fans)                     \
    X(EXHAUSTED, exhausted_tile_is_wait) X(NEEDS_VISIBLE, last_tile_needs_visible)               \
    X(RK_EXCL_LAST, robbing_kong_excludes_last_tile)
#define SW_ENUM(id, name) SW_##id,
enum { SWITCH_LIST(SW_ENUM) NSW };
#undef SW_ENUM

typedef struct {
    int sw[NSW];    /* the switches, by SW_* */
    int min_fan_ok; /* min_fan is a plain int */
    long min_fan;
} rules_t;

typedef struct {
    /* as read from the WinningHand / hand-json */
    int nmelds;
    uint8_t mkind[4], mtile[4], mconc[4];
    int nhand;
    uint8_t hand[14];
    int win;
    int self_drawn, fourth_tile, kong, wall_last;
    long seat, prevalent, flowers;
    /* derived */
    rules_t r;
    int last; /* effective 和绝张 */
    int nfixed, melded;
    pack_t fixed[4];
    uint8_t st[NK];     /* concealed tiles with the winning tile */
    uint8_t merged[NK]; /* every tile, kongs as four */
    uint8_t fixedc[NK]; /* tiles in declared melds */
    uint64_t unique;    /* kinds present */
} hand_t; /* a winning hand as compute() reads it: fill the part above "derived", and r */

#endif /* MAJIANG_FAN_TYPES_H */
