// Property tests of a fast path that may decline an input (and leave it to the general code): the
// comparison only means something if the fast path was taken often, so each such test also counts.
import fc from "fast-check";
import { expect } from "vitest";

/**
 * Runs `check` on `numRuns` values of `arbitrary`; `check` compares the fast path with the reference
 * (throwing on a difference) and returns false when the fast path declined the value. Fails when the
 * comparison ran `atLeast` times or fewer: a generator that drifts away from the fast path's inputs
 * fails instead of passing without having compared anything.
 */
export function assertTakenOften<T>(
	arbitrary: fc.Arbitrary<T>,
	check: (value: T) => boolean,
	{ numRuns, atLeast }: { numRuns: number; atLeast: number },
): void {
	let taken = 0;
	fc.assert(
		fc.property(arbitrary, (value) => {
			if (check(value)) taken++;
		}),
		{ numRuns },
	);
	expect(taken).toBeGreaterThan(atLeast);
}
