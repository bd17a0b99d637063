// Polls `check` until it holds: for tests that wait on something no event reports (a file a hook
// wrote, a process gone). Rejects after `timeoutMs`, generous for a loaded machine, naming `what`.
export async function waitUntil(check: () => boolean, what = "the condition", timeoutMs = 15_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}
