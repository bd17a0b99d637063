// The user's own `!cmd` commands (rpc `bash`): run in the workspace, their output shown live while they
// run (shell-live-output.ts) and whole as they end, and added to the context (unless `!!cmd`). A run
// works on its own copy of the context, so output from while one is active waits and joins the
// transcript when it ends.
import type { AgentMessage } from "../agent/types.js";
import { redactSecrets } from "../safety/secrets.js";
import type { ShellOutputMessage } from "./session-messages.js";
import { ShellLiveOutput } from "./shell-live-output.js";
import type { SessionEvent } from "./types.js";
import { runUserShell, type UserShellResult } from "./user-shell.js";

export interface UserShellsDeps {
	cwd: string;
	emit: (event: SessionEvent) => void;
	/** A run (or compaction) is active: output waits for it. */
	busy: () => boolean;
	/** Adds a message to the transcript and the file. */
	append: (message: AgentMessage) => void;
	/** A command may change any file: it waits for the snapshot an edits-only rewind point waits for. */
	untrackedChangesMayStart: (signal: AbortSignal) => Promise<void>;
}

export class UserShells {
	private pending: ShellOutputMessage[] = [];
	/** Running `!cmd`s, stopped by `abort()`. */
	private readonly running = new Set<AbortController>();
	private count = 0;

	constructor(private readonly deps: UserShellsDeps) {}

	async run(command: string, excluded = false): Promise<UserShellResult> {
		const { emit } = this.deps;
		const id = ++this.count;
		const controller = new AbortController();
		this.running.add(controller);
		emit({ type: "user_shell_start", id, command, excluded });
		const live = new ShellLiveOutput((tail) => emit({ type: "user_shell_output", id, tail }));
		let result: UserShellResult;
		try {
			await this.deps.untrackedChangesMayStart(controller.signal);
			// Esc while it waited: runUserShell starts nothing on an aborted signal.
			result = await runUserShell(command, this.deps.cwd, controller.signal, (text) => live.add(text));
		} finally {
			live.stop();
			this.running.delete(controller);
		}
		const { exitCode, aborted } = result;
		const output = redactSecrets(result.output);
		emit({ type: "user_shell", id, command, output, exitCode, aborted, excluded });
		if (excluded) return result;
		const message: ShellOutputMessage = { role: "shellOutput", command, output, exitCode, timestamp: Date.now() };
		if (aborted) message.aborted = true;
		if (this.deps.busy()) this.pending.push(message);
		else this.deps.append(message);
		return result;
	}

	/** A `!cmd` is running. */
	get active(): boolean {
		return this.running.size > 0;
	}

	/** Stops running `!cmd`s (and what they started). */
	abort(): void {
		for (const shell of this.running) shell.abort();
	}

	/** A run ended: waiting output joins the transcript. */
	flush(): void {
		for (const message of this.pending.splice(0)) this.deps.append(message);
	}

	/** The session is switched: waiting output belonged to the old one. */
	drop(): void {
		this.pending = [];
	}
}
