"""The plots of a comparison (pmu-report A.log B.log ...), with matplotlib's Agg backend:

  comparison-leak-map-<xsu>.png  the leak survey's map, one heat map per machine side by side on
                                 one colour scale (square root, as the single report's, so that a
                                 2% leak shows beside a 45% one): a row per event compared, a
                                 column per counter index and one for the other indices;
  comparison-<exp>-excess.png    per experiment, the excess over baseline of the counts its rule
                                 checks: a group per thread, event and run (XSU off, on, core),
                                 a bar per machine (the mean over its repetitions, with perf's
                                 +- as an error bar), `!` over a corrupted one.

A machine keeps its colour in every plot; a model machine's bars are hatched and its label says
"(model)", as every table does.
"""

import os
import warnings

import pmu_compare_survey
import pmu_plots

MACHINE_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
                   "#7f7f7f", "#bcbd22", "#17becf"]
MODEL_HATCH = "//"


def colour(c, label):
    labels = [m.label for m in c.machines.values()]
    return MACHINE_COLOURS[labels.index(label) % len(MACHINE_COLOURS)]


def plot_leak_maps(plt, c, s, out_dir):
    """One panel per machine, one colour scale for all."""
    import matplotlib.colors  # loaded with pyplot (pmu_plots.load_pyplot)
    events = s.events + s.no_leak
    columns = [col for col in s.columns if col not in pmu_compare_survey.DISABLED_STATES]
    grids = {m: [[s.tallies[m].cell(ev, col) for col in columns] for ev in events]
             for m in s.machines}
    highest = max([1e-9] + [v.value for g in grids.values() for row in g for v in row
                            if isinstance(v, pmu_compare_survey.Figure)])
    norm = matplotlib.colors.PowerNorm(gamma=0.5, vmin=0.0, vmax=highest)
    size = (min(40.0, 2.5 + 3.4 * len(s.machines)), min(40.0, 2.4 + 0.42 * len(events)))
    fig, axes = plt.subplots(1, len(s.machines), squeeze=False, dpi=100, figsize=size,
                             sharey=True)
    image = None
    for ax, m in zip(axes[0], s.machines):
        image = _leak_panel(ax, grids[m], columns, events, norm, highest)
        ax.set_title(pmu_plots.tex(m), fontsize=9)
    fig.subplots_adjust(top=0.84, bottom=0.14, left=0.1, wspace=0.08)
    fig.colorbar(image, ax=list(axes[0]), label="the share of the event's count that leaked")
    fig.suptitle("leak survey, XSU %s: what the sibling's counter of a zero event caught, on "
                 "%d machines (one colour scale)" % (s.xsu, len(s.machines)), fontsize=10)
    path = os.path.join(out_dir, "comparison-leak-map-%s.png" % s.xsu)
    fig.savefig(path)
    plt.close(fig)
    return {"file": path, "kind": "leak_map", "exp": None, "xsu": s.xsu,
            "panels": len(s.machines), "bars": 0}


def _leak_panel(ax, grid, columns, events, norm, highest):
    values = [[v.value if isinstance(v, pmu_compare_survey.Figure) else float("nan")
               for v in row] for row in grid]
    image = ax.imshow(values, cmap="Reds", norm=norm, aspect="auto")
    for y, row in enumerate(grid):
        for x, v in enumerate(row):
            if isinstance(v, pmu_compare_survey.Figure):
                text = "%.2f%%" % (100 * v.value)
            else:
                text = "n/a" if v else ""
            ax.text(x, y, text, ha="center", va="center", fontsize=6,
                    color="white" if isinstance(v, pmu_compare_survey.Figure)
                    and v.value > highest / 4 else "black")
    ax.set_xticks(range(len(columns)))
    ax.set_xticklabels([str(col) for col in columns], fontsize=8)
    ax.set_yticks(range(len(events)))
    ax.set_yticklabels([pmu_plots.tex(ev) for ev in events], fontsize=8)
    ax.set_xlabel("HT0's counter index", fontsize=8)
    return image


def plot_excess(plt, c, e, out_dir):
    """Grouped bars: a group per (thread, event, run), a bar per machine."""
    groups = [(t, ev, k, label) for t, ev in e.rows for k, label in e.runs]
    machines = e.machines
    width = 0.8 / max(len(machines), 1)
    values = [x.mean for t, ev, k, _ in groups for m in machines
              for x in [e.excess(m, k, t, ev)] if x is not None]
    log = pmu_plots.wants_log_scale([abs(v) for v in values])
    fig_w = min(24.0, max(7.0, 2.5 + 0.35 * len(groups) * len(machines)))
    fig, ax = plt.subplots(figsize=(fig_w, 4.8), dpi=100)
    bars = 0
    for i, m in enumerate(machines):
        found = [(g, e.excess(m, k, t, ev)) for g, (t, ev, k, _) in enumerate(groups)]
        found = [(g, x) for g, x in found if x is not None]
        if not found:
            continue
        xs = [g - 0.4 + width * (i + 0.5) for g, _ in found]
        heights = [x.mean for _, x in found]
        errors = [abs(x.mean) * x.rsd_pct / 100 if x.rsd_pct else 0 for _, x in found]
        drawn = ax.bar(xs, heights, width=width * 0.92, color=colour(c, m),
                       hatch=MODEL_HATCH if c.machine(m).model else None,
                       yerr=errors if any(errors) else None, capsize=2,
                       label=pmu_plots.tex(m), edgecolor="white")
        ax.bar_label(drawn, labels=[("! " if x.corrupted else "") + pmu_plots.short(x.mean)
                                    for _, x in found], fontsize=7, rotation=90, padding=1)
        bars += len(found)
    # Headroom for the bar labels above the tallest bar, as the single report's plots.
    highest, lowest = max([1.0] + values), min([0.0] + values)
    if log:
        ax.set_yscale("symlog", linthresh=1)
        ax.set_ylim(lowest * 30, max(10.0, highest) * 30)
    else:
        ax.set_ylim(lowest * 1.18, highest * 1.18)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([pmu_plots.tex("HT%d %s\n%s" % (t, ev, label))
                        for t, ev, _, label in groups], fontsize=8)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylabel("count less its baseline%s" % (" (symlog)" if log else ""))
    ax.set_title(pmu_plots.tex("%s: excess over baseline per machine (! corrupted)\n%s"
                                % (e.name, e.title or "")), fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    path = os.path.join(out_dir, "comparison-%s-excess.png" % e.name)
    fig.savefig(path)
    plt.close(fig)
    return {"file": path, "kind": "excess", "exp": e.name, "xsu": None,
            "panels": 1, "bars": bars}


def write_plots(c, out_dir, plt):
    """The leak maps of every survey compared and the excess of every experiment with checked
    counts; their descriptions (comparison.json's `plots`)."""
    written = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for s in c.surveys:
            written.append(plot_leak_maps(plt, c, s, out_dir))
        for e in c.experiments:
            if e.rows:
                written.append(plot_excess(plt, c, e, out_dir))
    return written
