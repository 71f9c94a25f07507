"""The text of a leak survey: the leak map, a row per event and a column per counter index."""

import pmu_format
import pmu_survey
import pmu_survey_stats


def render_survey(experiment):
    lines = []
    for leak_map in pmu_survey.leak_maps(experiment.survey):
        lines.append("")
        lines.extend(render_leak_map(leak_map))
    return lines


def cell_text(value):
    if value is None:
        return "-"
    if value == "n/a":
        return "n/a"
    return "%.2f%%" % (100.0 * value)


STATE_HEADS = {"en_clear": "EN clear", "global_clear": "GLOBAL_CTRL clear"}
# What a kept share that cannot be read shows in its place (pmu_survey_stats.kept_unreliable).
NO_LEAK = pmu_survey_stats.NO_LEAK


def kept_text(leak_map, event, state):
    why = leak_map.kept_unreliable(event, state)
    if why is None:
        return cell_text(leak_map.kept(event, state))
    return "no leak" if why == NO_LEAK else "unreliable"


def render_leak_map(leak_map):
    """The sibling's count of a zero event as a share of the event's occurrences (the record's
    ratio), per index of HT0's counter; "other": the sibling's counter had another index (the
    largest such share). Where the survey disabled the sibling's counter of the same index (EN
    clear, GLOBAL_CTRL bit clear), a column each: what HT0 kept, as a share of its count + leak
    with the zero event (pmu_survey.LeakMap.kept)."""
    heads = ["%d" % c if c != pmu_survey.OTHER else "other index" for c in leak_map.columns]
    heads += [STATE_HEADS[s] for s in leak_map.states]
    rows = []
    for event in leak_map.events:
        name, corrupting = leak_map.event_info(event)
        rows.append(("%s%s" % (event, " *" if corrupting else ""), name or "",
                     [cell_text(leak_map.cell(event, c)) for c in leak_map.columns] +
                     [kept_text(leak_map, event, s) for s in leak_map.states]))
    event_w = max([len(r[0]) for r in rows] + [5])
    name_w = max([len(r[1]) for r in rows] + [4])
    cell_w = [max([len(h)] + [len(r[2][i]) for r in rows]) for i, h in enumerate(heads)]
    lines = ["   leak map, %s: what the sibling's counter of a zero event caught, as a share "
             "of the event's count, by HT0's counter index (%d measurements)"
             % (pmu_format.xsu_text(leak_map.xsu), len(leak_map.points)),
             ("     %-*s  %-*s  %s" % (event_w, "event", name_w, "name", "  ".join(
                 "%*s" % (w, h) for w, h in zip(cell_w, heads)))).rstrip()]
    for event, name, cells in rows:
        lines.append(("     %-*s  %-*s  %s" % (event_w, event, name_w, name, "  ".join(
            "%*s" % (w, c) for w, c in zip(cell_w, cells)))).rstrip())
    lines.append("   * corrupting event; - not measured; n/a: nothing counted; other index: the "
                 "largest share where the sibling's counter had another index")
    if leak_map.states:
        lines.append("   %s: what HT0 kept with the sibling's counter of its index disabled"
                     % ", ".join(STATE_HEADS[s] for s in leak_map.states))
        lines.append("     (EVTSEL.EN clear; EN set but its GLOBAL_CTRL bit clear), as a share "
                     "of its count + leak with the zero event there:")
        lines.append("     100% keeps what would have leaked, 100% less the leak's share loses "
                     "it; unreliable: above 100%, or too unsure to tell")
        lines.append("     the two: a ratio of two runs' counts, which did different amounts of "
                     "work (docs/leak-survey.md); no leak: nothing to keep or lose")
        lines.extend(_unreliable_lines(leak_map))
    return lines


def _unreliable_lines(leak_map):
    """How far the unreliable kept shares are from being read: the widest and narrowest."""
    found = [(leak_map.kept_uncertainty(ev, s), ev, s) for ev in leak_map.events
             for s in leak_map.states if leak_map.kept_unreliable(ev, s) not in (None, NO_LEAK)]
    found = [f for f in found if f[0] is not None]
    if not found:
        return []
    k = pmu_survey_stats.K
    above = sum(1 for _, ev, s in found if leak_map.kept(ev, s) > 1)
    return ["     unreliable here: %d shares (%d above 100%%), +- %.2f%% (%s %s) to +- %.2f%% "
            "(%s %s) at %g standard uncertainties" % (
                len(found), above, 100 * k * min(found)[0], min(found)[1],
                STATE_HEADS[min(found)[2]], 100 * k * max(found)[0], max(found)[1],
                STATE_HEADS[max(found)[2]], k)]
