// SPDX-License-Identifier: GPL-2.0
/*
 * What both counting ops share (tests/experiments/counting.h). Every step runs under the lock of
 * the measured pair's counters (pmu->lock): the model's state and the XSU states are shared by
 * the siblings. Nothing here writes the console: a polled UART would take milliseconds out of the
 * measurement.
 */
#include "kernel/cpu.h"
#include "kernel/time.h"
#include "pmu/counters.h"
#include "tests/experiments/counting.h"

/* The model hears which counters hold catchers before they count: they are not exposure. */
static void model_catchers(void *ctx, unsigned thread, uint8_t gp)
{
	model_set_catchers(ctx, thread, gp);
}

/* The model's tick on this thread (exposure accounting). */
static void model_tick_hook(void *ctx, unsigned thread)
{
	model_tick(ctx, thread);
}

void counting_bind(struct measurement_thread *mt, struct pmu_driver *driver)
{
	struct pmu *pmu = mt->m->pmu;
	const struct thread_counters_hooks hooks = { model_catchers, model_tick_hook,
						     &pmu->model_state };

	thread_counters_init(&mt->tc, &mt->m->mux, mt->thread, driver, pmu->model ? &hooks : NULL);
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
	thread_counters_ended(&mt->tc);
	thread_counters_read(&mt->tc, ~0ull);
	thread_counters_tick(&mt->tc);
	spin_unlock_irqrestore(&mt->m->pmu->lock, flags);
}

const struct counting_ops *counting_of(const struct xsu_ops *ops)
{
	static const struct counting_ops *const by_ticking[XSU_TICKINGS] = {
		[XSU_TICK_EACH] = &counting_alone,
		[XSU_TICK_JOINT] = &counting_joint,
	};

	return by_ticking[ops->ticking];
}
