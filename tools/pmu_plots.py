"""PNG plots of a pmu-report Report, with matplotlib's Agg backend (no display needed).

Two plots per experiment:
  <exp>-counts.png   every (thread, event) of the experiment as a group of bars, one bar per run
                     (baseline, XSU off, XSU on, ...): the corruption stands out as a bar orders
                     of magnitude above its neighbours. The y axis is logarithmic (symlog, so that
                     a count of 0 stays visible as no bar) when the counts span orders of magnitude.
  <exp>-running.png  the same groups, the fraction of the time each event ran on a counter
                     (perf's [xx.xx%]): what XSU costs in multiplexing, and for xsu-hk-vs-greedy
                     how much more Hopcroft-Karp lets run than greedy.

matplotlib is optional: load_pyplot() returns None when it is missing and the caller says so.
"""

import os

# Counts that span more than this ratio get a logarithmic axis.
LOG_SCALE_RATIO = 100
# Colours for the runs, in column order; the baseline is grey so XSU off/on stand out.
RUN_COLOURS = ["#d62728", "#2ca02c", "#1f77b4", "#ff7f0e", "#9467bd", "#8c564b"]
BASELINE_COLOUR = "#7f7f7f"


def load_pyplot():
    """matplotlib.pyplot on the Agg backend, or None when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")  # before pyplot: no display, no Tk, whatever $DISPLAY says
    import matplotlib.pyplot as plt
    return plt


def _groups(experiment):
    """The x axis: every (thread, event) pair in table order."""
    return [(t, ev) for t in experiment.threads() for ev in experiment.events(t)]


def _colours(runs):
    colours = []
    others = iter(RUN_COLOURS)
    for r in runs:
        colours.append(BASELINE_COLOUR if r.phase == "baseline" else next(others, "#17becf"))
    return colours


def _short(n):
    """4.1e7 -> '41M': bar labels must stay narrow."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= size:
            value = n / size
            return ("%.0f%s" if value >= 100 else "%.3g%s") % (value, unit)
    return "%d" % n


def wants_log_scale(values):
    """Log when the counts span orders of magnitude. A zero next to large counts is such a span
    (LBR inserts at 0 against 137 million): symlog keeps it at 0 and the rest readable."""
    positive = [v for v in values if v and v > 0]
    if not positive:
        return False
    low = 1 if len(positive) < len(values) else min(positive)
    return max(positive) / low >= LOG_SCALE_RATIO


# Bars fill 0.8 of each group's slot, side by side, each 92% as wide as its share (a small gap).
BAR_FILL = 0.92


def _bar_width(runs):
    return 0.8 / max(len(runs), 1)


def _bar_centre(group, run_index, width):
    return group - 0.4 + width * (run_index + 0.5)


def _bar_chart(plt, runs, groups, value_of, label_of, ylabel, title, log):
    """Grouped bars: one group per (thread, event), one bar per run. Returns the figure and how
    many bars it drew."""
    n_runs = max(len(runs), 1)
    width = _bar_width(runs)
    fig_w = min(18.0, max(7.0, 1.6 + 0.42 * len(groups) * n_runs))
    fig, ax = plt.subplots(figsize=(fig_w, 4.8), dpi=100)
    bars = 0
    highest = 0
    for i, (run, colour) in enumerate(zip(runs, _colours(runs))):
        xs, heights, labels = [], [], []
        for g, (thread, event) in enumerate(groups):
            c = run.count(thread, event)
            if c is None:
                continue
            xs.append(_bar_centre(g, i, width))
            heights.append(value_of(c))
            labels.append(label_of(c))
        if not xs:
            continue
        drawn = ax.bar(xs, heights, width=width * BAR_FILL, color=colour, label=run.label)
        bars += len(xs)
        highest = max([highest] + heights)
        if len(groups) * n_runs <= 40:
            ax.bar_label(drawn, labels=labels, fontsize=7, padding=1, rotation=90)
    # Headroom for the bar labels above the tallest bar.
    if log:
        ax.set_yscale("symlog", linthresh=1)
        ax.set_ylim(0, max(10.0, highest) * 30)
    else:
        ax.set_ylim(0, max(1.0, highest) * 1.18)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(["HT%d\n%s" % g for g in groups], fontsize=8)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig, ax, bars


def _mark_baselines(ax, runs, groups):
    """A black line across each bar that was checked against a baseline, at the baseline."""
    width = _bar_width(runs)
    lines = []
    for i, run in enumerate(runs):
        for g, (thread, event) in enumerate(groups):
            c = run.count(thread, event)
            if c is not None and c.baseline is not None:
                centre = _bar_centre(g, i, width)
                half = width * BAR_FILL / 2
                lines.append((c.baseline, centre - half, centre + half))
    if lines:
        ys, lefts, rights = zip(*lines)
        ax.hlines(ys, lefts, rights, colors="black", linewidth=2, zorder=3,
                  label="baseline value")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def plot_counts(plt, experiment, out_dir):
    runs = experiment.columns()
    groups = _groups(experiment)
    values = [c.value or 0 for r in runs for c in r.counts]
    log = wants_log_scale(values)
    title = "%s: counts per run%s\n%s" % (experiment.name, " (log scale)" if log else "",
                                         experiment.title or "")
    fig, ax, bars = _bar_chart(
        plt, runs, groups,
        value_of=lambda c: 0 if c.not_counted else c.value,
        label_of=lambda c: "not counted" if c.not_counted else ("! " if c.corrupted else "")
        + _short(c.value),
        ylabel="count (scaled)", title=title, log=log)
    _mark_baselines(ax, runs, groups)
    if any(c.corrupted for r in runs for c in r.counts):
        ax.set_xlabel("! corrupted: more than its tolerance above its baseline", fontsize=8)
    fig.tight_layout()
    path = os.path.join(out_dir, "%s-counts.png" % experiment.name)
    fig.savefig(path)
    plt.close(fig)
    return {"file": path, "kind": "counts", "exp": experiment.name,
            "yscale": "symlog" if log else "linear", "bars": bars}


def plot_running(plt, experiment, out_dir):
    runs = experiment.columns()
    groups = _groups(experiment)
    title = "%s: fraction of time each event ran on a counter\n%s" % (experiment.name,
                                                                    experiment.title or "")
    fig, ax, bars = _bar_chart(
        plt, runs, groups,
        value_of=lambda c: 100.0 * c.running_fraction,
        label_of=lambda c: "%.1f" % (100.0 * c.running_fraction),
        ylabel="% of time running", title=title, log=False)
    ax.set_ylim(0, 112)
    fig.tight_layout()
    path = os.path.join(out_dir, "%s-running.png" % experiment.name)
    fig.savefig(path)
    plt.close(fig)
    return {"file": path, "kind": "running", "exp": experiment.name, "yscale": "linear",
            "bars": bars}


def write_plots(report, out_dir, plt):
    """Both plots of every experiment that has counts. Returns their descriptions."""
    written = []
    for experiment in report.experiments.values():
        if not any(r.counts for r in experiment.runs.values()):
            continue
        written.append(plot_counts(plt, experiment, out_dir))
        written.append(plot_running(plt, experiment, out_dir))
    return written
