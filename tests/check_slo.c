/* SPDX-License-Identifier: BSD-2-Clause */
#include "client/report/slo.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Parse one bound that must be valid and return it. */
static struct xp_slo_bound parse_one(const char *s)
{
	struct xp_slo slo;
	struct xp_err err = { "" };

	ck_assert_msg(xp_slo_parse(s, &slo, &err) == 0, "'%s' rejected: %s", s,
		      err.msg);
	ck_assert_int_eq(slo.n, 1);
	return slo.b[0];
}

START_TEST(test_example)
{
	struct xp_slo slo;
	struct xp_err err = { "" };

	ck_assert_int_eq(
		xp_slo_parse("p99<=200us,p50<=80us,rate>=10000,throughput>=5G,loss<=0.1%",
			     &slo, &err),
		0);
	ck_assert_int_eq(slo.n, 5);

	ck_assert_int_eq(slo.b[0].metric, XP_SLO_LATENCY_PCT);
	ck_assert_double_eq(slo.b[0].pct, 99);
	ck_assert_int_eq(slo.b[0].op, XP_SLO_LE);
	ck_assert_double_eq(slo.b[0].limit, 200);
	ck_assert_str_eq(slo.b[0].text, "p99<=200us");
	ck_assert_str_eq(slo.b[0].name, "p99");

	ck_assert_int_eq(slo.b[1].metric, XP_SLO_LATENCY_PCT);
	ck_assert_double_eq(slo.b[1].pct, 50);
	ck_assert_int_eq(slo.b[1].op, XP_SLO_LE);
	ck_assert_double_eq(slo.b[1].limit, 80);
	ck_assert_str_eq(slo.b[1].text, "p50<=80us");
	ck_assert_str_eq(slo.b[1].name, "p50");

	ck_assert_int_eq(slo.b[2].metric, XP_SLO_RATE);
	ck_assert_int_eq(slo.b[2].op, XP_SLO_GE);
	ck_assert_double_eq(slo.b[2].limit, 10000);
	ck_assert_str_eq(slo.b[2].text, "rate>=10000");
	ck_assert_str_eq(slo.b[2].name, "rate");

	ck_assert_int_eq(slo.b[3].metric, XP_SLO_THROUGHPUT);
	ck_assert_int_eq(slo.b[3].op, XP_SLO_GE);
	ck_assert_double_eq(slo.b[3].limit, 5e9);
	ck_assert_str_eq(slo.b[3].text, "throughput>=5G");
	ck_assert_str_eq(slo.b[3].name, "throughput");

	ck_assert_int_eq(slo.b[4].metric, XP_SLO_LOSS);
	ck_assert_int_eq(slo.b[4].op, XP_SLO_LE);
	ck_assert_double_eq(slo.b[4].limit, 0.1);
	ck_assert_str_eq(slo.b[4].text, "loss<=0.1%");
	ck_assert_str_eq(slo.b[4].name, "loss");
}
END_TEST

struct value_case {
	const char *s;
	double want;
};

/* Every case converts exactly: the canonical value equals the literal. */
static void check_values(const struct value_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct xp_slo_bound b = parse_one(c[i].s);

		ck_assert_msg(b.limit == c[i].want, "'%s': got %.17g, want %.17g",
			      c[i].s, b.limit, c[i].want);
	}
}

START_TEST(test_latency_units)
{
	static const struct value_case cases[] = {
		{ "p99<=200", 200 },	    { "p99<=200us", 200 },
		{ "p99<=200US", 200 },	    { "p99<=200\xc2\xb5s", 200 },
		{ "p99<=200ns", 0.2 },	    { "p99<=250NS", 0.25 },
		{ "p99<=1.5ms", 1500 },	    { "p99<=0.1ms", 100 },
		{ "p99<=3Ms", 3000 },	    { "p99<=2s", 2e6 },
		{ "p99<=0.000001s", 1 },    { "p99<=2S", 2e6 },
		{ "p99<=0", 0 },	    { "p99<=007", 7 },
		{ "mean<=12.5us", 12.5 },   { "min>=1ns", 0.001 },
		{ "max<=1s", 1e6 },	    { "stddev<=0.5ms", 500 },
		{ "p99<=99.99", 99.99 },    { "p99<=123456789", 123456789 },
	};

	check_values(cases, ARRAY_LEN(cases));
}
END_TEST

START_TEST(test_throughput_units)
{
	static const struct value_case cases[] = {
		{ "throughput>=5G", 5e9 },
		{ "throughput>=5g", 5e9 },
		{ "throughput>=5Gbit/s", 5e9 },
		{ "throughput>=5Gbps", 5e9 },
		{ "throughput>=5Gb", 5e9 },
		{ "throughput>=5 G", 5e9 },
		{ "throughput>=2.5G", 2.5e9 },
		{ "throughput>=100M", 1e8 },
		{ "throughput>=100m", 1e8 },
		{ "throughput>=100Mbit/s", 1e8 },
		{ "throughput>=64k", 64e3 },
		{ "throughput>=64K", 64e3 },
		{ "throughput>=64kbps", 64e3 },
		{ "throughput>=1000", 1000 },
		{ "throughput>=1000bps", 1000 },
		{ "throughput>=1000bit/s", 1000 },
		{ "throughput>=1000b", 1000 },
		{ "throughput>=0.5M", 5e5 },
		{ "tput>=9.4G", 9.4e9 },
		{ "TPUT>=1G", 1e9 },
	};

	check_values(cases, ARRAY_LEN(cases));
}
END_TEST

START_TEST(test_rate_loss_retrans_units)
{
	static const struct value_case cases[] = {
		{ "rate>=10000", 10000 },   { "rate>=10k", 10000 },
		{ "rate>=10K", 10000 },	    { "rate>=1.5M", 1.5e6 },
		{ "rate>=2m", 2e6 },	    { "rate>=0.5", 0.5 },
		{ "loss<=0.1%", 0.1 },	    { "loss<=0.1", 0.1 },
		{ "loss<=100%", 100 },	    { "loss<=100", 100 },
		{ "loss<=0", 0 },	    { "loss<5 %", 5 },
		{ "loss<=0.001%", 0.001 },  { "retransmits<=10", 10 },
		{ "retrans<=0", 0 },	    { "RETRANS <= 7", 7 },
		{ "retransmits<=1000000", 1e6 },
	};

	check_values(cases, ARRAY_LEN(cases));
}
END_TEST

struct name_case {
	const char *s;
	int metric;
	const char *name;
	double pct;
};

START_TEST(test_metric_names)
{
	static const struct name_case cases[] = {
		{ "p99<=1", XP_SLO_LATENCY_PCT, "p99", 99 },
		{ "p50<=1", XP_SLO_LATENCY_PCT, "p50", 50 },
		{ "P90<=1", XP_SLO_LATENCY_PCT, "p90", 90 },
		{ "p99.9<=1", XP_SLO_LATENCY_PCT, "p99.9", 99.9 },
		{ "p99.99<=1", XP_SLO_LATENCY_PCT, "p99.99", 99.99 },
		{ "p99.999<=1", XP_SLO_LATENCY_PCT, "p99.999", 99.999 },
		{ "p099.90<=1", XP_SLO_LATENCY_PCT, "p99.9", 99.9 },
		{ "p50.0<=1", XP_SLO_LATENCY_PCT, "p50", 50 },
		{ "p0.5<=1", XP_SLO_LATENCY_PCT, "p0.5", 0.5 },
		{ "p100<=1", XP_SLO_LATENCY_PCT, "p100", 100 },
		{ "p100.000<=1", XP_SLO_LATENCY_PCT, "p100", 100 },
		{ "mean<=1", XP_SLO_LATENCY_MEAN, "mean", 0 },
		{ "MEAN<=1", XP_SLO_LATENCY_MEAN, "mean", 0 },
		{ "avg<=1", XP_SLO_LATENCY_MEAN, "mean", 0 },
		{ "Avg<=1", XP_SLO_LATENCY_MEAN, "mean", 0 },
		{ "min<=1", XP_SLO_LATENCY_MIN, "min", 0 },
		{ "max<=1", XP_SLO_LATENCY_MAX, "max", 0 },
		{ "Max<=1", XP_SLO_LATENCY_MAX, "max", 0 },
		{ "stddev<=1", XP_SLO_LATENCY_STDDEV, "stddev", 0 },
		{ "StdDev<=1", XP_SLO_LATENCY_STDDEV, "stddev", 0 },
		{ "rate>=1", XP_SLO_RATE, "rate", 0 },
		{ "RATE>=1", XP_SLO_RATE, "rate", 0 },
		{ "throughput>=1", XP_SLO_THROUGHPUT, "throughput", 0 },
		{ "Throughput>=1", XP_SLO_THROUGHPUT, "throughput", 0 },
		{ "tput>=1", XP_SLO_THROUGHPUT, "throughput", 0 },
		{ "loss<=1", XP_SLO_LOSS, "loss", 0 },
		{ "LOSS<=1", XP_SLO_LOSS, "loss", 0 },
		{ "retransmits<=1", XP_SLO_RETRANSMITS, "retransmits", 0 },
		{ "retrans<=1", XP_SLO_RETRANSMITS, "retransmits", 0 },
		{ "fwd_p99<=1", XP_SLO_LATENCY_PCT, "fwd_p99", 99 },
		{ "ret_p099.90<=1", XP_SLO_LATENCY_PCT, "ret_p99.9", 99.9 },
		{ "FWD_Mean<=1", XP_SLO_LATENCY_MEAN, "fwd_mean", 0 },
		{ "ret_max<=1", XP_SLO_LATENCY_MAX, "ret_max", 0 },
		{ "fwd_loaded_p99<=1", XP_SLO_LATENCY_PCT, "fwd_loaded_p99", 99 },
		{ "ret_udp_inflation_mean<=1", XP_SLO_LATENCY_MEAN, "ret_udp_inflation_mean", 0 },
		{ "self_loaded_p99<=1", XP_SLO_LATENCY_PCT, "self_loaded_p99", 99 },
		{ "Self_Up_loaded_p99.9<=1", XP_SLO_LATENCY_PCT, "self_up_loaded_p99.9", 99.9 },
		{ "self_down_inflation_mean<=1", XP_SLO_LATENCY_MEAN, "self_down_inflation_mean", 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		struct xp_slo_bound b = parse_one(cases[i].s);

		ck_assert_int_eq(b.metric, cases[i].metric);
		ck_assert_str_eq(b.name, cases[i].name);
		ck_assert_str_eq(b.text, cases[i].s);
		if (cases[i].metric == XP_SLO_LATENCY_PCT)
			ck_assert_double_eq(b.pct, cases[i].pct);
	}
}
END_TEST

START_TEST(test_ops)
{
	ck_assert_int_eq(parse_one("p99<=1").op, XP_SLO_LE);
	ck_assert_int_eq(parse_one("p99<1").op, XP_SLO_LT);
	ck_assert_int_eq(parse_one("rate>=1").op, XP_SLO_GE);
	ck_assert_int_eq(parse_one("rate>1").op, XP_SLO_GT);
	ck_assert_int_eq(parse_one("p99 < 1").op, XP_SLO_LT);
	ck_assert_int_eq(parse_one("rate > 1").op, XP_SLO_GT);
}
END_TEST

START_TEST(test_whitespace)
{
	struct xp_slo slo;
	struct xp_err err = { "" };

	ck_assert_int_eq(xp_slo_parse("  p99 <= 200 us ,\tp50<=80us  ,rate\t>=\t1k ",
				      &slo, &err),
			 0);
	ck_assert_int_eq(slo.n, 3);
	ck_assert_str_eq(slo.b[0].text, "p99 <= 200 us");
	ck_assert_double_eq(slo.b[0].limit, 200);
	ck_assert_int_eq(slo.b[0].op, XP_SLO_LE);
	ck_assert_str_eq(slo.b[1].text, "p50<=80us");
	ck_assert_double_eq(slo.b[1].limit, 80);
	ck_assert_str_eq(slo.b[2].text, "rate\t>=\t1k");
	ck_assert_double_eq(slo.b[2].limit, 1000);
	ck_assert_int_eq(slo.b[2].op, XP_SLO_GE);
}
END_TEST

/* Same metric with different operators, or different percentiles, are
 * distinct bounds. */
START_TEST(test_distinct_bounds)
{
	struct xp_slo slo;
	struct xp_err err = { "" };

	ck_assert_int_eq(xp_slo_parse("p99<=1ms,p99>=1us,p99<2ms,p99.9<=5ms,"
				      "p100<=9ms,max<=9ms,mean<=1,mean>0",
				      &slo, &err),
			 0);
	ck_assert_int_eq(slo.n, 8);
	/* the same figure of another way or phase is another bound */
	ck_assert_int_eq(xp_slo_parse("p99<=1ms,fwd_p99<=1ms,ret_p99<=1ms,fwd_loaded_p99<=1ms,"
				      "ret_loaded_p99<=1ms,loaded_p99<=1ms,udp_loaded_p99<=1ms,"
				      "fwd_udp_loaded_p99<=1ms", &slo, &err), 0);
	ck_assert_int_eq(slo.n, 8);
	/* ... and so the self probes of each way */
	ck_assert_int_eq(xp_slo_parse("self_loaded_p99<=1ms,self_up_loaded_p99<=1ms,"
				      "self_down_loaded_p99<=1ms", &slo, &err), 0);
	ck_assert_int_eq(slo.n, 3);
	ck_assert_int_eq(slo.b[0].self, XP_SLO_SELF);
	ck_assert_int_eq(slo.b[1].self, XP_SLO_SELF_UP);
	ck_assert_int_eq(slo.b[2].self, XP_SLO_SELF_DOWN);
	ck_assert_int_ne(xp_slo_parse("fwd_p99<=1ms,fwd_p99<=2ms", &slo, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "duplicate bound"));
}
END_TEST

START_TEST(test_text_truncated)
{
	char s[128];
	struct xp_slo_bound b;

	/* leading zeros are valid digits: a 100-character bound */
	snprintf(s, sizeof(s), "p99<=%0*dus", 93, 5);
	ck_assert_uint_eq(strlen(s), 100);
	b = parse_one(s);
	ck_assert_double_eq(b.limit, 5);
	ck_assert_uint_eq(strlen(b.text), sizeof(b.text) - 1);
	ck_assert_int_eq(strncmp(b.text, s, sizeof(b.text) - 1), 0);
}
END_TEST

START_TEST(test_max_bounds)
{
	char s[512];
	struct xp_slo slo;
	struct xp_err err = { "" };
	size_t len = 0;
	int i;

	for (i = 1; i <= XP_SLO_MAX; i++)
		len += (size_t)snprintf(s + len, sizeof(s) - len, "%sp%d<=1",
					i > 1 ? "," : "", i);
	ck_assert_int_eq(xp_slo_parse(s, &slo, &err), 0);
	ck_assert_int_eq(slo.n, XP_SLO_MAX);
	ck_assert_double_eq(slo.b[XP_SLO_MAX - 1].pct, XP_SLO_MAX);

	snprintf(s + len, sizeof(s) - len, ",p%d<=1", XP_SLO_MAX + 1);
	slo.n = -7;
	ck_assert_int_eq(xp_slo_parse(s, &slo, &err), -1);
	ck_assert_int_eq(slo.n, -7);
	ck_assert_str_eq(err.msg, "--slo: 'p33<=1': too many bounds (at most 32)");
}
END_TEST

struct bad_case {
	const char *s;
	const char *want; /* substring of the message, naming the bound */
};

START_TEST(test_invalid)
{
	static const struct bad_case cases[] = {
		/* empty list and empty elements */
		{ "", "--slo: empty list" },
		{ " \t ", "--slo: empty list" },
		{ "p99<=200,,p50<=80", "--slo: 'p99<=200,,p50<=80': empty bound" },
		{ ",p99<=1", "--slo: ',p99<=1': empty bound" },
		{ "p99<=1,", "--slo: 'p99<=1,': empty bound" },
		{ "p99<=1, ,p50<=1", "empty bound" },
		/* unknown metric */
		{ "foo<=1", "--slo: 'foo<=1': unknown metric" },
		{ "p<=1", "--slo: 'p<=1': unknown metric" },
		{ "px<=1", "--slo: 'px<=1': unknown metric" },
		{ "pp99<=1", "--slo: 'pp99<=1': unknown metric" },
		{ "means<=1", "--slo: 'means<=1': unknown metric" },
		{ "latency<=1", "--slo: 'latency<=1': unknown metric" },
		{ "p-1<=1", "--slo: 'p-1<=1': unknown metric" },
		{ "99<=1", "--slo: '99<=1': unknown metric" },
		{ "<=200", "--slo: '<=200': missing metric" },
		/* percentile out of range or malformed */
		{ "p0<=1", "--slo: 'p0<=1': invalid percentile" },
		{ "p0.0<=1", "--slo: 'p0.0<=1': invalid percentile" },
		{ "p101<=1", "--slo: 'p101<=1': invalid percentile" },
		{ "p100.1<=1", "--slo: 'p100.1<=1': invalid percentile" },
		{ "p99.<=1", "--slo: 'p99.<=1': invalid percentile" },
		{ "p99x<=1", "--slo: 'p99x<=1': invalid percentile" },
		{ "p99.9.9<=1", "--slo: 'p99.9.9<=1': invalid percentile" },
		{ "p99.99999999999999<=1", "percentile has too many digits" },
		/* one-way: before a latency metric of a plain test */
		{ "fwd_rate>=1", "--slo: 'fwd_rate>=1': fwd_ and ret_ (--one-way) go before a latency metric" },
		{ "udp_fwd_loaded_p99<=1", "--slo: 'udp_fwd_loaded_p99<=1': unknown metric" },
		{ "loaded_fwd_p99<=1", "--slo: 'loaded_fwd_p99<=1': unknown metric" },
		{ "fwd_udp_p99<=1", "udp_ goes before idle_, loaded_ or inflation_" },
		{ "fwd_<=1", "--slo: 'fwd_<=1': unknown metric" },
		{ "fwdp99<=1", "--slo: 'fwdp99<=1': unknown metric" },
		/* self probes: of the loaded phase, either way, no one-way delays */
		{ "self_up_idle_p99<=1", "self_down_ (the load's own connections) go before loaded_" },
		{ "self_down_p99<=1", "self_, self_up_ and self_down_" },
		{ "self_sideways_loaded_p99<=1", "unknown metric" },
		{ "fwd_self_up_loaded_p99<=1", "fwd_ and ret_ do not go with self_" },
		/* missing operator */
		{ "p99", "--slo: 'p99': missing operator" },
		{ "p99 200", "--slo: 'p99 200': missing operator" },
		{ "p99=200", "--slo: 'p99=200': missing operator" },
		{ "p99==200", "--slo: 'p99==200': missing operator" },
		{ "p99!=200", "--slo: 'p99!=200': missing operator" },
		{ "p99=<200", "--slo: 'p99=<200': missing operator" },
		{ "p99 200us <=", "missing operator" },
		/* duplicate operator */
		{ "p99<=<=200", "--slo: 'p99<=<=200': duplicate operator" },
		{ "p99<>200", "--slo: 'p99<>200': duplicate operator" },
		{ "p99<==200", "--slo: 'p99<==200': duplicate operator" },
		{ "p99>=>200", "--slo: 'p99>=>200': duplicate operator" },
		{ "p99< <200", "--slo: 'p99< <200': duplicate operator" },
		/* invalid values */
		{ "p99<=abc", "--slo: 'p99<=abc': invalid value" },
		{ "p99<=", "--slo: 'p99<=': missing value" },
		{ "p99<= ", "--slo: 'p99<=': missing value" },
		{ "p99<=-1", "--slo: 'p99<=-1': invalid value" },
		{ "p99<=+1", "--slo: 'p99<=+1': invalid value" },
		{ "p99<=nan", "--slo: 'p99<=nan': invalid value" },
		{ "p99<=NaN", "--slo: 'p99<=NaN': invalid value" },
		{ "p99<=inf", "--slo: 'p99<=inf': invalid value" },
		{ "p99<=infinity", "--slo: 'p99<=infinity': invalid value" },
		{ "p99<=.5", "--slo: 'p99<=.5': invalid value" },
		{ "p99<=5.", "--slo: 'p99<=5.': invalid value" },
		{ "rate>=-5", "--slo: 'rate>=-5': invalid value" },
		{ "loss<=-0.1", "--slo: 'loss<=-0.1': invalid value" },
		{ "throughput>=-1G", "--slo: 'throughput>=-1G': invalid value" },
		{ "retransmits<=-1", "--slo: 'retransmits<=-1': invalid value" },
		{ "retransmits<=1.5", "--slo: 'retransmits<=1.5': invalid value" },
		{ "retransmits<=1.0", "--slo: 'retransmits<=1.0': invalid value" },
		/* junk after the number or unit */
		{ "p99<=200usx", "--slo: 'p99<=200usx': invalid unit" },
		{ "p99<=200 us x", "--slo: 'p99<=200 us x': invalid unit" },
		{ "p99<=200u", "--slo: 'p99<=200u': invalid unit" },
		{ "p99<=200ks", "--slo: 'p99<=200ks': invalid unit" },
		{ "p99<=1e3", "--slo: 'p99<=1e3': invalid unit" },
		{ "p99<=0x10", "--slo: 'p99<=0x10': invalid unit" },
		{ "p99<=200min", "--slo: 'p99<=200min': invalid unit" },
		{ "p99<=1,5", "--slo: '5': unknown metric" },
		{ "throughput>=5GB", "--slo: 'throughput>=5GB': invalid unit" },
		{ "throughput>=5Bps", "--slo: 'throughput>=5Bps': invalid unit" },
		{ "throughput>=5Gbit", "--slo: 'throughput>=5Gbit': invalid unit" },
		{ "throughput>=5Gbpsx", "--slo: 'throughput>=5Gbpsx': invalid unit" },
		{ "throughput>=5T", "--slo: 'throughput>=5T': invalid unit" },
		{ "throughput>=5GG", "--slo: 'throughput>=5GG': invalid unit" },
		{ "throughput>=5G bps", "--slo: 'throughput>=5G bps': invalid unit" },
		{ "rate>=10G", "--slo: 'rate>=10G': invalid unit" },
		{ "rate>=10kk", "--slo: 'rate>=10kk': invalid unit" },
		{ "rate>=10/s", "--slo: 'rate>=10/s': invalid unit" },
		{ "loss<=1%%", "--slo: 'loss<=1%%': invalid unit" },
		{ "loss<=1 percent", "--slo: 'loss<=1 percent': invalid unit" },
		{ "retransmits<=1k", "--slo: 'retransmits<=1k': invalid unit" },
		{ "retransmits<=10x", "--slo: 'retransmits<=10x': invalid unit" },
		/* out of range */
		{ "loss<=100.1", "--slo: 'loss<=100.1': loss above 100%" },
		{ "loss<=101%", "--slo: 'loss<=101%': loss above 100%" },
		/* duplicates of metric and operator */
		{ "p99<=1,p99<=2", "--slo: 'p99<=2': duplicate bound" },
		{ "p99<=1,p99.0<=2", "--slo: 'p99.0<=2': duplicate bound" },
		{ "p99<=1, P99 <= 2", "--slo: 'P99 <= 2': duplicate bound" },
		{ "mean<=1,avg<=2", "--slo: 'avg<=2': duplicate bound" },
		{ "throughput>=1,tput>=2", "--slo: 'tput>=2': duplicate bound" },
		{ "retrans<=1,retransmits<=2",
		  "--slo: 'retransmits<=2': duplicate bound" },
		{ "rate>1,loss<1,rate>2", "--slo: 'rate>2': duplicate bound" },
	};
	struct xp_slo slo;
	struct xp_err err;
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		err.msg[0] = '\0';
		slo.n = -7;
		ck_assert_msg(xp_slo_parse(cases[i].s, &slo, &err) == -1,
			      "'%s' accepted", cases[i].s);
		ck_assert_msg(strstr(err.msg, cases[i].want) != NULL,
			      "'%s': message '%s' lacks '%s'", cases[i].s,
			      err.msg, cases[i].want);
		ck_assert_int_eq(slo.n, -7); /* untouched on error */
	}
}
END_TEST

START_TEST(test_invalid_misc)
{
	char s[512] = "p99<=1";
	struct xp_slo slo;
	struct xp_err err = { "" };

	ck_assert_int_eq(xp_slo_parse(NULL, &slo, &err), -1);
	ck_assert_str_eq(err.msg, "--slo: empty list");
	/* a NULL err is allowed */
	ck_assert_int_eq(xp_slo_parse("p99<=abc", &slo, NULL), -1);
	/* 400 digits overflow a double */
	memset(s + 6, '0', 400);
	s[406] = '\0';
	ck_assert_int_eq(xp_slo_parse(s, &slo, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "value out of range"));
}
END_TEST

/* The boundary: measured == limit passes <= and >= only. */
START_TEST(test_check)
{
	static const struct {
		const char *s;
		int below, at, above;
	} cases[] = {
		{ "p99<=200us", 1, 1, 0 },
		{ "p99<200us", 1, 0, 0 },
		{ "rate>=200", 0, 1, 1 },
		{ "rate>200", 0, 0, 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		struct xp_slo_bound b = parse_one(cases[i].s);

		ck_assert_double_eq(b.limit, 200);
		ck_assert_int_eq(xp_slo_check(&b, nextafter(200, 0)),
				 cases[i].below);
		ck_assert_int_eq(xp_slo_check(&b, 200), cases[i].at);
		ck_assert_int_eq(xp_slo_check(&b, nextafter(200, 1e9)),
				 cases[i].above);
		ck_assert_int_eq(xp_slo_check(&b, NAN), 0);
	}
}
END_TEST

START_TEST(test_check_units)
{
	struct xp_slo_bound b = parse_one("loss<=0.1%");

	ck_assert_int_eq(xp_slo_check(&b, 0.1), 1);
	ck_assert_int_eq(xp_slo_check(&b, 0.10000001), 0);
	b = parse_one("throughput>=5G");
	ck_assert_int_eq(xp_slo_check(&b, 5e9), 1);
	ck_assert_int_eq(xp_slo_check(&b, 4999999999.0), 0);
	b = parse_one("p99<=1.5ms");
	ck_assert_int_eq(xp_slo_check(&b, 1500), 1);
	ck_assert_int_eq(xp_slo_check(&b, 1500.001), 0);
	b.op = 0; /* not an operator: never satisfied */
	ck_assert_int_eq(xp_slo_check(&b, 1), 0);
}
END_TEST

START_TEST(test_percentiles_valid)
{
	double out[8];
	struct xp_err err = { "" };

	ck_assert_int_eq(xp_parse_percentiles("50,90,99,99.9,99.99", out, 8, &err),
			 5);
	ck_assert_double_eq(out[0], 50);
	ck_assert_double_eq(out[1], 90);
	ck_assert_double_eq(out[2], 99);
	ck_assert_double_eq(out[3], 99.9);
	ck_assert_double_eq(out[4], 99.99);

	ck_assert_int_eq(xp_parse_percentiles(" 99.9 ,\t50", out, 8, &err), 2);
	ck_assert_double_eq(out[0], 99.9);
	ck_assert_double_eq(out[1], 50);

	ck_assert_int_eq(xp_parse_percentiles("100", out, 8, &err), 1);
	ck_assert_double_eq(out[0], 100);
	ck_assert_int_eq(xp_parse_percentiles("0.1,0.001", out, 8, &err), 2);
	ck_assert_double_eq(out[1], 0.001);
	/* exactly cap */
	ck_assert_int_eq(xp_parse_percentiles("1,2,3", out, 3, &err), 3);
	ck_assert_double_eq(out[2], 3);
}
END_TEST

START_TEST(test_percentiles_invalid)
{
	static const struct bad_case cases[] = {
		{ "", "--percentiles: empty list" },
		{ "  ", "--percentiles: empty list" },
		{ "50,,90", "--percentiles: '50,,90': empty item" },
		{ "50,", "--percentiles: '50,': empty item" },
		{ ",50", "--percentiles: ',50': empty item" },
		{ "0", "--percentiles: '0': out of range" },
		{ "0.0", "--percentiles: '0.0': out of range" },
		{ "100.1", "--percentiles: '100.1': out of range" },
		{ "50,101", "--percentiles: '101': out of range" },
		{ "-1", "--percentiles: '-1': invalid value" },
		{ "+1", "--percentiles: '+1': invalid value" },
		{ "abc", "--percentiles: 'abc': invalid value" },
		{ "nan", "--percentiles: 'nan': invalid value" },
		{ "inf", "--percentiles: 'inf': invalid value" },
		{ "1e2", "--percentiles: '1e2': invalid value" },
		{ "50x", "--percentiles: '50x': invalid value" },
		{ "50%", "--percentiles: '50%': invalid value" },
		{ "p50", "--percentiles: 'p50': invalid value" },
		{ "99.", "--percentiles: '99.': invalid value" },
		{ "5 0", "--percentiles: '5 0': invalid value" },
		{ "50,50", "--percentiles: '50': duplicate" },
		{ "99,90,99.0", "--percentiles: '99.0': duplicate" },
		{ "1,2,3,4,5", "--percentiles: '5': too many (at most 4)" },
	};
	double out[4];
	struct xp_err err;
	size_t i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		err.msg[0] = '\0';
		ck_assert_msg(xp_parse_percentiles(cases[i].s, out, 4, &err) == -1,
			      "'%s' accepted", cases[i].s);
		ck_assert_msg(strstr(err.msg, cases[i].want) != NULL,
			      "'%s': message '%s' lacks '%s'", cases[i].s,
			      err.msg, cases[i].want);
	}
	ck_assert_int_eq(xp_parse_percentiles(NULL, out, 4, &err), -1);
	ck_assert_int_eq(xp_parse_percentiles("50", out, 0, &err), -1);
	ck_assert_str_eq(err.msg, "--percentiles: '50': too many (at most 0)");
}
END_TEST

static Suite *slo_suite(void)
{
	Suite *s = suite_create("slo");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_example);
	tcase_add_test(tc, test_latency_units);
	tcase_add_test(tc, test_throughput_units);
	tcase_add_test(tc, test_rate_loss_retrans_units);
	tcase_add_test(tc, test_metric_names);
	tcase_add_test(tc, test_ops);
	tcase_add_test(tc, test_whitespace);
	tcase_add_test(tc, test_distinct_bounds);
	tcase_add_test(tc, test_text_truncated);
	tcase_add_test(tc, test_max_bounds);
	tcase_add_test(tc, test_invalid);
	tcase_add_test(tc, test_invalid_misc);
	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_check_units);
	tcase_add_test(tc, test_percentiles_valid);
	tcase_add_test(tc, test_percentiles_invalid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(slo_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
