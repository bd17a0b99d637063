// How the CLI ends on a signal: SIGTERM, SIGHUP and SIGINT stop every tool and `!cmd` process group
// (SIGTERM, then SIGKILL after a grace period), and the process exits with 128 + the signal number.
// Node's default on these signals is to die at once, without "exit" handlers, which left the groups
// running under PID 1. A mode that handles Ctrl+C itself (print/json abort the run first) takes SIGINT
// through `setInterruptHandler`; a second signal while cleaning up exits at once.
import { killProcessGroupsNow, terminateProcessGroups } from "../tools/process-registry.js";

const EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
type HandledSignal = keyof typeof EXIT_CODES;

/** Time the groups get between SIGTERM and SIGKILL. */
export const EXIT_GRACE_MS = 500;

let interruptHandler: (() => void) | undefined;
let exiting = false;
let installed = false;

/** While set, SIGINT calls `handler` instead of ending the process. */
export function setInterruptHandler(handler: (() => void) | undefined): void {
	interruptHandler = handler;
}

function onSignal(signal: HandledSignal): void {
	if (signal === "SIGINT" && interruptHandler && !exiting) {
		interruptHandler();
		return;
	}
	const code = EXIT_CODES[signal];
	if (exiting) {
		killProcessGroupsNow("SIGKILL");
		process.exit(code);
	}
	exiting = true;
	void terminateProcessGroups(EXIT_GRACE_MS).finally(() => process.exit(code));
}

/** Installs the handlers once for the life of the process. */
export function installExitSignals(): void {
	if (installed) return;
	installed = true;
	for (const signal of Object.keys(EXIT_CODES) as HandledSignal[]) process.on(signal, () => onSignal(signal));
}

/** At the end of a normal run: the groups still alive (`server &`) get SIGTERM and the grace period. */
export function stopProcessGroups(): Promise<void> {
	return terminateProcessGroups(EXIT_GRACE_MS);
}
