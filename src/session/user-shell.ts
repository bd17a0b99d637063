// `!cmd`: the user runs a shell command in the session's folder. Its output goes to the context so the
// model can help with it; it is capped, because a build log can be megabytes.
import { spawn } from "node:child_process";

export const maxShellOutputChars = 30_000;

export interface UserShellResult {
	output: string;
	/** null when the command was killed by a signal. */
	exitCode: number | null;
}

/** Keeps the end of long output: errors and summaries come last. */
function capOutput(text: string): string {
	if (text.length <= maxShellOutputChars) return text;
	return `[... ${text.length - maxShellOutputChars} earlier characters cut ...]\n${text.slice(-maxShellOutputChars)}`;
}

export function runUserShell(command: string, cwd: string, signal?: AbortSignal): Promise<UserShellResult> {
	return new Promise((resolve) => {
		const shell = process.env.SHELL && !process.env.SHELL.endsWith("fish") ? process.env.SHELL : "/bin/sh";
		const child = spawn(shell, ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"], signal, detached: false });
		const chunks: string[] = [];
		let size = 0;
		const collect = (chunk: Buffer) => {
			chunks.push(chunk.toString("utf8"));
			size += chunk.length;
			// Drop old chunks early so a runaway command cannot fill memory.
			while (size > maxShellOutputChars * 4 && chunks.length > 1) size -= Buffer.byteLength(chunks.shift() as string);
		};
		child.stdout.on("data", collect);
		child.stderr.on("data", collect);
		child.on("error", (error) => resolve({ output: error.message, exitCode: null }));
		child.on("close", (code) => resolve({ output: capOutput(chunks.join("").replace(/\n$/, "")), exitCode: code }));
	});
}
