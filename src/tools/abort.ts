// One wording for a stopped tool, so the transcript reads the same whichever tool was running.

export const ABORTED_MESSAGE = "Operation aborted";

/** Throws when the run was stopped; tools call it before work and between steps of long walks. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
}
