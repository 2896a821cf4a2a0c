/* fan_api.h — the compiled fan calculator as other compiled modules call it (CPython glue side).
 *
 * majiang._speedups.fan exports a PyCapsule named FAN_API_CAPSULE holding a fan_api_t; a module
 * that scores hands in C (the compiled hand core, core.c) imports it with
 * PyCapsule_Import(FAN_API_CAPSULE, 0) and so scores with the one configured calculator: the fan
 * table, points and exclusions that majiang.mcr.fast configured, never a second copy.
 */
#ifndef MAJIANG_FAN_API_H
#define MAJIANG_FAN_API_H

#include "fan_types.h"

#define FAN_API_CAPSULE "majiang._speedups.fan._C_API"
#define FAN_API_VERSION 1

typedef struct {
    int version; /* FAN_API_VERSION */
    /* 1 = configured by majiang.mcr.fast (compute may be called), 0 = not (the reference is in use) */
    int (*configured)(void);
    /* a majiang.mcr.rules.Rules object's switches and min_fan into *r: 1, or 0 when this build does
     * not take that object (not configured, a Rules subclass, min_fan not a plain int); no error set */
    int (*rules)(PyObject *rules, rules_t *r);
    /* score a hand (h->r set): 1 and the fans in *t, or 0 when it is not a legal win (the reference
     * would raise InvalidHandError: not a winning shape, contradictory flags) */
    int (*compute)(hand_t *h, fantab_t *t);
    /* the total, flowers included (ScoreResult.total) */
    int (*points)(const fantab_t *t);
    /* the total without flowers (ScoreResult.fan_points: what min_fan looks at) */
    int (*fan_points)(const fantab_t *t);
} fan_api_t;

#endif /* MAJIANG_FAN_API_H */
