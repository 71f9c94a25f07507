"""pmu-report with several logs (tools/pmu-report A.log B.log ...; docs/comparing.md): reads each
source (a serial log, `-` for standard input once, or a folder of photos of a run's QR codes, as
--from-photos reads them), checks each as one log is checked and prints the check, then prints
the comparison and writes its files (comparison.json, a CSV per table, the plots).

A source that cannot be read, or `-` twice, is a usage error (exit status 2), found before any
log is read; a log that reads but is damaged or holds no record is named and left out (or, with
--partial, its intact runs kept), and the comparison is made from the rest. Otherwise the exit
status is the worst of the logs' own (pmu_compare.worst_exit, docs/report.md).
"""

import concurrent.futures
import os
import sys

import pmu_compare
import pmu_compare_export
import pmu_compare_plots
import pmu_compare_text
import pmu_model
import pmu_photos
import pmu_records
import pmu_plots

# Below this many bytes of logs in all, they are read in this process (a comparison of a few
# short logs should not wait for processes to start).
PARALLEL_BYTES = 4_000_000


class UsageError(Exception):
    """Bad arguments or a source that cannot be read: exit status 2."""


def check_sources(sources):
    """Every source readable, `-` at most once: before anything is printed."""
    if sources.count("-") > 1:
        raise UsageError("- (standard input) may be given once")
    for s in sources:
        if s == "-":
            continue
        if os.path.isdir(s):
            try:
                pmu_photos.files_of([s])
            except pmu_photos.PhotoError as e:
                raise UsageError(str(e)) from None
        elif not os.path.isfile(s) or not os.access(s, os.R_OK):
            raise UsageError("cannot read %s: %s" % (
                s, "no such file" if not os.path.exists(s) else "not a readable file"))


def read_source(source):
    """(the log's text, the lines of the photo check or [], its origin for pmu_records.parse: the
    photos' pmu_photos.Assembly, or None) of one source."""
    if source == "-":
        return pmu_records.decode(sys.stdin.buffer.read()), [], None
    if os.path.isdir(source):
        photos = pmu_photos.read_photos([source])
        return photos.log, ["%s: %s" % (source, line) if i == 0 else line
                            for i, line in enumerate(photos.summary())], photos
    with open(source, "rb") as f:
        return pmu_records.decode(f.read()), [], None


def digest(task):
    """One log read (unless its text came with it), checked as one log is and tallied: (the
    lines of its check, its pmu_compare.LogEntry). Runs in a worker process (pmu_compare_cli's
    pool), so it takes and gives only what pickles."""
    name, path, text, lines, origin, partial = task
    if text is None:
        text, lines, origin = read_source(path)
    report = pmu_model.build(pmu_records.parse(text, origin), source=name)
    if origin is not None and origin.run_id is None:
        # Photos without a code of a run (their check said so): no log to check, not a damaged one.
        lines = lines + ["  Overall: NO RECORDS (no pmu-testkernel QR code read). Exit status "
                         "%d." % report.exit_code]
    else:
        lines = lines + pmu_compare_text.log_check(report)
    return lines, pmu_compare.LogEntry(name, text, report, partial)


def tasks(sources, partial):
    """What each worker is given: a file by its path; standard input and the photos of a folder
    are read here (zbar, a terminal)."""
    for source in sources:
        name = "standard input" if source == "-" else source
        if source == "-" or os.path.isdir(source):
            yield (name, None) + read_source(source) + (partial,)
        else:
            yield name, source, None, [], None, partial


def workers(sources):
    """How many processes read the logs: one per CPU this process may use, for logs large
    enough to pay for them (a process starts in some 30 ms; a MB takes some 40 ms to check)."""
    big = sum(os.path.getsize(s) for s in sources if os.path.isfile(s)) > PARALLEL_BYTES
    return min(cpus(), len(sources)) if big else 1


def cpus():
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def digests(sources, partial):
    """(lines, LogEntry) of each source, in the order given: by a pool of processes where that
    pays (a pool that cannot start, as without /dev/shm, reads them here). Standard input and
    folders of photos are read once, here, first."""
    work = list(tasks(sources, partial))
    n = workers(sources)
    pool = None
    if n > 1:
        try:
            pool = concurrent.futures.ProcessPoolExecutor(max_workers=n)
        except (OSError, NotImplementedError, ImportError):
            pool = None
    if pool is None:
        yield from (digest(task) for task in work)
        return
    with pool:
        yield from pool.map(digest, work)


def read_all(sources, comparison, say, quiet):
    """Each source read, checked, its check printed, and added to the comparison: only its
    tallies come back, not its records."""
    try:
        for lines, entry in digests(sources, comparison.partial):
            comparison.add(entry)
            if entry.use != pmu_compare.WHOLE:
                lines.append("  comparison: %s%s" % (entry.use, ": " + entry.reason
                                                      if entry.reason else ""))
            if not quiet or entry.use != pmu_compare.WHOLE or entry.exit_code:
                say("\n".join(lines) + "\n")
    except pmu_photos.PhotoError as e:
        raise UsageError(str(e))
    except OSError as e:
        raise UsageError("cannot read %s: %s" % (e.filename or "a log", e.strerror or e))
    except concurrent.futures.process.BrokenProcessPool:
        raise UsageError("a process reading the logs stopped (out of memory?)")


def write_files(comparison, args):
    """The files asked for, plots first (comparison.json lists them); returns their paths."""
    os.makedirs(args.out, exist_ok=True)
    written = []
    if args.plots:
        plt = pmu_plots.load_pyplot()
        if plt is None:
            comparison.plot_note = ("matplotlib is not installed (Debian: apt-get install "
                                    "python3-matplotlib): no plots written")
        else:
            comparison.plots = pmu_compare_plots.write_plots(comparison, args.out, plt)
            written.extend(p["file"] for p in comparison.plots)
    if args.csv:
        written.extend(pmu_compare_export.write_csv_files(comparison, args.out))
    if args.json:
        written.append(pmu_compare_export.write_json(comparison, args.out))
    return written


def main(args, say):
    """The comparison of args.log (two or more sources); returns the exit status."""
    if args.save_log:
        print("pmu-report: --save-log takes one log, not a comparison", file=sys.stderr)
        return pmu_model.EXIT_USAGE
    comparison = pmu_compare.Comparison(partial=args.partial)
    try:
        check_sources(args.log)
        read_all(args.log, comparison, say, args.quiet)
    except UsageError as e:
        print("pmu-report: %s" % e, file=sys.stderr)
        return pmu_model.EXIT_USAGE
    comparison.finish()
    say(pmu_compare_text.render_comparison(comparison, quiet=args.quiet))
    try:
        written = write_files(comparison, args)
    except OSError as e:
        print("pmu-report: cannot write into %s: %s" % (args.out, e), file=sys.stderr)
        return pmu_model.EXIT_USAGE
    if comparison.plot_note:
        print("pmu-report: " + comparison.plot_note, file=sys.stderr)
    if written and not args.quiet:
        say("\nWrote %d files into %s: %s\n" % (len(written), args.out, ", ".join(
            os.path.basename(p) for p in written)))
    return comparison.exit_code
