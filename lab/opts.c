/* SPDX-License-Identifier: BSD-2-Clause */
#include "lab/opts.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/clock.h"
#include "common/cpu.h"
#include "common/tests.h"
#include "common/units.h"
#include "lab/dev.h"
#include "proto/msg.h"

enum kind { K_FLAG, K_STR, K_UINT, K_LIST };

struct desc {
	char sc;
	const char *lname;
	enum kind kind;
	const char *meta, *def;
	uint64_t max;
	const char *help;
	size_t off;
};

static const struct desc descs[] = {
#define XP_LAB_OPT(field, sc, lname, kind, meta, def, max, help) \
	{ sc, lname, K_##kind, meta, def, max, help, offsetof(struct xp_lab_args, field) },
#include "lab/lab_opts.def"
#undef XP_LAB_OPT
};

#define NDESCS (sizeof(descs) / sizeof(descs[0]))

static int set(struct xp_lab_args *a, const struct desc *d, const char *v,
	       struct xp_err *err)
{
	void *p = (char *)a + d->off;
	struct xp_lab_list *l = p;
	char what[48];

	snprintf(what, sizeof(what), "--%s", d->lname);
	switch (d->kind) {
	case K_FLAG:
		*(int *)p = 1;
		return 0;
	case K_STR:
		if (!*v)
			return xp_err_set(err, "%s: empty argument", what);
		*(const char **)p = v;
		return 0;
	case K_UINT:
		return xp_parse_uint(v, 0, d->max, what, (uint64_t *)p, err);
	case K_LIST:
		if (l->n >= XP_LAB_SYSCTL_MAX)
			return xp_err_set(err, "%s: at most %d times", what, XP_LAB_SYSCTL_MAX);
		l->v[l->n++] = v;
		return 0;
	}
	return xp_err_set(err, "%s: internal: bad kind", what);
}

static void defaults(struct xp_lab_args *a)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < NDESCS; i++)
		if (descs[i].def && set(a, &descs[i], descs[i].def, NULL))
			abort(); /* a bad default is a build bug, caught by tests */
}

/* The scanner's table: the lab's options (rows 0 .. NDESCS - 1), then the
 * test options without those the lab's replace (-t, -h). */
static size_t scan_table(struct xp_argdef *defs, size_t cap)
{
	size_t i, k, n;

	for (i = 0; i < NDESCS; i++) {
		defs[i].sc = descs[i].sc;
		defs[i].lname = descs[i].lname;
		defs[i].has = descs[i].kind == K_FLAG ? XP_ARG_NONE : XP_ARG_REQ;
	}
	n = NDESCS + xp_opts_argdefs(defs + NDESCS, cap - NDESCS);
	for (i = NDESCS; i < n; i++)
		for (k = 0; k < NDESCS; k++) {
			if (defs[i].lname && !strcmp(defs[i].lname, descs[k].lname))
				defs[i].lname = NULL;
			if (defs[i].sc == descs[k].sc)
				defs[i].sc = 0;
		}
	return n;
}

/* Words first..last of argv belong to the lab ('L') or pass ('P'); a word
 * that holds both ("-Nt") cannot be split. */
static int own(char *owner, int first, int last, char who, char **argv, struct xp_err *err)
{
	int w;

	for (w = first; w <= last; w++) {
		if (owner[w] && owner[w] != who)
			return xp_err_set(err, "'%s' holds lab and test options: give them apart",
					  argv[w]);
		owner[w] = who;
	}
	return 0;
}

/* Lab options out of argv, read as every mode reads its options (common/
 * argscan.h: anywhere, prefixes, "--"); the words of the test options are
 * kept, in order and as given, for the main parser. */
static int split(struct xp_lab_cfg *c, int argc, char **argv, char *owner,
		 struct xp_err *err)
{
	struct xp_argdef defs[NDESCS + XP_OPT_COUNT];
	size_t n = scan_table(defs, NDESCS + XP_OPT_COUNT);
	struct xp_argscan s;
	const char *val;
	int k, w, before;

	xp_argscan_init(&s, argc, argv);
	for (;;) {
		before = s.cluster ? s.i - 1 : s.i;
		k = xp_argscan_next(&s, defs, n, &val, err);
		if (k == XP_ARGS_END)
			break;
		if (k == XP_ARGS_ERROR)
			return -1;
		if (k == XP_ARGS_OPERAND)
			return xp_err_set(err, "unexpected argument '%s'", val);
		if ((size_t)k < NDESCS)
			c->given[k] = 1;
		if (own(owner, before, s.i - 1, (size_t)k < NDESCS ? 'L' : 'P', argv, err) ||
		    ((size_t)k < NDESCS && set(&c->a, &descs[k], val ? val : "", err)))
			return -1;
	}
	for (w = 1; w < argc; w++) {
		if (owner[w] != 'P')
			continue;
		if (c->npass >= XP_LAB_ARGS_MAX - 4)
			return xp_err_set(err, "too many arguments");
		c->pass[c->npass++] = argv[w];
	}
	return 0;
}

/* Split a comma list into the shared storage; NULL-free, no empties. */
static int list(struct xp_lab_cfg *c, size_t *used, const char *s, const char *what,
		char **out, int cap, struct xp_err *err)
{
	size_t len = strlen(s) + 1;
	char *p, *save = NULL, *tok;
	int n = 0;

	if (*used + len > sizeof(c->lists))
		return xp_err_set(err, "%s: list too long", what);
	p = memcpy(c->lists + *used, s, len);
	*used += len;
	if (!*s || s[len - 2] == ',' || *s == ',' || strstr(s, ",,"))
		return xp_err_set(err, "%s: empty item in '%s'", what, s);
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= cap)
			return xp_err_set(err, "%s: at most %d items", what, cap);
		out[n++] = tok;
	}
	return n;
}

static int topologies(struct xp_lab_cfg *c, size_t *used, struct xp_err *err)
{
	char *names[XP_LAB_TOPOS_MAX];
	int n = list(c, used, c->a.topology, "--topology", names, XP_LAB_TOPOS_MAX, err);
	int i;

	for (i = 0; i < n; i++)
		if (!(c->topo[i] = xp_lab_topo_find(names[i])))
			return xp_err_set(err, "--topology: unknown topology '%s' (veth, bridge, "
					  "macvlan, ipvlan, ipvlan-l3, vxlan)", names[i]);
	c->ntopo = n;
	return n < 0 ? -1 : 0;
}

/* Each test gets the full main parser over the pass-through options. */
static int tests(struct xp_lab_cfg *c, size_t *used, struct xp_err *err)
{
	char *names[XP_LAB_TESTS_MAX], *argv[XP_LAB_ARGS_MAX];
	int n = list(c, used, c->a.test, "-t", names, XP_LAB_TESTS_MAX, err);
	int i, argc;

	for (i = 0; i < n; i++) {
		struct xp_opts *o = &c->opts[i];

		argv[0] = "xperf lab";
		memcpy(argv + 1, c->pass, sizeof(char *) * (size_t)c->npass);
		argc = c->npass + 1;
		argv[argc++] = "-t";
		argv[argc++] = names[i];
		argv[argc] = NULL;
		if (xp_opts_parse_flags(o, argc, argv, XP_OPTS_MATRIX, err))
			return -1;
		if (o->test == XP_RRUL)
			return xp_err_set(err, "-t RRUL is not a lab test (its report is its own, "
					  "not a row): run it over the lab's path with --exec");
		if (o->server || o->client)
			return xp_err_set(err, "%s does not apply: the lab runs its own server "
					  "and client", o->server ? "-s" : "-c");
		if ((o->interval && !c->a.client_json) || o->json_stream || o->slo ||
		    o->histogram || o->sweep.n || o->csv || o->plot || o->logfile || o->format ||
		    o->one_way || o->kernel_ts)
			return xp_err_set(err, "-i (but with --client-json), --json-stream, --slo, "
					  "--histogram, --sweep, --csv, --logfile, -f, --one-way, "
					  "--kernel-timestamps and the test's --plot are not supported "
					  "by xperf lab (its report is the comparison table; lab --plot "
					  "draws it)");
	}
	c->ntests = n;
	return n < 0 ? -1 : 0;
}

static int mask(const char *s, const char *what, struct xp_err *err)
{
	if (s && (!*s || strlen(s) > 64 || strspn(s, "0123456789abcdefABCDEF,") != strlen(s)))
		return xp_err_set(err, "%s: '%s' is not a hex CPU mask (e.g. 3, ff, "
				  "ffffffff,ffffffff)", what, s);
	return 0;
}

static int sysctls(struct xp_lab_cfg *c, struct xp_err *err)
{
	const struct xp_lab_list *l = &c->a.sysctl;
	int i;

	for (i = 0; i < l->n; i++) {
		const char *eq = strchr(l->v[i], '=');
		char key[96];

		if (!eq || eq == l->v[i])
			return xp_err_set(err, "--sysctl '%s': want KEY=VALUE", l->v[i]);
		if ((size_t)(eq - l->v[i]) >= sizeof(key) || strlen(eq + 1) >= 160 ||
		    strchr(eq, '\n'))
			return xp_err_set(err, "--sysctl '%s': too long", l->v[i]);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - l->v[i]), l->v[i]);
		if (xp_lab_sysctl_check(key, err))
			return -1;
		c->knobs.sysctl[i] = l->v[i];
	}
	c->knobs.nsysctl = l->n;
	return 0;
}

/* --spare-tcp and --cut-after: what only the delay line does (it is
 * chosen for them where auto would take netem). */
static int line_only(struct xp_lab_cfg *c, struct xp_err *err)
{
	struct xp_wan *w = &c->knobs.wan;
	const char *opt = c->a.spare_tcp ? "--spare-tcp" : "--cut-after";

	if (!c->a.spare_tcp && !c->a.cut_after)
		return 0;
	if (w->with == XP_WAN_NETEM)
		return xp_err_set(err, "%s: only xperf's delay line does this, not netem "
				  "(--impair-with line or auto)", opt);
	w->on = 1;
	w->with = XP_WAN_LINE;
	w->cut_ns = c->a.cut_after * XP_NS_PER_MS;
	w->d[XP_WAN_C2S].spare_tcp = w->d[XP_WAN_S2C].spare_tcp = c->a.spare_tcp;
	return 0;
}

/* The impairment, the topologies it fits and the delay line's CPU. */
static int wan(struct xp_lab_cfg *c, struct xp_err *err)
{
	const struct xp_lab_args *a = &c->a;
	struct xp_wan_args w = { a->delay, a->jitter, a->loss, a->reorder, a->duplicate,
				 a->link_rate, a->queue_limit, a->impair_with, a->seed };
	int cpus[XP_CPUS_MAX], n = xp_cpu_allowed(cpus, XP_CPUS_MAX), i;
	uint64_t cpu;

	if (xp_wan_parse(&c->knobs.wan, &w, err) || line_only(c, err))
		return -1;
	for (i = 0; c->knobs.wan.on && i < c->ntopo; i++)
		if (strcmp(c->topo[i]->name, "veth"))
			return xp_err_set(err, "--topology %s: impairment (--delay, --loss ...) "
					  "applies to the veth topology only", c->topo[i]->name);
	c->knobs.line_cpu = n > 0 ? cpus[n - 1] : -1;
	if (!a->line_cpu)
		return 0;
	if (xp_parse_uint(a->line_cpu, 0, XP_CPUS_MAX - 1, "--line-cpu", &cpu, err))
		return -1;
	c->knobs.line_cpu = (int)cpu;
	return xp_cpu_check(&c->knobs.line_cpu, 1, "--line-cpu", err);
}

/* --line-between runs no lab: the lab's other options, and the tests',
 * do not apply (--json, the impairment, --seed and --line-cpu do). */
static int between(const struct xp_lab_cfg *c, struct xp_err *err)
{
	static const int none[] = { XP_LAB_OPT_topology, XP_LAB_OPT_test, XP_LAB_OPT_multi,
		XP_LAB_OPT_mtu, XP_LAB_OPT_rps, XP_LAB_OPT_xps, XP_LAB_OPT_sysctl,
		XP_LAB_OPT_offload, XP_LAB_OPT_egress_rate, XP_LAB_OPT_qdisc,
		XP_LAB_OPT_line_calibrate, XP_LAB_OPT_exec, XP_LAB_OPT_exec_timeout,
		XP_LAB_OPT_plot, XP_LAB_OPT_dry_run, XP_LAB_OPT_cleanup };
	size_t i;
	int k;

	if (!c->a.line_between)
		return c->given[XP_LAB_OPT_line_for] ?
		       xp_err_set(err, "--line-for goes with --line-between") : 0;
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (c->given[none[i]])
			return xp_err_set(err, "--%s does not apply to --line-between (it runs "
					  "no lab)", descs[none[i]].lname);
	for (k = 0; k < c->npass; k++)
		if (strcmp(c->pass[k], "--json"))
			return xp_err_set(err, "'%s' does not apply to --line-between: it runs "
					  "no test (--json does)", c->pass[k]);
	if (!strcmp(c->a.impair_with, "netem"))
		return xp_err_set(err, "--impair-with netem does not apply to --line-between: "
				  "that is xperf's delay line (tc qdisc add ... netem does it "
				  "on a device)");
	return 0;
}

static int knobs(struct xp_lab_cfg *c, struct xp_err *err)
{
	struct xp_lab_knobs *k = &c->knobs;
	int f;

	for (f = 0; f < XP_OFF_COUNT; f++)
		k->offload[f] = -1;
	if (c->a.mtu && c->a.mtu < 68)
		return xp_err_set(err, "--mtu: at least 68, not %llu",
				  (unsigned long long)c->a.mtu);
	k->mtu = (uint32_t)c->a.mtu;
	if (mask(c->a.rps, "--rps", err) || mask(c->a.xps, "--xps", err))
		return -1;
	k->rps = c->a.rps;
	k->xps = c->a.xps;
	if (c->a.offload && xp_lab_parse_offload(c->a.offload, k->offload, err))
		return -1;
	if (c->a.egress_rate && xp_lab_parse_rate(c->a.egress_rate, &k->rate_bps, err))
		return -1;
	if (strcmp(c->a.qdisc, "tbf") && strcmp(c->a.qdisc, "htb"))
		return xp_err_set(err, "--qdisc: tbf or htb, not '%s'", c->a.qdisc);
	k->qdisc = strcmp(c->a.qdisc, "htb") ? XP_QDISC_TBF : XP_QDISC_HTB;
	if (between(c, err))
		return -1;
	if (c->given[XP_LAB_OPT_exec_timeout] && !c->a.exec)
		return xp_err_set(err, "--exec-timeout goes with --exec");
	if (c->a.exec && (!*c->a.exec || !c->a.exec_timeout))
		return xp_err_set(err, "--exec: %s", *c->a.exec ? "--exec-timeout must be at least 1"
								 : "empty command");
	return sysctls(c, err) || wan(c, err) ? -1 : 0;
}

int xp_lab_parse(struct xp_lab_cfg *c, int argc, char **argv, struct xp_err *err)
{
	size_t used = 0;

	char *owner = calloc((size_t)argc + 1, 1);
	int rc;

	memset(c, 0, sizeof(*c));
	defaults(&c->a);
	if (!owner)
		return xp_err_set(err, "out of memory");
	rc = split(c, argc, argv, owner, err);
	free(owner);
	if (rc)
		return -1;
	if (c->a.help)
		return 0;
	if (topologies(c, &used, err) || tests(c, &used, err))
		return -1;
	return knobs(c, err);
}

int xp_lab_parse_rate(const char *s, uint64_t *bps, struct xp_err *err)
{
	return xp_wan_parse_rate(s, "--egress-rate", bps, err);
}

static int offload_item(const char *name, int on, int *offload)
{
	static const char *const names[] = { "gro", "gso", "tso", "tx", "rx" };
	int f, hit = 0;

	for (f = 0; f < XP_OFF_COUNT; f++)
		if (!strcmp(name, "all") || !strcmp(name, names[f]) ||
		    (!strcmp(name, "csum") && (f == XP_OFF_TXCSUM || f == XP_OFF_RXCSUM))) {
			offload[f] = on;
			hit = 1;
		}
	return hit ? 0 : -1;
}

int xp_lab_parse_offload(const char *s, int *offload, struct xp_err *err)
{
	char buf[128], *save = NULL, *tok;

	if (strlen(s) >= sizeof(buf))
		return xp_err_set(err, "--offload: too long");
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		int on;

		if (!eq || (strcmp(eq + 1, "on") && strcmp(eq + 1, "off")))
			return xp_err_set(err, "--offload: '%s': want NAME=on or NAME=off", tok);
		*eq = 0;
		on = !strcmp(eq + 1, "on");
		if (offload_item(tok, on, offload))
			return xp_err_set(err, "--offload: unknown offload '%s' (gro, gso, tso, "
					  "tx, rx, csum, all)", tok);
	}
	return 0;
}

void xp_lab_usage(FILE *f)
{
	const struct xp_lab_topo *t;
	size_t i;

	fprintf(f, "usage: xperf lab [lab options] [test options]\n"
		   "Builds network namespaces joined by the chosen topologies (root only),\n"
		   "runs an xperf server in one and the client in another, prints one\n"
		   "comparison table (or --json) and removes everything it made.\n\n"
		   "Lab options:\n");
	for (i = 0; i < NDESCS; i++) {
		char left[64];

		if (descs[i].sc)
			snprintf(left, sizeof(left), "  -%c, --%s%s%s", descs[i].sc,
				 descs[i].lname, descs[i].meta ? " " : "",
				 descs[i].meta ? descs[i].meta : "");
		else
			snprintf(left, sizeof(left), "      --%s%s%s", descs[i].lname,
				 descs[i].meta ? " " : "", descs[i].meta ? descs[i].meta : "");
		fprintf(f, "%-28s %s", left, descs[i].help);
		if (descs[i].def && strcmp(descs[i].def, "0"))
			fprintf(f, " [%s]", descs[i].def);
		fputc('\n', f);
	}
	fprintf(f, "\nTopologies:\n");
	for (t = xp_lab_topos(); t->name; t++)
		fprintf(f, "  %-10s %s\n", t->name, t->what);
	fprintf(f, "\nTest options (see xperf --help) pass through to every test: -l, -m, -M,\n"
		   "-P (RR tests), -T, -w, --nodelay, -6, --json ...  Exit status: 0 every row\n"
		   "measured, 1 a row failed or is unsupported here (or no root, or\n"
		   "interrupted), 2 usage error.\n");
}
