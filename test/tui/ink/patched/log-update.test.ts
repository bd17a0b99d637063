// Runs in the "patched-ink" project only (vitest.config.ts): Ink's log-update as the bundle has it (the
// line count and kept erases of src/tui/ink/log-update-strings.ts) against Ink's own, on random
// sequences of frames, clears, syncs and cursor moves: the same writes, byte for byte.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const LOG_UPDATE = "../../../../node_modules/ink/build/log-update.js";

type Log = ((str: string) => boolean) & {
	clear(): void;
	done(): void;
	sync(str: string): void;
	setCursorPosition(position: { x: number; y: number } | undefined): void;
};
type Create = (stream: { write(data: string): boolean }, options?: { showCursor?: boolean }) => Log;

async function creators(): Promise<{ patched: Create; original: Create }> {
	const patched = (await import(/* @vite-ignore */ LOG_UPDATE)).default.create;
	const original = (await import(/* @vite-ignore */ `${LOG_UPDATE}?unpatched`)).default.create;
	return { patched, original };
}

const row = fc.stringMatching(/^[a-z \x1b[0-9;m─]{0,12}$/);
const frame = fc.tuple(fc.array(row, { maxLength: 45 }), fc.boolean()).map(([rows, newline]) => rows.join("\n") + (newline ? "\n" : ""));
const step = fc.oneof(
	{ weight: 6, arbitrary: frame.map((text) => ({ kind: "render" as const, text })) },
	{ weight: 1, arbitrary: fc.constant({ kind: "clear" as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: "done" as const }) },
	{ weight: 1, arbitrary: frame.map((text) => ({ kind: "sync" as const, text })) },
	{ weight: 1, arbitrary: fc.record({ x: fc.nat(20), y: fc.nat(50) }).map((position) => ({ kind: "cursor" as const, position })) },
);

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** Every write of one log-update for `steps`, and what each render returned. */
function run(create: Create, steps: Step[]): string[] {
	const writes: string[] = [];
	const log = create({ write: (data) => writes.push(data) > 0 });
	for (const s of steps) {
		if (s.kind === "render") writes.push(`=${log(s.text)}`);
		else if (s.kind === "clear") log.clear();
		else if (s.kind === "done") log.done();
		else if (s.kind === "sync") log.sync(s.text);
		else log.setCursorPosition(s.position);
	}
	return writes;
}

describe("Ink's log-update with the bundle's patches", () => {
	it("is the patched module (the project really runs the patches)", async () => {
		const { patched, original } = await creators();
		const stream = { write: () => true };
		// The import is renamed by the transform; the counted lines are not.
		expect(patched(stream).toString()).toMatch(/const lines = \{ length:/);
		expect(original(stream).toString()).not.toMatch(/const lines = \{ length:/);
	});

	it("writes exactly what unpatched Ink writes, frame after frame", async () => {
		const { patched, original } = await creators();
		fc.assert(
			fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
				expect(run(patched, steps)).toEqual(run(original, steps));
			}),
			{ numRuns: 1000 },
		);
	}, 60_000);
});
