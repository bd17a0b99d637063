// The spinner's busy tick rides the app's frame clock: no standing interval, no wake-up while frames
// are being drawn anyway, one per TICK_MS (200 ms) when they stop.
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { useBusyTick } from "../../../src/tui/app/app-hooks.js";
import { createFrameClock, type FrameClock } from "../../../src/tui/frame/frame-clock.js";
import { createLiveTick } from "../../../src/tui/frame/frame-scheduler.js";
import { liveRegionFor } from "../../../src/tui/ink/live-region.js";
import { manualTimers } from "../../helpers/manual-timers.js";

function Probe(props: { busy: boolean; refresh: () => void; live: Parameters<typeof useBusyTick>[2]; clock: FrameClock }) {
	useBusyTick(props.busy, props.refresh, props.live, props.clock);
	return null;
}

async function mount(opts: { appClocks?: boolean } = {}) {
	const timers = manualTimers(5000);
	const clock = createFrameClock({ frameMs: 50, ...timers });
	const tick = createLiveTick(timers.now);
	const refreshes: number[] = [];
	const live = { tick, appClocks: () => opts.appClocks === true };
	const refresh = () => refreshes.push(timers.now());
	const app = render(<Probe busy refresh={refresh} live={live} clock={clock} />);
	// Ink runs the effect after its commit.
	await new Promise((resolve) => setImmediate(resolve));
	return {
		timers,
		clock,
		tick,
		refreshes,
		app,
		rerender: (busy: boolean) => app.rerender(<Probe busy={busy} refresh={refresh} live={live} clock={clock} />),
	};
}

describe("useBusyTick", () => {
	it("refreshes once per TICK_MS while nothing else draws, with one timer per refresh", async () => {
		const { timers, refreshes, app } = await mount();
		timers.advance(1000);
		expect(refreshes.length).toBeGreaterThanOrEqual(4);
		expect(refreshes.length).toBeLessThanOrEqual(5);
		for (let i = 1; i < refreshes.length; i++) expect((refreshes[i] as number) - (refreshes[i - 1] as number)).toBe(200);
		expect(timers.fired()).toBe(refreshes.length);
		app.unmount();
	});

	it("sets no timer of its own while the live tail's frames run at each boundary, and ticks once they stop", async () => {
		const { timers, clock, tick, refreshes, app } = await mount();
		// The paced reads: a frame drawn at every boundary for a second.
		let reads = 0;
		const read = () => {
			tick.bump();
			if (++reads < 20) clock.nextFrame(read);
		};
		clock.nextFrame(read);
		timers.advance(1000);
		expect(refreshes).toEqual([]);
		expect(timers.fired()).toBe(20);
		// Frames stopped at 6000: the spinner turns about TICK_MS later.
		timers.advance(250);
		expect(refreshes).toHaveLength(1);
		expect(refreshes[0]).toBeGreaterThanOrEqual(6175);
		expect(refreshes[0]).toBeLessThanOrEqual(6225);
		expect(timers.fired()).toBe(21);
		app.unmount();
	});

	it("still refreshes the App for running tools' clocks while the tail draws, on the frames' boundaries", async () => {
		const { timers, clock, tick, refreshes, app } = await mount({ appClocks: true });
		const read = () => {
			tick.bump();
			clock.nextFrame(read);
		};
		clock.nextFrame(read);
		timers.advance(1000);
		expect(refreshes.length).toBeGreaterThanOrEqual(4);
		for (const at of refreshes) expect((at - 5000) % 50).toBe(0);
		// Every wake-up was a boundary of the reads.
		expect(timers.fired()).toBe(20);
		app.unmount();
	});

	it("tells the live frame writer, at a tail frame where running tools' clocks are due, that the App renders in that turn", async () => {
		for (const appClocks of [true, false]) {
			const { timers, clock, tick, refreshes, app } = await mount({ appClocks });
			const region = liveRegionFor(tick);
			// Each tail frame asks the region, as its tick listener does before the writer draws.
			const frames: { at: number; appRenders: boolean }[] = [];
			const read = () => {
				frames.push({ at: timers.now(), appRenders: region.appRenders() });
				tick.bump();
				clock.nextFrame(read);
			};
			clock.nextFrame(read);
			timers.advance(1000);
			// The clock runs a boundary's frames before its deadlines: a frame told "the App renders" is
			// followed by the busy tick's render in the same turn, and every such render had its frame told.
			expect(frames.filter((f) => f.appRenders).map((f) => f.at)).toEqual(refreshes);
			if (appClocks) expect(refreshes.length).toBeGreaterThanOrEqual(4);
			else expect(refreshes).toEqual([]);
			app.unmount();
			await new Promise((resolve) => setImmediate(resolve));
			expect(region.appRenders()).toBe(false);
		}
	});

	it("stops when the run is over", async () => {
		const { timers, refreshes, rerender, app } = await mount();
		rerender(false);
		await new Promise((resolve) => setImmediate(resolve));
		timers.advance(1000);
		expect(refreshes).toEqual([]);
		expect(timers.pending()).toBe(0);
		app.unmount();
	});
});
