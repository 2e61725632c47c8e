/*
 * collectives.c — a doall whose one message each way is better moved by a
 * collective of Stout and Wagar 1990 (the plan's choice, analysis/
 * collectives.c): the node code hands the message hd_batch packed and the
 * inbox hd_inbox gives to hd_coll_exchange, with the permutation of the
 * virtual processors the LCC makes, in place of Fig. 1d's v_send and
 * v_receive; a doall whose one slot group is a broadcast, distribute,
 * collect or all-gather runs its batch by that collective
 * (hd_exchange_run_collective); and a doall whose slot groups include an
 * all-to-all the plan prices cheaper as COMPLETE EXCHANGE runs its whole
 * batched exchange so (hd_exchange_run_alltoall).  Where the node code
 * cannot follow the plan, translate says so (docs/collectives.md).
 */
#include "codegen_internal.h"

#include "hyperdo/coll.h"

#include <stdlib.h>

/* The plan's entry for reference `ref` of doall l: hd_program_spec lists
 * the reads that make processors exchange data, each with its reference's
 * number (a reference read per stage has one entry per stage that makes
 * messages, and the first stands for them: its node code reads the
 * family, docs/annotations.md "Stage loops"). */
static const hd_plan_comm *plan_comm_of(const gen *g, const hd_loop *l, int ref)
{
    if (!g->plan)
        return NULL;
    int id = l->refs[ref].id;
    for (int c = 0; c < g->plan->m; c++)
        if (g->plan->comm[c].in->ref == id)
            return &g->plan->comm[c];
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

/* The chosen algorithm of an entry, or -1 for direct messages. */
static int chosen_alg(const hd_plan_comm *pc)
{
    return pc && pc->choice.chosen >= 0 ? pc->choice.opt[pc->choice.chosen].alg : -1;
}

const hd_plan_comm *group_collective_of(const gen *g, const node_plan *np)
{
    /* The doall's batch is its one slot group's elements, which the
     * collective moves whole: a second group, requests or streams would
     * share the batch (they keep direct messages). */
    if (np->permutation || np->nslots != 1 || np->slots[0].family || np->nreqs || np->nstreams)
        return NULL;
    const hd_plan_comm *pc = plan_comm_of(g, np->loop, np->slots[0].ref);
    int alg = chosen_alg(pc);
    if (alg < 0)
        return NULL;
    switch (pc->choice.pattern) {
    case HD_PATTERN_BROADCAST:
    case HD_PATTERN_DISTRIBUTE:
    case HD_PATTERN_COLLECT:
        return pc->in->comm.kind == HD_COMM_LCC ? pc : NULL;
    case HD_PATTERN_ALLGATHER:
        return alg == HD_COLL_ALLGATHER ? pc : NULL;
    default:
        return NULL;
    }
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
        if (chosen_alg(pc) == HD_COLL_ALLTOALL)
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

/* HD_COLL_<NAME> of hyperdo/coll.h, from the name hyperdo sim spells. */
static const char *alg_constant(int alg)
{
    static char buf[64];
    const char *name = hd_coll_alg_name((hd_coll_alg)alg);
    size_t k = 0;
    for (const char *c = "HD_COLL_"; *c; c++)
        buf[k++] = *c;
    for (const char *c = name; *c && k + 1 < sizeof buf; c++)
        buf[k++] = *c == '-' ? '_' : (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
    buf[k] = 0;
    return buf;
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

void put_group_collective(text *t, const gen *g, const hd_plan_comm *pc)
{
    const hd_comm_choice *ch = &pc->choice;
    int alg = ch->opt[ch->chosen].alg, n = g->prog->n, P = 1 << n;
    putf(t, "    /* The doall's messages, by %s (Stout and Wagar 1990): the cost model\n"
            "     * predicts %.1f us against %.1f us for direct messages (%s, %lld bytes\n"
            "     * per message; docs/collectives.md)",
         hd_coll_alg_name((hd_coll_alg)alg), ch->opt[ch->chosen].us, ch->direct_us,
         hd_comm_pattern_name(ch->pattern), ch->bytes);
    if (ch->pattern == HD_PATTERN_ALLGATHER) {
        put(t, ". */\n    hd_exchange_run_collective(hd_msgs, ");
        putf(t, "%s, 0, 0);\n", alg_constant(alg));
    } else {
        /* The root in virtual numbers, from the LCC between virtual
         * processors: my sender (x = A y + b) or my reader (y = A x + b),
         * one per coset of the subcube. */
        const hd_lcc *c = pc->in->comm.lcc;
        if (!ch->dims) {
            putf(t, ". */\n    hd_exchange_run_collective(hd_msgs, %s, %d, 0);\n",
                 alg_constant(alg), (int)(c->b & hd_mask(n)));
        } else {
            putf(t, ",\n     * in every coset of the subcube of physical dimensions %#llx at once:\n"
                    "     * hd_root[v] is v's coset's root). */\n",
                 (unsigned long long)ch->dims);
            putf(t, "    static const int hd_root[%d] = {", P);
            for (int x = 0; x < P; x++)
                putf(t, "%s%d", x ? (x % 16 ? ", " : ",\n        ") : "",
                     (int)((hd_matrix_apply(&c->A, (uint64_t)x) ^ c->b) & hd_mask(n)));
            putf(t, "};\n    hd_exchange_run_collective(hd_msgs, %s, hd_root[hd_me], %#llx);\n",
                 alg_constant(alg), (unsigned long long)ch->dims);
        }
    }
    put(t, "    const void *const *const hd_in0 = hd_group_in(hd_msgs, 0);\n"
           "    (void)hd_in0;   /* its reads may all be ruled out by guards */\n");
}

void warn_unwritten_collectives(gen *g, const node_plan *np)
{
    const hd_loop *l = np->loop;
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *r = &l->refs[k];
        if (r->is_write || hd_ref_result(g->results, r)->comm.kind == HD_COMM_LOCAL)
            continue;
        const hd_plan_comm *pc = plan_comm_of(g, l, k);
        int alg = chosen_alg(pc);
        if (alg < 0)
            continue;
        const hd_plan_comm *written = collective_of(g, np);
        if (!written)
            written = group_collective_of(g, np);
        if (written == pc ||
            (alg == HD_COLL_ALLTOALL && np->refs[k].way == WAY_SLOTS && alltoall_of(g, np)))
            continue;
        /* A slot group's other references share its entry's fate. */
        if (written && np->refs[k].way == WAY_SLOTS && np->slots[0].array == r->array &&
            np->refs[k].group == 0)
            continue;
        hd_report(&g->d, HD_WARNING, r->begin, r->line,
                  "the cost model prefers %s for '%s' (%.1f us against %.1f us), but this "
                  "doall's node code %s: direct messages are written",
                  hd_coll_alg_name((hd_coll_alg)alg), r->text, pc->choice.opt[pc->choice.chosen].us,
                  pc->choice.direct_us,
                  np->nslots > 1 ? "exchanges several groups of elements in one batch"
                  : np->nreqs || np->nstreams ? "also asks for elements (guarded or indirect reads)"
                  : np->refs[k].way != WAY_SLOTS ? "asks for these elements one by one (a guarded read)"
                  : "cannot write it here");
    }
}
