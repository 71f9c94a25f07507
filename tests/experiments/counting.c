// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduling, programming and reading the counters of a measurement: what both counting ops
 * share (tests/experiments/counting.h). Every step runs under the lock of the measured pair's
 * counters (pmu->lock): the model's state and the XSU states are shared by the siblings. Nothing
 * here writes the console: a polled UART would take milliseconds out of the measurement.
 */
#include "kernel/cpu.h"
#include "kernel/time.h"
#include "pmu/counters.h"
#include "tests/experiments/counting.h"

/*
 * Fold what each counter counted since the last take into its event, with the schedule the
 * counters hold: the counts, interference marks, the model's true counts, and what leak catchers
 * caught (given back to the sibling's corrupting event, pmu/mux_pair.h).
 */
void counting_collect(struct measurement_thread *mt)
{
	const struct mux_schedule *s = &mt->programmed;
	struct model_pair *model = mt->m->pmu->model ? &mt->m->pmu->model_state : NULL;

	pmu_driver_stop(mt->driver);
	for (unsigned i = 0; i < mt->mux.nr_events; i++) {
		int counter = s->counter[i];
		if (counter == SCHED_NO_COUNTER)
			continue;
		mt->mux.events[i].count += pmu_driver_take(mt->driver, (unsigned)counter);
		/* Taken before the next program(), which forgets marks not taken. */
		if (pmu_driver_take_interfered(mt->driver, (unsigned)counter))
			mt->interfered[i] = true;
		if (model)
			mt->true_count[i] += model_true_take(model, mt->thread, (unsigned)counter);
	}
	for (unsigned c = 0; c < PMU_MAX_GP; c++) {
		if (!(s->catchers & (1u << c)))
			continue;
		uint64_t caught = pmu_driver_take(mt->driver, c);
		pmu_driver_take_interfered(mt->driver, c);
		if (model)
			model_true_take(model, mt->thread, c);
		mux_pair_add_leak(&mt->m->mux, mt->thread, s, c, caught);
	}
}

void counting_program(struct measurement_thread *mt, const struct mux_schedule *s)
{
	struct pmu_assignment a[MUX_MAX_EVENTS + PMU_MAX_GP];
	unsigned n = 0;

	for (unsigned i = 0; i < mt->mux.nr_events; i++)
		if (s->counter[i] != SCHED_NO_COUNTER)
			a[n++] = (struct pmu_assignment){ &mt->mux.events[i].event,
							  (unsigned)s->counter[i], 0 };
	for (unsigned c = 0; c < PMU_MAX_GP; c++)
		if (s->catchers & (1u << c))
			a[n++] = (struct pmu_assignment){ s->catcher, c, 0 };
	/* The model must know the catchers before they count: they are not exposure. */
	if (mt->m->pmu->model)
		model_set_catchers(&mt->m->pmu->model_state, mt->thread, s->catchers);
	enum pmu_drv_status status = pmu_driver_program(mt->driver, a, n);
	if (status == PMU_DRV_OK)
		mt->programmed = *s;
	else if (mt->program_error == PMU_DRV_OK)
		mt->program_error = status;
}

void counting_check(struct measurement_thread *mt)
{
	if (!mux_pair_invariant(&mt->m->mux))
		mt->violations++;
}

void counting_model_tick(const struct measurement_thread *mt)
{
	if (mt->m->pmu->model)
		model_tick(&mt->m->pmu->model_state, mt->thread);
}

void counting_mark_exposure(struct measurement_thread *mt)
{
	if (mt->m->pmu->model)
		mt->exposure_at_start = model_exposure_ticks(&mt->m->pmu->model_state, mt->thread);
}

void counting_stop(struct measurement_thread *mt, void (*also)(struct measurement_thread *mt))
{
	tick_stop();
	mt->tick = tick_stats_read(this_cpu()->index);

	uint64_t flags = spin_lock_irqsave(&mt->m->pmu->lock);
	if (also)
		also(mt);
	counting_collect(mt);
	counting_model_tick(mt);
	spin_unlock_irqrestore(&mt->m->pmu->lock, flags);
}
