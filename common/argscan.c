/* SPDX-License-Identifier: BSD-2-Clause */
/* The command-line scanner (common/argscan.h). */
#include "common/argscan.h"

#include <stdio.h>
#include <string.h>

#define AMBIGUOUS_SHOWN 4

void xp_argscan_init(struct xp_argscan *s, int argc, char **argv)
{
	memset(s, 0, sizeof(*s));
	s->argc = argc;
	s->argv = argv;
	s->i = 1;
}

/* "--s" matching several options: name a few of them. */
static int ambiguous(const struct xp_argdef *defs, size_t n, const char *name, size_t len,
		     struct xp_err *err)
{
	char list[160];
	size_t i, off = 0;
	int shown = 0;

	list[0] = 0;
	for (i = 0; i < n && off < sizeof(list); i++) {
		if (!defs[i].lname || strncmp(defs[i].lname, name, len))
			continue;
		if (shown++ == AMBIGUOUS_SHOWN) {
			snprintf(list + off, sizeof(list) - off, " ...");
			break;
		}
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s--%s",
					shown > 1 ? ", " : "", defs[i].lname);
	}
	return xp_err_set(err, "option '--%.*s' is ambiguous (%s)", (int)len, name, list);
}

/* The row named name[0, len): exact, or the only one it is a prefix of. */
static int by_name(const struct xp_argdef *defs, size_t n, const char *name, size_t len,
		   struct xp_err *err)
{
	size_t i;
	int hit = -1, hits = 0;

	for (i = 0; i < n; i++) {
		if (!defs[i].lname || strncmp(defs[i].lname, name, len))
			continue;
		if (defs[i].lname[len] == '\0')
			return (int)i;
		hit = (int)i;
		hits++;
	}
	if (hits == 1 && len > 0)
		return hit;
	if (hits > 1 && len > 0)
		return ambiguous(defs, n, name, len, err), XP_ARGS_ERROR;
	return xp_err_set(err, "unknown option '--%.*s'", (int)len, name), XP_ARGS_ERROR;
}

/* argv[s->i - 1] was "--name[=value]". */
static int long_opt(struct xp_argscan *s, const char *word, const struct xp_argdef *defs,
		    size_t n, const char **val, struct xp_err *err)
{
	const char *name = word + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int k = by_name(defs, n, name, len, err);

	if (k < 0)
		return k;
	*val = eq ? eq + 1 : NULL;
	if (defs[k].has == XP_ARG_NONE && eq)
		return xp_err_set(err, "option '--%.*s' takes no argument", (int)len, name),
		       XP_ARGS_ERROR;
	if (defs[k].has == XP_ARG_REQ && !eq) {
		if (s->i >= s->argc)
			return xp_err_set(err, "option '--%.*s' needs an argument", (int)len, name),
			       XP_ARGS_ERROR;
		*val = s->argv[s->i++];
	}
	return k;
}

/* The next letter of the current "-abc" word. */
static int short_opt(struct xp_argscan *s, const struct xp_argdef *defs, size_t n,
		     const char **val, struct xp_err *err)
{
	char c = *s->cluster++;
	size_t i;

	for (i = 0; i < n; i++)
		if (defs[i].sc && defs[i].sc == c)
			break;
	if (i == n) {
		s->cluster = NULL;
		return xp_err_set(err, "unknown option '-%c'", c), XP_ARGS_ERROR;
	}
	*val = NULL;
	if (defs[i].has != XP_ARG_NONE && *s->cluster)
		*val = s->cluster;
	else if (defs[i].has == XP_ARG_REQ && s->i < s->argc)
		*val = s->argv[s->i++];
	else if (defs[i].has == XP_ARG_REQ)
		return xp_err_set(err, "option '-%c' needs an argument", c), XP_ARGS_ERROR;
	if (defs[i].has != XP_ARG_NONE || !*s->cluster)
		s->cluster = NULL;
	return (int)i;
}

int xp_argscan_next(struct xp_argscan *s, const struct xp_argdef *defs, size_t n,
		    const char **val, struct xp_err *err)
{
	const char *w;

	if (s->cluster)
		return short_opt(s, defs, n, val, err);
	if (s->i >= s->argc)
		return XP_ARGS_END;
	w = s->argv[s->i++];
	if (!s->operands_only && !strcmp(w, "--")) {
		s->operands_only = 1;
		return xp_argscan_next(s, defs, n, val, err);
	}
	if (s->operands_only || w[0] != '-' || !w[1]) {
		*val = w;
		return XP_ARGS_OPERAND;
	}
	if (w[1] == '-')
		return long_opt(s, w, defs, n, val, err);
	s->cluster = w + 1;
	return short_opt(s, defs, n, val, err);
}
