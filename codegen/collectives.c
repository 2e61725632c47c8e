/*
 * collectives.c — a doall whose one message each way is better moved by a
 * collective of Stout and Wagar 1990 (the plan's choice, analysis/
 * collectives.c): the node code hands the message hd_batch packed and the
 * inbox hd_inbox gives to hd_coll_exchange, with the permutation of the
 * virtual processors the LCC makes, in place of Fig. 1d's v_send and
 * v_receive; and a doall whose slot groups include an all-to-all the plan
 * prices cheaper as COMPLETE EXCHANGE runs its whole batched exchange so
 * (hd_exchange_run_alltoall).  Broadcasts are priced but not written
 * (hd_coll_emitted); docs/collectives.md says why.
 */
#include "codegen_internal.h"

#include "hyperdo/coll.h"

#include <stdlib.h>

/* The plan's entry for reference `ref` of doall l: hd_program_spec lists
 * the reads that make processors exchange data, doall by doall, in source
 * order. */
static const hd_plan_comm *plan_comm_of(const gen *g, const hd_loop *l, int ref)
{
    if (!g->plan)
        return NULL;
    const hd_program *p = g->prog;
    int c = 0;
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *x = &p->loops[d];
        for (int k = 0; k < x->nrefs; k++) {
            const hd_ref *r = &x->refs[k];
            if (r->is_write || hd_ref_result(g->results, r)->comm.kind == HD_COMM_LOCAL)
                continue;
            if (x == l && k == ref)
                return c < g->plan->m ? &g->plan->comm[c] : NULL;
            c++;
        }
    }
    return NULL;
}

const hd_plan_comm *collective_of(const gen *g, const node_plan *np)
{
    if (!np->permutation || np->nslots != 1 || np->slots[0].family)
        return NULL;
    const hd_plan_comm *pc = plan_comm_of(g, np->loop, np->slots[0].ref);
    if (!pc || pc->choice.chosen < 0 || !hd_coll_emitted(pc->choice.pattern) || !pc->price)
        return NULL;
    return pc;
}

bool alltoall_of(const gen *g, const node_plan *np)
{
    /* The doall's batched exchange moves every slot group's messages at
     * once: COMPLETE EXCHANGE carries any pattern, so one group that the
     * plan prices cheaper that way is enough. */
    if (np->permutation)
        return false;
    for (int q = 0; q < np->nslots; q++) {
        const hd_plan_comm *pc = plan_comm_of(g, np->loop, np->slots[q].ref);
        if (pc && pc->choice.chosen >= 0 && pc->choice.pattern == HD_PATTERN_ALLTOALL)
            return true;
    }
    return false;
}

bool collectives_used(const gen *g)
{
    if (!g->plan)
        return false;
    for (int r = 0; r < g->plan->m; r++) {
        const hd_comm_choice *c = &g->plan->comm[r].choice;
        if (c->chosen >= 0 && hd_coll_emitted(c->pattern))
            return true;
    }
    return false;
}

static const char *alg_constant(int alg)
{
    switch (alg) {
    case HD_COLL_INVERSION: return "HD_COLL_INVERSION";
    case HD_COLL_TRANSPOSE_LC: return "HD_COLL_TRANSPOSE_LC";
    case HD_COLL_TRANSPOSE_BLOCKS: return "HD_COLL_TRANSPOSE_BLOCKS";
    default: return "HD_COLL_PERMUTED";
    }
}

void put_collective_exchange(text *t, const gen *g, const hd_plan_comm *pc)
{
    int n = g->prog->n, P = 1 << n;
    const hd_comm_choice *ch = &pc->choice;
    const hd_lcc *c = pc->in->comm.lcc;   /* between virtual processors */
    int *dest = malloc((size_t)P * sizeof *dest);
    if (!dest)
        abort();
    for (int x = 0; x < P; x++) {
        int y = (int)((hd_matrix_apply(&c->A, (uint64_t)x) ^ c->b) & hd_mask(c->A.n));
        if (c->dir == HD_GATHER)
            dest[x] = y;          /* y = A x + b reads what x holds */
        else
            dest[y] = x;          /* x = A y + b holds what y reads */
    }
    putf(t, "    /* One message each way, by %s (Stout and Wagar 1990): the cost model\n"
            "     * predicts %.1f us against %.1f us for direct messages (%s, %lld bytes\n"
            "     * per processor; docs/collectives.md).  hd_dest[v]: where v's elements\n"
            "     * are read. */\n",
         hd_coll_alg_name((hd_coll_alg)ch->opt[ch->chosen].alg), ch->opt[ch->chosen].us,
         ch->direct_us, hd_comm_pattern_name(ch->pattern), ch->bytes);
    putf(t, "    static const int hd_dest[%d] = {", P);
    for (int x = 0; x < P; x++)
        putf(t, "%s%d", x ? (x % 16 ? ", " : ",\n        ") : "", dest[x]);
    put(t, "};\n");
    /* The batch lives until the first hd_inbox (which ends the putting):
     * the collective runs before it, into a buffer of its own. */
    putf(t, "    {\n"
            "        size_t hd_nout = 0, hd_ngot = 0;\n"
            "        const void *hd_out = hd_to != hd_me ? hd_batch(hd_msgs, hd_to, &hd_nout) : NULL;\n"
            "        void *hd_got = hd_coll_exchange_new(%s, hd_out, hd_nout, &hd_ngot, hd_dest);\n"
            "        if (hd_from != hd_me) {\n"
            "            size_t hd_n;\n"
            "            void *hd_in = hd_inbox(hd_msgs, hd_from, &hd_n);\n"
            "            hd_coll_check_size(hd_ngot, hd_n);\n"
            "            if (hd_n)\n"
            "                memcpy(hd_in, hd_got, hd_n);\n"
            "        }\n"
            "        free(hd_got);\n"
            "    }\n", alg_constant(ch->opt[ch->chosen].alg));
    free(dest);
}
