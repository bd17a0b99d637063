// What Ink's log-update (ink/build/log-update.js) computes per frame from the frame's height only, for
// the patches in patches.ts. Per frame it split the whole frame string into lines to count them (an
// array and a string per row, ~4 µs for a 39-row frame in-process) and built the erase of the previous
// frame's rows one row at a time (ansi-escapes' eraseLines, ~1.8 µs); the count is a loop of indexOf
// (~0.9 µs) and the erase, the same for the same height, is kept per height (docs/ink.md §2).

/** The number of lines `text.split("\n")` gives, without building them. */
export function lineCount(text: string): number {
	let count = 1;
	for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
	return count;
}

/** Heights whose erase is kept: a frame is shorter than the screen (docs/ink.md §3). */
const KEPT_HEIGHTS = 256;

/** `eraseLines` (ansi-escapes') remembering its answer per count. */
export function keptErases(eraseLines: (count: number) => string): (count: number) => string {
	const kept: string[] = [];
	return (count) => {
		if (!(count >= 0 && count < KEPT_HEIGHTS && Number.isInteger(count))) return eraseLines(count);
		let erase = kept[count];
		if (erase === undefined) {
			erase = eraseLines(count);
			kept[count] = erase;
		}
		return erase;
	};
}
