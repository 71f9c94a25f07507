"""PNG plots of a pmu-report Report, with matplotlib's Agg backend (no display needed).

Two plots per experiment:
  <exp>-counts.png   every (thread, event) of the experiment as a group of bars, one bar per run
                     (baseline, XSU off, XSU on, ...): the corruption stands out as a bar orders
                     of magnitude above its neighbours. The y axis is logarithmic (symlog, so that
                     a count of 0 stays visible as no bar) when the counts span orders of magnitude.
  <exp>-running.png  the same groups, the fraction of the time each event ran on a counter
                     (perf's [xx.xx%]): what XSU costs in multiplexing, and where runs compare
                     schedulers, how much more one lets run than the other.
With repetitions, a bar is the mean over them. An experiment with `survey` records also gets
  <exp>-heatmap.png  its leak map (pmu_survey.py): a row per event, a column per counter index,
                     the colour the share of the event's count the sibling's counter caught.

matplotlib is optional: load_pyplot() returns None when it is missing and the caller says so.
"""

import os
import warnings

import pmu_format
import pmu_survey

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


def short(n):
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
            c = run.cell(thread, event)
            if c is None:
                continue
            xs.append(_bar_centre(g, i, width))
            heights.append(value_of(c))
            labels.append(label_of(c))
        if not xs:
            continue
        drawn = ax.bar(xs, heights, width=width * BAR_FILL, color=colour, label=tex(run.label))
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
    ax.set_xticklabels([tex("HT%d\n%s" % g) for g in groups], fontsize=8)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylabel(ylabel)
    ax.set_title(tex(title), fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig, ax, bars


def _mark_baselines(ax, runs, groups):
    """A black line across each bar that was checked against a baseline, at the baseline."""
    width = _bar_width(runs)
    lines = []
    for i, run in enumerate(runs):
        for g, (thread, event) in enumerate(groups):
            c = run.cell(thread, event)
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
    values = [cell.value or 0 for r in runs for _, _, cell in r.cells()]
    log = wants_log_scale(values)
    title = "%s: counts per run%s\n%s" % (experiment.name, " (log scale)" if log else "",
                                         experiment.title or "")
    fig, ax, bars = _bar_chart(
        plt, runs, groups,
        value_of=lambda c: 0 if c.not_counted else c.value,
        label_of=lambda c: "not counted" if c.not_counted else _marks(c) + short(c.value),
        ylabel="count (scaled)", title=title, log=log)
    _mark_baselines(ax, runs, groups)
    if any(cell.corrupted for r in runs for _, _, cell in r.cells()):
        ax.set_xlabel("! corrupted: more than its tolerance above its baseline", fontsize=8)
    fig.tight_layout()
    path = os.path.join(out_dir, "%s-counts.png" % experiment.name)
    fig.savefig(path)
    plt.close(fig)
    return {"file": path, "kind": "counts", "exp": experiment.name,
            "yscale": "symlog" if log else "linear", "bars": bars}


def _marks(cell):
    """The table's marks: ! corrupted, ? a counter that firmware or SMM changed."""
    mark = ("!" if cell.corrupted else "") + ("?" if cell.interfered else "")
    return mark + " " if mark else ""


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


def plot_heatmap(plt, experiment, out_dir):
    """The leak map of a survey: a panel per XSU mode, a row per event, a column per counter
    index and one for the pairs of different indices, each cell coloured and labelled with its
    share."""
    maps = pmu_survey.leak_maps(experiment.survey)
    rows = max(len(m.events) for m in maps)
    # At most 18 x 40 inches (matplotlib refuses images above 2^16 pixels a side).
    size = (min(18.0, 3.0 + 5.5 * len(maps)), min(40.0, 2.2 + 0.45 * rows))
    fig, axes = plt.subplots(1, len(maps), squeeze=False, dpi=100, figsize=size)
    highest = max([0.0] + [v for m in maps for ev in m.events for c in m.columns
                           for v in [m.cell(ev, c)] if isinstance(v, float)])
    image = None
    for ax, m in zip(axes[0], maps):
        image = _heatmap_panel(ax, m, max(highest, 1e-9))
    fig.subplots_adjust(top=0.78, bottom=0.17, left=0.12)
    fig.colorbar(image, ax=list(axes[0]), label="ratio: the share of the event's count that leaked")
    fig.suptitle(tex("%s: what the sibling's counter of a zero event caught\n%s"
                      % (experiment.name, experiment.title or "")), fontsize=10)
    path = os.path.join(out_dir, "%s-heatmap.png" % experiment.name)
    fig.savefig(path)
    plt.close(fig)
    return {"file": path, "kind": "heatmap", "exp": experiment.name, "yscale": "none",
            "bars": 0, "cells": sum(len(m.events) * len(m.columns) for m in maps)}


def _heatmap_panel(ax, leak_map, highest):
    """One XSU mode's map; a cell nothing was measured in stays blank."""
    import matplotlib.colors  # loaded with pyplot (load_pyplot); this module imports without it
    values = [[leak_map.cell(ev, c) for c in leak_map.columns] for ev in leak_map.events]
    grid = [[v if isinstance(v, float) else float("nan") for v in row] for row in values]
    # A square-root scale, so that a leak of 2% next to one of 45% still shows its colour.
    norm = matplotlib.colors.PowerNorm(gamma=0.5, vmin=0.0, vmax=highest)
    image = ax.imshow(grid, cmap="Reds", norm=norm, aspect="auto")
    for y, row in enumerate(values):
        for x, v in enumerate(row):
            text = "%.2f%%" % (100 * v) if isinstance(v, float) else ("n/a" if v else "")
            ax.text(x, y, text, ha="center", va="center", fontsize=7,
                    color="white" if isinstance(v, float) and v > highest / 4 else "black")
    ax.set_xticks(range(len(leak_map.columns)))
    ax.set_xticklabels([str(c) for c in leak_map.columns], fontsize=8)
    ax.set_yticks(range(len(leak_map.events)))
    ax.set_yticklabels([tex(ev) for ev in leak_map.events], fontsize=8)
    ax.set_xlabel("HT0's counter index (other: the sibling's counter had another)", fontsize=8)
    ax.set_title(pmu_format.xsu_text(leak_map.xsu), fontsize=9)
    return image


def tex(text):
    """Text as matplotlib shows it literally: a `$` would start its math mode."""
    return str(text).replace("$", r"\$")


def write_plots(report, out_dir, plt):
    """Both plots of every experiment that has counts, and the heat map of every survey. Returns
    their descriptions. matplotlib's warnings (a legend of dozens of runs that does not fit, a
    character of a record's string that its font lacks) stay off stderr, where they would look
    like problems of the log."""
    written = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for experiment in report.experiments.values():
            if any(r.counts for r in experiment.runs.values()):
                written.append(plot_counts(plt, experiment, out_dir))
                written.append(plot_running(plt, experiment, out_dir))
            if experiment.survey:
                written.append(plot_heatmap(plt, experiment, out_dir))
    return written
