/*
 * test_spec.c — the program part of the .lcc reader (frontend/spec.c,
 * docs/lcc-format.md "Programs"): arrays and statements, whose expression
 * trees (Wu 1984, Section 1.2) the test writes out by hand in postorder.
 */
#include "testutil.h"

#include <string.h>

#include "frontend.h"

static void read_ok(const char *text, hd_spec *s)
{
    hd_diag err;
    int rc = hd_spec_parse_string(text, "t.lcc", s, &err);
    if (rc != HD_SPEC_OK)
        fprintf(stderr, "t.lcc:%d: %s\n", err.line, err.message);
    assert_int_equal(rc, HD_SPEC_OK);
}

/* A leaf's vector and lcc names, or an operator; "" matches no lcc. */
static void expect_leaf(const hd_spec *s, const hd_spec_node *nd, const char *vec,
                        const char *lcc)
{
    assert_int_equal(nd->op, 0);
    assert_string_equal(s->vectors[nd->vector], vec);
    if (lcc[0])
        assert_string_equal(s->lccs[nd->lcc].name, lcc);
    else
        assert_int_equal(nd->lcc, -1);
}

static void expect_op(const hd_spec_node *nd, char op, int left, int right)
{
    assert_int_equal(nd->op, op);
    assert_int_equal(nd->left, left);
    assert_int_equal(nd->right, right);
}

static void test_trees(void **state)
{
    (void)state;
    hd_spec s;
    read_ok("n 3\n"
            "lcc s perm 2 0 1\n"
            "lcc r perm 2 1 0 b 101\n"
            "array A B   # vectors\n"
            "array C D\n"
            "stmt C = A[s] * (B[r] + A)\n"
            "stmt D=C[s]-C[r]-D\n"
            "stmt A = B + C * D[ s ]\n",
            &s);
    assert_int_equal(s.nvectors, 4);
    assert_int_equal(s.nstmts, 3);
    assert_int_equal(s.m, 2);

    /* C = A[s] * (B[r] + A): 0 A[s], 1 B[r], 2 A, 3 = 1 + 2, 4 = 0 * 3. */
    const hd_spec_stmt *t = &s.stmts[0];
    assert_int_equal(t->line, 6);
    assert_string_equal(s.vectors[t->lhs], "C");
    assert_int_equal(t->nnodes, 5);
    expect_leaf(&s, &t->nodes[0], "A", "s");
    expect_leaf(&s, &t->nodes[1], "B", "r");
    expect_leaf(&s, &t->nodes[2], "A", "");
    expect_op(&t->nodes[3], '+', 1, 2);
    expect_op(&t->nodes[4], '*', 0, 3);

    /* Left to right: (C[s] - C[r]) - D. */
    t = &s.stmts[1];
    assert_string_equal(s.vectors[t->lhs], "D");
    assert_int_equal(t->nnodes, 5);
    expect_leaf(&s, &t->nodes[0], "C", "s");
    expect_leaf(&s, &t->nodes[1], "C", "r");
    expect_op(&t->nodes[2], '-', 0, 1);
    expect_leaf(&s, &t->nodes[3], "D", "");
    expect_op(&t->nodes[4], '-', 2, 3);

    /* * before +: B + (C * D[s]). */
    t = &s.stmts[2];
    assert_int_equal(t->nnodes, 5);
    expect_leaf(&s, &t->nodes[0], "B", "");
    expect_leaf(&s, &t->nodes[1], "C", "");
    expect_leaf(&s, &t->nodes[2], "D", "s");
    expect_op(&t->nodes[3], '*', 1, 2);
    expect_op(&t->nodes[4], '+', 0, 3);
    hd_spec_free(&s);
    assert_int_equal(s.nstmts, 0);
    assert_null(s.stmts);
}

/* A spec without programs has none, and its LCCs read as before. */
static void test_plain_spec(void **state)
{
    (void)state;
    hd_spec s;
    read_ok("n 2\nlcc x perm 1 0\n", &s);
    assert_int_equal(s.nvectors, 0);
    assert_int_equal(s.nstmts, 0);
    assert_int_equal(s.m, 1);
    hd_spec_free(&s);
}

/* Loops are their bodies K times over, nested ones multiplied, each copy
 * its own nodes: the statements in the order the loops run them. */
static void test_loops(void **state)
{
    (void)state;
    hd_spec s;
    read_ok("n 2\n"
            "lcc s perm 1 0\n"
            "array A B\n"
            "stmt A = B[s]\n"          /* 0 */
            "loop 3\n"
            "  stmt B = A[s] + B\n"    /* 1, 4, 7 */
            "  loop 2\n"
            "    stmt A = B\n"         /* 2 3, 5 6, 8 9 */
            "  end\n"
            "end\n"
            "stmt B = A * A\n",        /* 10 */
            &s);
    assert_int_equal(s.nstmts, 11);
    static const int lines[11] = { 4, 6, 8, 8, 6, 8, 8, 6, 8, 8, 11 };
    static const char *lhs[11] = { "A", "B", "A", "A", "B", "A", "A", "B", "A", "A", "B" };
    for (int k = 0; k < 11; k++) {
        assert_int_equal(s.stmts[k].line, lines[k]);
        assert_string_equal(s.vectors[s.stmts[k].lhs], lhs[k]);
    }
    for (int k = 4; k <= 7; k += 3) {
        assert_int_equal(s.stmts[k].nnodes, 3);
        assert_true(s.stmts[k].nodes != s.stmts[1].nodes);
        expect_leaf(&s, &s.stmts[k].nodes[0], "A", "s");
        expect_leaf(&s, &s.stmts[k].nodes[1], "B", "");
        expect_op(&s.stmts[k].nodes[2], '+', 0, 1);
    }
    hd_spec_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trees),
        cmocka_unit_test(test_plain_spec),
        cmocka_unit_test(test_loops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
