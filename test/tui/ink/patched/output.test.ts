// Runs in the "patched-ink" project only (vitest.config.ts): Ink's Output as the bundle has it (the
// patches of src/tui/ink/patches.ts applied) against Ink's own, on random frames. A new Ink whose
// text still matches every anchor but draws differently (Ink 7.1.1 changed how wide characters are
// laid out, which the row cache would undo) fails here, not on users' screens.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FilledOutput, fillOutput, frame, type OutputClass } from "../output-frames.js";

const OUTPUT = "../../../../node_modules/ink/build/output.js";

async function outputClasses(): Promise<{ patched: OutputClass; original: OutputClass }> {
	const patched = (await import(/* @vite-ignore */ OUTPUT)).default;
	const original = (await import(/* @vite-ignore */ `${OUTPUT}?unpatched`)).default;
	return { patched, original };
}

describe("Ink's Output with the bundle's patches", () => {
	it("is the patched class (the project really runs the patches)", async () => {
		const { patched, original } = await outputClasses();
		expect(patched.prototype.get.toString()).toContain("renderOutput");
		expect(original.prototype.get.toString()).not.toContain("renderOutput");
	});

	it("draws every random frame exactly as unpatched Ink, first time and from its caches", async () => {
		const { patched, original } = await outputClasses();
		fc.assert(
			fc.property(frame, (f) => {
				const expected = fillOutput(original, f).get();
				const first: FilledOutput = fillOutput(patched, f);
				expect(first.get()).toEqual(expected);
				expect(fillOutput(patched, f).get()).toEqual(expected);
			}),
			{ numRuns: 2000 },
		);
		// Thousands of frames: seconds on a loaded 2-core machine, past the default 5 s.
	}, 60_000);
});
