/*
 * A textbook Monte-Carlo tree search for mctscheck in C (one file, C99,
 * libc and libm only): the search of examples/mcts.py, the same arithmetic
 * in the same order, so that both report the same statistics for the same
 * tree and seed. mctscheck asks it to search whole trees over the search
 * protocol of docs/protocol.md.
 *
 * Build: cc -O2 -o mcts examples/mcts.c -lm
 * Use:   mctscheck check -search exec:'./mcts'
 *        mctscheck check -search exec:'./mcts --bug negamax-sign'
 *
 * The search: from the root, a node with a child not yet in the tree adds
 * the first such child; a node whose children are all in the tree picks by
 * UCT, w/n + C*sqrt(ln N / n) with C = sqrt(2) (--c C), w the rewards from
 * the side of the player who moves into the child; a chance node draws a
 * child by its probabilities. One node is added per simulation, valued by
 * a uniformly random roll-out; the reward is backed up along the path; a
 * virtual loss counted on the way down is taken back; the most visited
 * root child is decided. Random numbers come from splitmix64 seeded with
 * the request's seed. Every node's visits and means are reported.
 *
 * --bug NAME plants a bug, as in examples/mcts.py, whose doc says why the
 * first three are inconsistent and the last two only slow:
 *
 *   fpu-never          a node with a child in the tree never adds another
 *   negamax-sign       the backup takes sides by depth parity, not by who moves
 *   terminal-rollout   a terminal is valued by a roll-out from its parent
 *   virtual-loss-kept  the virtual loss of the descent is never taken back
 *   final-by-mean      the root child with the highest mean is decided
 *
 * six that show only on trees of special shapes, each inconsistent:
 *
 *   open-loop          statistics per sequence of moves: a chance node's outcomes share them
 *   path-free-hash     statistics keyed by depth and move identity, not by the path
 *   alternating-turns  the player to move is taken to alternate (chance nodes pass the turn on)
 *   depth-discount     every reward drawn halfway to 1/2 at each ply below the root's children
 *   win-loss           rewards thresholded to a win (above 1/2), a loss (below) or a draw
 *   widening-cap       a node adds its children in order, never more than four
 *
 * and three that break a promise of the protocol, each a fault of its own
 * kind in mctscheck (docs/protocol.md, "What mctscheck checks of the answers"):
 *
 *   seed-ignored       the generator is seeded from the clock (nondeterministic)
 *   mover-means        means are reported for the player who moves (perspective)
 *   chance-as-max      a chance node picks its child by UCT, as max (chance)
 *
 * Log to stderr: stdout carries the protocol.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { VERSION = 1 };
enum { TERMINAL, MAX, MIN, CHANCE };
enum { BUG_NONE, BUG_FPU_NEVER, BUG_NEGAMAX_SIGN, BUG_TERMINAL_ROLLOUT, BUG_VL_KEPT, BUG_FINAL_BY_MEAN,
       BUG_SEED_IGNORED, BUG_MOVER_MEANS, BUG_CHANCE_AS_MAX,
       BUG_OPEN_LOOP, BUG_PATH_FREE_HASH, BUG_ALTERNATING_TURNS, BUG_DEPTH_DISCOUNT, BUG_WIN_LOSS, BUG_WIDENING_CAP };

static const char *bug_names[] = {"", "fpu-never", "negamax-sign", "terminal-rollout", "virtual-loss-kept", "final-by-mean",
                                  "seed-ignored", "mover-means", "chance-as-max",
                                  "open-loop", "path-free-hash", "alternating-turns", "depth-discount", "win-loss", "widening-cap"};
static int bug = BUG_NONE;
static double uct_c = 1.4142135623730951;

static void die(const char *msg, const char *at) {
	fprintf(stderr, "mcts: %s%s%.40s\n", msg, at ? ": " : "", at ? at : "");
	exit(2);
}

static void *grow(void *p, size_t n) {
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory", NULL);
	return p;
}

/* The tree, in preorder: node i's children are kids[first[i] .. first[i]+nkids[i]);
 * move[i] is the move identity of the edge into node i (its @move, or its index). */
static int nnodes, cap;
static int *kind, *parent, *nkids, *first, *kids, *depth, *move;
static double *reward, *prob;

static int add_node(int k, int par, double p) {
	if (nnodes == cap) {
		cap = cap ? 2 * cap : 64;
		kind = grow(kind, cap * sizeof *kind);
		parent = grow(parent, cap * sizeof *parent);
		reward = grow(reward, cap * sizeof *reward);
		prob = grow(prob, cap * sizeof *prob);
		move = grow(move, cap * sizeof *move);
	}
	kind[nnodes] = k, parent[nnodes] = par, reward[nnodes] = 0, prob[nnodes] = p, move[nnodes] = -1;
	return nnodes++;
}

static const char *skip_space(const char *s) {
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (*s != ';')
			return s;
		while (*s && *s != '\n')
			s++;
	}
}

static int is_delim(char c) { return !c || strchr(" \t\n\r():@~;", c); }

/* parse_node parses an item of the tree format: [prob ':'] tree ['@' move] ['~' prior]. */
static const char *parse_node(const char *s, int par) {
	double p = 0;
	char *end;
	int me = nnodes; /* the node this item adds first */
	s = skip_space(s);
	if (*s != '(') {
		double x = strtod(s, &end);
		if (end == s)
			die("bad tree at", s);
		s = skip_space(end);
		if (*s == ':') /* a probability, then the child */
			p = x, s = skip_space(s + 1);
		else { /* a leaf; add_node may move reward, so it is called first */
			int i = add_node(TERMINAL, par, 0);
			reward[i] = x;
			goto suffix;
		}
	}
	if (*s != '(') {
		double x = strtod(s, &end);
		if (end == s)
			die("bad tree at", s);
		int i = add_node(TERMINAL, par, p);
		reward[i] = x;
		s = end;
		goto suffix;
	}
	{
		int k, i;
		s = skip_space(s + 1);
		if (!strncmp(s, "max", 3))
			k = MAX;
		else if (!strncmp(s, "min", 3))
			k = MIN;
		else if (!strncmp(s, "chance", 6))
			k = CHANCE;
		else
			die("bad node kind at", s);
		i = add_node(k, par, p);
		while (!is_delim(*s))
			s++;
		for (;;) {
			s = skip_space(s);
			if (*s == ')')
				break;
			if (!*s)
				die("unterminated tree", NULL);
			s = parse_node(s, i);
		}
		s++;
	}
suffix:
	for (;;) { /* move identities, and priors: read, not used */
		int at;
		s = skip_space(s);
		if (*s != '@' && *s != '~')
			return s;
		at = *s == '@';
		s = skip_space(s + 1);
		if (at)
			move[me] = (int)strtol(s, NULL, 10);
		while (!is_delim(*s))
			s++;
	}
}

static void parse_tree(const char *text) {
	nnodes = 0;
	parse_node(text, -1);
	nkids = grow(nkids, nnodes * sizeof *nkids);
	first = grow(first, (nnodes + 1) * sizeof *first);
	kids = grow(kids, nnodes * sizeof *kids);
	depth = grow(depth, nnodes * sizeof *depth);
	memset(nkids, 0, nnodes * sizeof *nkids);
	for (int i = 1; i < nnodes; i++)
		nkids[parent[i]]++;
	first[0] = 0;
	for (int i = 0; i < nnodes; i++)
		first[i + 1] = first[i] + nkids[i];
	memset(nkids, 0, nnodes * sizeof *nkids);
	depth[0] = 0;
	for (int i = 1; i < nnodes; i++) { /* preorder: children in order */
		if (move[i] < 0)
			move[i] = nkids[parent[i]];
		kids[first[parent[i]] + nkids[parent[i]]++] = i;
		depth[i] = depth[parent[i]] + 1;
	}
}

/* The search's statistics, by preorder node. The selection reads node i's
 * in sn[key[i]] and sw[key[i]]: n and w themselves, unless a bug shares entries. */
static char *intree, *maxes;
static int64_t *n, *vl, *sn;
static double *w, *sw;
static int *path, *key, *turn;
static uint64_t rng;

static uint64_t next(void) { /* splitmix64 */
	uint64_t z = (rng += 0x9E3779B97F4A7C15u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

static int draw(int i) {
	int *k = kids + first[i], m = nkids[i];
	if (kind[i] == CHANCE) {
		double u = (double)(next() >> 11) * 0x1p-53;
		for (int j = 0; j < m; j++)
			if ((u -= prob[k[j]]) < 0)
				return k[j];
		return k[m - 1];
	}
	return k[((next() >> 32) * (uint64_t)m) >> 32];
}

/* rollout returns the terminal a uniformly random roll-out from i ends at. */
static int rollout(int i) {
	while (kind[i] != TERMINAL)
		i = draw(i);
	return i;
}

static int select_child(int i) {
	int *k = kids + first[i], m = nkids[i], best = -1;
	double cs, best_score = -INFINITY;
	if (bug == BUG_WIDENING_CAP && m > 4)
		m = 4; /* a fixed array of four children */
	for (int j = 0; j < m; j++) {
		if (!intree[k[j]])
			return k[j];
		if (bug == BUG_FPU_NEVER)
			break; /* a child in the tree: no other is ever added */
	}
	cs = uct_c * sqrt(log((double)(sn[key[i]] + vl[i])));
	for (int j = 0; j < m; j++) {
		int c = k[j];
		double ne, score;
		if (!intree[c])
			continue;
		ne = (double)(sn[key[c]] + vl[c]);
		score = sw[key[c]] / ne + cs / sqrt(ne);
		if (score > best_score)
			best = c, best_score = score;
	}
	return best;
}

static void simulate(void) {
	int len = 0, i = 0;
	double r;
	path[len++] = 0;
	while (kind[i] != TERMINAL) {
		i = kind[i] == CHANCE && bug != BUG_CHANCE_AS_MAX ? draw(i) : select_child(i);
		vl[i]++;
		path[len++] = i;
		if (!intree[i]) {
			intree[i] = 1;
			break;
		}
	}
	if (kind[i] != TERMINAL)
		i = rollout(i);
	else if (bug == BUG_TERMINAL_ROLLOUT)
		i = rollout(parent[i]);
	r = reward[i];
	if (bug == BUG_DEPTH_DISCOUNT)
		r = 0.5 + (r - 0.5) * ldexp(1, 1 - depth[i]); /* halfway to 1/2 at each ply below the first */
	else if (bug == BUG_WIN_LOSS)
		r = r > 0.5 ? 1 : r < 0.5 ? 0 : 0.5;
	for (int j = 0; j < len; j++) {
		int x = path[j];
		if (x && bug != BUG_VL_KEPT)
			vl[x]--;
		n[x]++;
		w[x] += maxes[x] ? r : 1 - r;
	}
	if (sn != n) /* shared entries: each one once a simulation */
		for (int j = 0, last = -1; j < len; last = key[path[j]], j++) {
			int x = path[j];
			if (key[x] != last)
				sn[key[x]]++, sw[key[x]] += maxes[x] ? r : 1 - r;
		}
}

/* The answer being written. */
static char *out;
static size_t outlen, outcap;

static void put(const char *fmt, ...) {
	va_list ap;
	for (;;) {
		size_t room = outcap - outlen;
		int m;
		va_start(ap, fmt);
		m = vsnprintf(out + outlen, room, fmt, ap);
		va_end(ap);
		if (m >= 0 && (size_t)m < room) {
			outlen += m;
			return;
		}
		outcap = outcap ? 2 * outcap + m : 4096;
		out = grow(out, outcap);
	}
}

static void put_mean(int i) {
	double m;
	if (n[i] == 0) {
		put("null");
		return;
	}
	m = w[i] / (double)n[i];
	put("%.17g", maxes[i] || bug == BUG_MOVER_MEANS ? m : 1 - m);
}

static void checkpoint(int64_t sims) {
	int *k = kids + first[0], m = nkids[0], best = 0;
	double best_key = -INFINITY;
	for (int j = 0; j < m; j++) {
		double key = (double)n[k[j]];
		if (bug == BUG_FINAL_BY_MEAN)
			key = n[k[j]] ? w[k[j]] / (double)n[k[j]] : -INFINITY;
		if (key > best_key)
			best = j, best_key = key;
	}
	outlen = 0;
	put("{\"sims\":%lld,\"decision\":%d,\"visits\":[", (long long)sims, best);
	for (int j = 0; j < m; j++)
		put("%s%lld", j ? "," : "", (long long)n[k[j]]);
	put("],\"means\":[");
	for (int j = 0; j < m; j++) {
		put(j ? "," : "");
		put_mean(k[j]);
	}
	put("],\"node_visits\":[");
	for (int i = 0; i < nnodes; i++)
		put("%s%lld", i ? "," : "", (long long)n[i]);
	put("],\"node_means\":[");
	for (int i = 0; i < nnodes; i++) {
		put(i ? "," : "");
		put_mean(i);
	}
	put("]}\n");
	fwrite(out, 1, outlen, stdout);
	fflush(stdout);
}

/* share sets the entry key[i] of each node's statistics: its own, unless a bug
 * shares entries, found in a hash table of (parent's entry, move) for
 * open-loop and (depth, move) for path-free-hash. */
static void share(void) {
	static int64_t *shared_n;
	static double *shared_w;
	static int *table, *ta, *tb, size;
	int slots = 1;
	key = grow(key, nnodes * sizeof *key);
	sn = n, sw = w;
	for (int i = 0; i < nnodes; i++)
		key[i] = i;
	if (bug != BUG_OPEN_LOOP && bug != BUG_PATH_FREE_HASH)
		return;
	sn = shared_n = grow(shared_n, nnodes * sizeof *sn), sw = shared_w = grow(shared_w, nnodes * sizeof *sw);
	memset(sn, 0, nnodes * sizeof *sn), memset(sw, 0, nnodes * sizeof *sw);
	for (size = 16; size < 2 * nnodes; size *= 2)
		;
	table = grow(table, size * sizeof *table), ta = grow(ta, nnodes * sizeof *ta), tb = grow(tb, nnodes * sizeof *tb);
	memset(table, -1, size * sizeof *table);
	for (int i = 1; i < nnodes; i++) { /* preorder: a node's parent first */
		int p = parent[i], a = bug == BUG_OPEN_LOOP ? key[p] : depth[i], h;
		if (bug == BUG_OPEN_LOOP && kind[p] == CHANCE) {
			key[i] = key[p]; /* the chance outcomes are not told apart */
			continue;
		}
		h = (int)(((uint64_t)a * 0x9E3779B97F4A7C15u ^ (uint64_t)move[i] * 0xBF58476D1CE4E5B9u) >> 40) & (size - 1);
		while (table[h] >= 0 && (ta[table[h]] != a || tb[table[h]] != move[i]))
			h = (h + 1) & (size - 1);
		if (table[h] < 0)
			table[h] = slots, ta[slots] = a, tb[slots] = move[i], slots++;
		key[i] = table[h];
	}
}

static void search(uint64_t seed, const int64_t *cps, int ncps) {
	int64_t sims = 0;
	intree = grow(intree, nnodes), maxes = grow(maxes, nnodes);
	n = grow(n, nnodes * sizeof *n), vl = grow(vl, nnodes * sizeof *vl);
	w = grow(w, nnodes * sizeof *w), path = grow(path, (nnodes + 1) * sizeof *path);
	memset(intree, 0, nnodes), memset(n, 0, nnodes * sizeof *n), memset(vl, 0, nnodes * sizeof *vl);
	memset(w, 0, nnodes * sizeof *w);
	turn = grow(turn, nnodes * sizeof *turn);
	maxes[0] = 1, turn[0] = kind[0];
	for (int i = 1; i < nnodes; i++) {
		int p = parent[i]; /* turn: who moves, as if turns alternated (a chance node passes the turn on) */
		turn[i] = kind[p] == CHANCE ? turn[p] : turn[p] == MAX ? MIN : MAX;
		if (bug == BUG_NEGAMAX_SIGN)
			maxes[i] = depth[p] % 2 == 0; /* as if turns alternated */
		else if (bug == BUG_ALTERNATING_TURNS && kind[p] != CHANCE)
			maxes[i] = turn[p] != MIN;
		else
			maxes[i] = kind[p] != MIN;
	}
	intree[0] = 1;
	share();
	rng = seed;
	if (bug == BUG_SEED_IGNORED) {
		struct timespec now;
		timespec_get(&now, TIME_UTC);
		rng = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	}
	for (int c = 0; c < ncps; c++) {
		for (; sims < cps[c]; sims++)
			simulate();
		checkpoint(sims);
	}
}

/* A little JSON: the request is an object of a string "tree", a string "seed"
 * (decimal) and an array of integers "checkpoints"; other keys are skipped. */
static const char *jspace(const char *s) {
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	return s;
}

/* jstring reads a JSON string at s into a malloc'ed *dst (escapes \" \\ \/ \n \t, and \u00XX). */
static const char *jstring(const char *s, char **dst) {
	size_t len = 0;
	char *d;
	if (*s != '"')
		die("want a JSON string at", s);
	d = grow(NULL, strlen(s));
	for (s++; *s != '"'; s++) {
		if (!*s)
			die("unterminated JSON string", NULL);
		if (*s == '\\') {
			s++;
			switch (*s) {
			case 'n': d[len++] = '\n'; break;
			case 't': d[len++] = '\t'; break;
			case 'u': d[len++] = (char)strtol((char[]){s[1], s[2], s[3], s[4], 0}, NULL, 16), s += 4; break;
			default: d[len++] = *s;
			}
		} else
			d[len++] = *s;
	}
	d[len] = 0;
	if (dst)
		*dst = d;
	else
		free(d);
	return s + 1;
}

/* jskip skips any JSON value. */
static const char *jskip(const char *s) {
	int deep = 0;
	do {
		s = jspace(s);
		if (*s == '"')
			s = jstring(s, NULL);
		else if (*s == '{' || *s == '[')
			deep++, s++;
		else if (*s == '}' || *s == ']')
			deep--, s++;
		else if (*s == ',' || *s == ':')
			s++;
		else if (!*s)
			die("truncated JSON", NULL);
		else
			while (*s && !strchr(",:]} \t\r\n", *s))
				s++;
	} while (deep > 0);
	return s;
}

/* jints reads a JSON array of integers into a malloc'ed *dst. */
static const char *jints(const char *s, int64_t **dst, int *len) {
	int cap = 16;
	*dst = grow(NULL, cap * sizeof **dst), *len = 0;
	if (*(s = jspace(s)) != '[')
		die("want a JSON array at", s);
	for (s = jspace(s + 1); *s != ']'; s = jspace(s)) {
		char *end;
		if (*len == cap)
			*dst = grow(*dst, (cap *= 2) * sizeof **dst);
		(*dst)[(*len)++] = strtoll(s, &end, 10);
		if (end == s)
			die("want an integer at", s);
		s = jspace(end);
		if (*s == ',')
			s++;
	}
	return s + 1;
}

int main(int argc, char **argv) {
	char *line = NULL, *tree = NULL, *seed = NULL;
	size_t size = 0;
	int64_t *cps = NULL;
	int ncps = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--bug") && i + 1 < argc) {
			bug = -1;
			for (int b = 1; b < (int)(sizeof bug_names / sizeof *bug_names); b++)
				if (!strcmp(argv[i + 1], bug_names[b]))
					bug = b;
			if (bug < 0)
				die("unknown bug", argv[i + 1]);
			i++;
		} else if (!strcmp(argv[i], "--c") && i + 1 < argc)
			uct_c = strtod(argv[++i], NULL);
		else
			die("usage: mcts [--bug NAME] [--c C], NAME one of the bugs of the file's doc; unknown argument", argv[i]);
	}
	if (getline(&line, &size, stdin) < 0)
		return 1;
	{ /* the hello: the versions offered must include ours */
		const char *v = strstr(line, "\"versions\"");
		int64_t *vs;
		int nv, ok = 0;
		if (!v)
			die("a hello without versions", line);
		jints(jspace(strchr(v, ':') + 1), &vs, &nv);
		for (int i = 0; i < nv; i++)
			ok |= vs[i] == VERSION;
		if (!ok)
			die("mctscheck does not offer search protocol version 1", line);
		free(vs);
	}
	printf("{\"version\":%d,\"nodes\":true,\"name\":\"examples/mcts.c%s%s\"}\n", VERSION, bug ? " --bug " : "", bug_names[bug]);
	fflush(stdout);
	while (getline(&line, &size, stdin) > 0) {
		const char *s = jspace(line);
		if (*s != '{')
			die("want a JSON object", s);
		for (s = jspace(s + 1); *s != '}'; s = jspace(s)) {
			char *key;
			s = jspace(jstring(s, &key));
			if (*s != ':')
				die("want ':' at", s);
			s = jspace(s + 1);
			if (!strcmp(key, "tree"))
				free(tree), s = jstring(s, &tree);
			else if (!strcmp(key, "seed"))
				free(seed), s = jstring(s, &seed);
			else if (!strcmp(key, "checkpoints"))
				free(cps), s = jints(s, &cps, &ncps);
			else
				s = jskip(s);
			free(key);
			s = jspace(s);
			if (*s == ',')
				s++;
		}
		if (!tree || !seed || !cps)
			die("a request without tree, seed or checkpoints", line);
		parse_tree(tree);
		search(strtoull(seed, NULL, 10), cps, ncps);
	}
	return 0;
}
