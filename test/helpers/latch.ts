// A promise the test resolves when it chooses: a scripted reply awaits `released` to hold a run (or a
// sub-agent) where the test wants it, and `release()` lets it go.
export function latch(): { released: Promise<void>; release: () => void } {
	let release!: () => void;
	const released = new Promise<void>((resolve) => {
		release = resolve;
	});
	return { released, release };
}
