/*
 * target.c — the targets a plan can be made for, by kind: the e-cube
 * wormhole hypercube (Hou et al. 2001, Section 2.3), and Wu 1984's omega
 * network and the indirect binary n-cube (the butterfly), whose cost is
 * counted in passes (omega.c).  All share the nCUBE-2's time model
 * (Hou et al. 2001, Section 6.2), which the runtime's simulated network
 * uses too.
 */
#include "analysis.h"

#include <string.h>

/* Reports' names; the words of --network and of the network pragma are
 * the model's hd_network_words, in the same order. */
static const char *const kinds[] = {
    [HD_TARGET_ECUBE_HYPERCUBE] = "e-cube wormhole hypercube",
    [HD_TARGET_OMEGA] = "omega network (Wu 1984)",
    [HD_TARGET_BUTTERFLY] = "indirect binary n-cube (butterfly, Wu 1984 Chapter 5)",
};

static hd_target target_of(hd_target_kind k, int n)
{
    hd_target t = { k, n, HD_COST_MODEL_NCUBE2 };
    return t;
}

hd_target hd_target_ecube(int n) { return target_of(HD_TARGET_ECUBE_HYPERCUBE, n); }
hd_target hd_target_omega(int n) { return target_of(HD_TARGET_OMEGA, n); }
hd_target hd_target_butterfly(int n) { return target_of(HD_TARGET_BUTTERFLY, n); }

bool hd_target_parse(const char *word, int n, hd_target *t)
{
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        if (strcmp(word, hd_network_words[k]) == 0) {
            *t = target_of((hd_target_kind)k, n);
            return true;
        }
    return false;
}

const char *hd_target_word(hd_target_kind k)
{
    return (unsigned)k < sizeof kinds / sizeof *kinds ? hd_network_words[k] : "?";
}

const char *hd_target_name(const hd_target *t)
{
    return (unsigned)t->kind < sizeof kinds / sizeof *kinds ? kinds[t->kind] : "?";
}

bool hd_cost_model_parse(const char *word, hd_cost_model *out)
{
    static const hd_cost_model ncube2 = HD_COST_MODEL_NCUBE2, linkbound = HD_COST_MODEL_LINKBOUND;
    if (strcmp(word, "ncube2") == 0)
        *out = ncube2;
    else if (strcmp(word, "linkbound") == 0)
        *out = linkbound;
    else
        return false;
    return true;
}
