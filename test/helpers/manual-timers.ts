// A hand-driven clock and timer queue, so a test says exactly when each timer fires.
export interface ManualTimers {
	now: () => number;
	setTimer: (fn: () => void, ms: number) => unknown;
	clearTimer: (handle: unknown) => void;
	/** Moves time on by `ms`, firing each timer due on the way at its own time. */
	advance(ms: number): void;
	/** Moves time on by `ms` without firing anything (the loop held up); overdue timers fire late. */
	stall(ms: number): void;
	/** Timers waiting. */
	pending(): number;
	/** Timers that have fired. */
	fired(): number;
}

export function manualTimers(start = 1000): ManualTimers {
	let time = start;
	let fired = 0;
	let nextId = 1;
	const timers: { at: number; fn: () => void; id: number }[] = [];
	const due = (end: number) => timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
	return {
		now: () => time,
		setTimer(fn, ms) {
			const id = nextId++;
			timers.push({ at: time + Math.max(0, ms), fn, id });
			return id;
		},
		clearTimer(id) {
			const i = timers.findIndex((t) => t.id === id);
			if (i >= 0) timers.splice(i, 1);
		},
		advance(ms) {
			const end = time + ms;
			// One at a time: a timer set by a callback fires in the same advance when it is due.
			for (let t = due(end); t; t = due(end)) {
				timers.splice(timers.indexOf(t), 1);
				time = Math.max(time, t.at);
				fired++;
				t.fn();
			}
			time = end;
		},
		stall(ms) {
			time += ms;
		},
		pending: () => timers.length,
		fired: () => fired,
	};
}
