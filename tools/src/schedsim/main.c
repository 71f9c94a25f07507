// SPDX-License-Identifier: GPL-2.0
/*
 * schedsim's command line (docs/schedsim.md; thesis 7.2 for -n, -e, -C, -M).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/src/schedsim/schedsim.h"

static void usage(FILE *f)
{
	fputs("usage: schedsim [-M] [-n ITERATIONS] [-u UARCH] [--ht on|off] [-C MASKS] -e EVENTS\n"
	      "                [--sibling EVENTS [--sibling-constraints MASKS] [--offset TICKS]]\n"
	      "                [--xsu off|on|core] [--limit on|off] [--past-failure] [-v] "
	      "[--json]\n"
	      "       schedsim --sweep N [--json] [--past-failure]\n"
	      "       schedsim --fair-sweep N [--seed S] [-n ITERATIONS] [--json]\n"
	      "       schedsim --list [-u UARCH] [--ht on|off] [--json]\n"
	      "\n"
	      "  -e EVENTS        events as perf stat -e takes them: r81d0:u, "
	      "cpu/event=0xd0,umask=0x81/,\n"
	      "                   MEM_UOPS_RETIRED:ALL_LOADS, l1d_pend_miss.pending, {a,b} groups, "
	      ":D pinned\n"
	      "  -n ITERATIONS    scheduling iterations (multiplexing ticks), default 1000\n"
	      "  -C MASKS         constraint masks replacing the tables', one per event: "
	      "0x6,0x8,...\n"
	      "  -M               Hopcroft-Karp instead of Linux's greedy algorithm\n"
	      "  -u UARCH         generic, sandybridge, ivybridge, haswell (default), broadwell,\n"
	      "                   skylake, icelake, or a server part: sandybridge-x, ivybridge-x,\n"
	      "                   haswell-x, broadwell-x, skylake-x\n"
	      "  --ht on|off      hyperthreading: 4 GP counters per thread (default), or 8 and no "
	      "XSU\n"
	      "  --sibling EVENTS replay a sibling thread with these events\n"
	      "  --sibling-constraints MASKS   -C for the sibling\n"
	      "  --offset TICKS   the sibling starts this many ticks after the first thread "
	      "(default 1)\n"
	      "  --xsu off|on|core  the XSU workaround: Linux's (on), or core-wide with leak "
	      "catchers (core);\n"
	      "                   default on where the erratum applies and HT is on\n"
	      "  --limit on|off   Linux 4.1-rc7's half-of-the-GP-counters limit (default off, as "
	      "the thesis)\n"
	      "  --past-failure   keep passing events after the first failure, up to 2N (thesis "
	      "7.2)\n"
	      "  -v               print every iteration\n"
	      "  --sweep N        every constraint set of N events on N counters, first iteration "
	      "(N <= 5)\n"
	      "  --json           the run, the --sweep or --fair-sweep result, or with --list the "
	      "event\n"
	      "                   table, as one JSON object\n"
	      "  --fair-sweep N   N random pairs of lists under each XSU policy against the exact "
	      "max-min\n"
	      "                   fair optimum (-n iterations each, default 1000)\n"
	      "  --seed S         the --fair-sweep random seed (default 1)\n"
	      "  --list           every event name of the part: encoding and static constraint\n",
	      f);
}

static bool on_off(const char *arg, const char *option, bool *out)
{
	if (!strcmp(arg, "on")) {
		*out = true;
		return true;
	}
	if (!strcmp(arg, "off")) {
		*out = false;
		return true;
	}
	fprintf(stderr, "schedsim: %s takes on or off, not '%s'\n", option, arg);
	return false;
}

static bool number(const char *arg, const char *option, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);

	if (!*arg || *end || v > max) {
		fprintf(stderr, "schedsim: %s takes a number up to %u, not '%s'\n", option, max,
			arg);
		return false;
	}
	*out = (unsigned)v;
	return true;
}

enum {
	OPT_SIBLING = 256,
	OPT_SIBLING_CONSTRAINTS,
	OPT_OFFSET,
	OPT_XSU,
	OPT_LIMIT,
	OPT_HT,
	OPT_SWEEP,
	OPT_JSON,
	OPT_PAST_FAILURE,
	OPT_LIST,
	OPT_FAIR_SWEEP,
	OPT_SEED,
};

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "sibling", required_argument, NULL, OPT_SIBLING },
		{ "sibling-constraints", required_argument, NULL, OPT_SIBLING_CONSTRAINTS },
		{ "offset", required_argument, NULL, OPT_OFFSET },
		{ "xsu", required_argument, NULL, OPT_XSU },
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ "ht", required_argument, NULL, OPT_HT },
		{ "sweep", required_argument, NULL, OPT_SWEEP },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "past-failure", no_argument, NULL, OPT_PAST_FAILURE },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "fair-sweep", required_argument, NULL, OPT_FAIR_SWEEP },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sim_options o;
	const char *uarch_name = "haswell";
	bool list = false;
	unsigned sweep_n = 0, fair_n = 0, seed = 1;
	enum xsu_mode mode =
		XSU_MODE_COUNT; /* none asked: on where the erratum is, off elsewhere */
	int c;

	memset(&o, 0, sizeof(o));
	o.algorithm = SCHED_GREEDY;
	o.iterations = 1000;
	o.offset = 1;
	o.ht = true;

	while ((c = getopt_long(argc, argv, "e:n:C:Mu:vh", longs, NULL)) != -1) {
		switch (c) {
		case 'e':
			o.events[0] = optarg;
			break;
		case 'n':
			if (!number(optarg, "-n", 100000000, &o.iterations) || !o.iterations)
				return 2;
			break;
		case 'C':
			o.constraints[0] = optarg;
			break;
		case 'M':
			o.algorithm = SCHED_HK;
			break;
		case 'u':
			uarch_name = optarg;
			break;
		case 'v':
			o.verbose = true;
			break;
		case OPT_SIBLING:
			o.events[1] = optarg;
			break;
		case OPT_SIBLING_CONSTRAINTS:
			o.constraints[1] = optarg;
			break;
		case OPT_OFFSET:
			if (!number(optarg, "--offset", 100000000, &o.offset))
				return 2;
			break;
		case OPT_XSU:
			if (!xsu_mode_by_name(optarg, strlen(optarg), &mode)) {
				fprintf(stderr, "schedsim: --xsu takes off, on or core, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case OPT_LIMIT:
			if (!on_off(optarg, "--limit", &o.limit))
				return 2;
			break;
		case OPT_HT:
			if (!on_off(optarg, "--ht", &o.ht))
				return 2;
			break;
		case OPT_SWEEP:
			if (!number(optarg, "--sweep", 5, &sweep_n) || !sweep_n)
				return 2;
			break;
		case OPT_JSON:
			o.json = true;
			break;
		case OPT_PAST_FAILURE:
			o.past_failure = true;
			break;
		case OPT_LIST:
			list = true;
			break;
		case OPT_FAIR_SWEEP:
			if (!number(optarg, "--fair-sweep", 1000000, &fair_n) || !fair_n)
				return 2;
			break;
		case OPT_SEED:
			if (!number(optarg, "--seed", 0xffffffffu, &seed))
				return 2;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "schedsim: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	if (sweep_n)
		return sweep(sweep_n, o.json, o.past_failure);
	if (fair_n)
		return fair_sweep(fair_n, seed, o.iterations, o.json);

	o.uarch = uarch_by_name(uarch_name);
	if (!o.uarch) {
		fprintf(stderr, "schedsim: unknown microarchitecture '%s' (", uarch_name);
		for (const struct uarch *const *u = uarch_all; *u; u++)
			fprintf(stderr, "%s%s", u == uarch_all ? "" : ", ", (*u)->part);
		fprintf(stderr, ")\n");
		return 2;
	}
	o.gp = uarch_gp(o.uarch, o.ht);
	o.fixed = o.uarch->fixed;
	if (mode == XSU_MODE_COUNT)
		mode = o.ht && uarch_has_erratum(o.uarch) ? XSU_MODE_ON : XSU_MODE_OFF;
	o.ops = xsu_ops_of(mode, o.limit);

	if (list)
		return list_events(o.uarch, o.gp, o.fixed, o.json);
	if (!o.events[0]) {
		fprintf(stderr, "schedsim: no events: give -e EVENTS, --sweep N or --list\n");
		usage(stderr);
		return 2;
	}
	return simulate(&o);
}
