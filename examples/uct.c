/*
 * A selection rule for mctscheck in C (one file, C99, libc and libm only).
 *
 * mctscheck starts this program and asks it to choose children over the
 * binary framing of the protocol in docs/protocol.md. It implements:
 *
 *   uct [C]          V + C*sqrt(ln n(F) / n), unvisited children first, with
 *                    the arithmetic of mctscheck's own uct (same choices);
 *                    C defaults to sqrt(2).
 *   eps-greedy [EPS] with probability EPS a uniform child, else the greedy
 *                    mean (unvisited first), drawing from the site's seed
 *                    with splitmix64 as examples/uct.py does; it declares its
 *                    probabilities. EPS defaults to 0.2.
 *   trivial          reads every site and answers child 0: the cost of the
 *                    pipe itself, for mctscheck's benchmark.
 *
 * Build: cc -O2 -ffp-contract=off -o uct examples/uct.c -lm
 * Use:   mctscheck check -rule exec:'./uct uct'
 *
 * -ffp-contract=off keeps w*(1/n) + cs*(1/sqrt(n)) two rounded products and
 * a rounded sum, as mctscheck computes them, on machines with fused
 * multiply-add.
 */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VERSION = 1, HEAD = 64 };
enum { RULE_UCT, RULE_EPS, RULE_TRIVIAL };

static int rule = RULE_UCT;
static double param = 0;

static uint32_t get32(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p) {
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static double getf(const unsigned char *p) {
	uint64_t u = get64(p);
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

static void put32(unsigned char *p, uint32_t v) {
	p[0] = v, p[1] = v >> 8, p[2] = v >> 16, p[3] = v >> 24;
}

static void putf(unsigned char *p, double d) {
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	put32(p, (uint32_t)u);
	put32(p + 4, (uint32_t)(u >> 32));
}

/* uct is core.UCT's choice; n and w point at k little-endian doubles. */
static int uct(uint32_t k, const unsigned char *n, const unsigned char *w, double ln, double c) {
	double cs = c * sqrt(ln), best_score = -INFINITY;
	int best = 0;
	for (uint32_t i = 0; i < k; i++) {
		double ni = getf(n + 8 * i), wi = getf(w + 8 * i), score;
		if (ni == 0)
			return (int)i;
		if (ni < 0x1p-512 || ni > 0x1p512)
			score = wi / ni + cs / sqrt(ni);
		else {
			double a = wi * (1 / ni), b = cs * (1 / sqrt(ni));
			score = a + b;
		}
		if (score > best_score)
			best = (int)i, best_score = score;
	}
	return best;
}

static int greedy(uint32_t k, const unsigned char *n, const unsigned char *w) {
	double best_v = -INFINITY;
	int best = 0;
	for (uint32_t i = 0; i < k; i++) {
		double ni = getf(n + 8 * i), v;
		if (ni == 0)
			return (int)i;
		v = getf(w + 8 * i) / ni;
		if (v > best_v)
			best = (int)i, best_v = v;
	}
	return best;
}

static uint64_t splitmix64(uint64_t *x) {
	uint64_t z = (*x += 0x9E3779B97F4A7C15u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

static int eps_greedy(uint32_t k, const unsigned char *n, const unsigned char *w, uint64_t seed, double eps) {
	if ((double)(splitmix64(&seed) >> 11) * 0x1p-53 < eps)
		return (int)(((splitmix64(&seed) >> 32) * k) >> 32);
	return greedy(k, n, w);
}

static void die(const char *msg) {
	fprintf(stderr, "uct.c: %s\n", msg);
	exit(1);
}

static void read_all(void *p, size_t size) {
	if (fread(p, 1, size, stdin) != size) {
		if (feof(stdin))
			exit(0); /* mctscheck closed our input: done */
		die("read error");
	}
}

int main(int argc, char **argv) {
	const char *name = argc > 1 ? argv[1] : "uct";
	char line[4096];
	if (strcmp(name, "uct") == 0)
		rule = RULE_UCT, param = argc > 2 ? atof(argv[2]) : sqrt(2);
	else if (strcmp(name, "eps-greedy") == 0)
		rule = RULE_EPS, param = argc > 2 ? atof(argv[2]) : 0.2;
	else if (strcmp(name, "trivial") == 0)
		rule = RULE_TRIVIAL;
	else
		die("usage: uct [uct [C] | eps-greedy [EPS] | trivial]");

	/* The handshake: mctscheck's hello line, then ours. */
	if (!fgets(line, sizeof line, stdin))
		die("no hello");
	if (!strstr(line, "\"versions\":[1"))
		die("mctscheck does not offer protocol version 1");
	printf("{\"version\":%d,\"framing\":\"binary\",\"seed\":%s,\"probs\":%s,\"name\":\"examples/uct.c %s\"}\n",
	       VERSION, rule == RULE_EPS ? "true" : "false", rule == RULE_EPS ? "true" : "false", name);
	fflush(stdout);

	unsigned char *in = NULL, *out = NULL;
	size_t in_cap = 0, out_cap = 0;
	for (;;) {
		unsigned char head[8];
		read_all(head, 8);
		uint32_t count = get32(head), size = get32(head + 4);
		if (size > in_cap) {
			in_cap = size;
			in = realloc(in, in_cap);
			if (!in)
				die("out of memory");
		}
		read_all(in, size);
		/* At most 8 bytes per child per site, plus the count. */
		size_t need = 4 + (size_t)size;
		if (need > out_cap) {
			out_cap = need;
			out = realloc(out, out_cap);
			if (!out)
				die("out of memory");
		}
		size_t at = 0, o = 4;
		put32(out, count);
		for (uint32_t s = 0; s < count; s++) {
			const unsigned char *site = in + at;
			uint32_t k = get32(site);
			int op = site[8];
			uint64_t seed = get64(site + 24);
			double ln = getf(site + 56);
			const unsigned char *n = site + HEAD, *w = n + 8 * (size_t)k;
			at += HEAD + 24 * (size_t)k; /* n, w and the real visits v */
			if (op == 1) { /* probs: only eps-greedy declares them */
				int g = greedy(k, n, w);
				for (uint32_t i = 0; i < k; i++)
					putf(out + o + 8 * i, param / k + (i == (uint32_t)g ? 1 - param : 0));
				o += 8 * (size_t)k;
				continue;
			}
			int choice = 0;
			if (rule == RULE_UCT)
				choice = uct(k, n, w, ln, param);
			else if (rule == RULE_EPS)
				choice = eps_greedy(k, n, w, seed, param);
			put32(out + o, (uint32_t)choice);
			o += 4;
		}
		if (fwrite(out, 1, o, stdout) != o || fflush(stdout) != 0)
			exit(0); /* mctscheck has gone */
	}
}
