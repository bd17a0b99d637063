// `!cmd`: the user runs a shell command in the session's folder. Its output goes to the context so the
// model can help with it; it is capped, because a build log can be megabytes. Esc stops it: the
// command runs as its own process group, so whatever it started stops too.
import { killProcessGroup, spawnShellCommand } from "../tools/shell.js";

/** Between SIGTERM and SIGKILL when stopped. */
const KILL_GRACE_MS = 500;

export const maxShellOutputChars = 30_000;

export interface UserShellResult {
	output: string;
	/** null when the command was killed by a signal. */
	exitCode: number | null;
	/** Stopped through the signal (Esc). */
	aborted: boolean;
	/** The output was cut to its last `maxShellOutputChars` characters. */
	truncated?: boolean;
}

/** Keeps the end of long output: errors and summaries come last. `droppedChars` were let go while it ran. */
function capOutput(text: string, droppedChars: number): string {
	if (text.length <= maxShellOutputChars && droppedChars === 0) return text;
	const cut = droppedChars + Math.max(0, text.length - maxShellOutputChars);
	return `[... ${cut} earlier characters cut ...]\n${text.slice(-maxShellOutputChars)}`;
}

/** `onOutput` hears each piece of output (stdout and stderr, as they come) while the command runs. */
export function runUserShell(
	command: string,
	cwd: string,
	signal?: AbortSignal,
	onOutput?: (text: string) => void,
): Promise<UserShellResult> {
	if (signal?.aborted) return Promise.resolve({ output: "", exitCode: null, aborted: true });
	return new Promise((resolve) => {
		const shell = process.env.SHELL && !process.env.SHELL.endsWith("fish") ? process.env.SHELL : "/bin/sh";
		const child = spawnShellCommand({ shell, command, cwd });
		const chunks: string[] = [];
		let size = 0;
		let aborted = false;
		// Characters let go while it ran, so the note says how much was cut in all.
		let droppedChars = 0;
		// A decoder per stream: a character split between two reads of it is not cut in half.
		const collect = (decoder: TextDecoder) => (chunk: Buffer) => {
			const text = decoder.decode(chunk, { stream: true });
			chunks.push(text);
			onOutput?.(text);
			size += Buffer.byteLength(text);
			// Drop old chunks early so a runaway command cannot fill memory.
			while (size > maxShellOutputChars * 4 && chunks.length > 1) {
				const old = chunks.shift() as string;
				size -= Buffer.byteLength(old);
				droppedChars += old.length;
			}
		};
		const onAbort = () => {
			aborted = true;
			if (child.pid !== undefined) killProcessGroup(child.pid, KILL_GRACE_MS);
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		child.stdout.on("data", collect(new TextDecoder()));
		child.stderr.on("data", collect(new TextDecoder()));
		child.on("error", (error) => {
			signal?.removeEventListener("abort", onAbort);
			resolve({ output: error.message, exitCode: null, aborted });
		});
		child.on("close", (code) => {
			signal?.removeEventListener("abort", onAbort);
			const full = chunks.join("").replace(/\n$/, "");
			resolve({
				output: capOutput(full, droppedChars),
				exitCode: code,
				aborted,
				...(droppedChars > 0 || full.length > maxShellOutputChars ? { truncated: true } : {}),
			});
		});
	});
}
