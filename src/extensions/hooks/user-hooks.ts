// A session's hooks: the configured commands with their trust, which of them an event runs, running
// them (all of one event at once, each with its timeout) and the combined outcome the session acts on.
// Built once per session from the loaded configuration; json/rpc and the UI hear `hook_started` /
// `hook_finished` through `onEvent`.
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import { redactSecrets } from "../../safety/secrets.js";
import { EVENT_FACTS } from "./events.js";
import { matches } from "./matcher.js";
import { hookPayload, matchTargets } from "./payload.js";
import { combineVerdicts, hookVerdict } from "./result.js";
import { runHookProcess } from "./runner.js";
import { type HookTrustState, hookTrustStates, rememberHookTrust } from "./trust.js";
import type { HookCommand, HookEvent, HookInput, HookLifecycleEvent, HookOutcome, HookSession } from "./types.js";

type Env = Record<string, string | undefined>;

export interface UserHooksOptions {
	hooks: readonly HookCommand[];
	/** The project folder: hooks run there, and trust is remembered for it. */
	cwd: string;
	env: Env;
	/** The shell that runs each command (bash where there is one). */
	shell: string;
	passEnv: readonly string[];
	onEvent: (event: HookLifecycleEvent) => void;
}

/** One hook as `/hooks` and rpc show it. */
export interface HookListing {
	event: HookEvent;
	matcher: string;
	command: string;
	file: string;
	project: boolean;
	trust: HookTrustState;
	timeoutSeconds: number;
}

export class UserHooks {
	private states: HookTrustState[];
	private nextId = 0;

	constructor(private readonly options: UserHooksOptions) {
		this.states = hookTrustStates(options.hooks, { cwd: options.cwd, env: options.env });
	}

	/** Every configured hook with its trust state, in configuration order. */
	list(): HookListing[] {
		return this.options.hooks.map((h, i) => ({
			event: h.event,
			matcher: h.matcher,
			command: h.command,
			file: h.file,
			project: h.project,
			trust: this.states[i],
			timeoutSeconds: h.timeoutSeconds,
		}));
	}

	/** Project hooks that do not run: never answered for (or changed since), or declined. */
	skipped(): HookCommand[] {
		return this.options.hooks.filter((_, i) => this.states[i] !== "trusted");
	}

	/** Project hooks waiting for an answer (never asked, or changed since). */
	waitingForTrust(): HookCommand[] {
		return this.options.hooks.filter((_, i) => this.states[i] === "unknown");
	}

	/** The user's answer on every project hook that does not run yet; remembered for this folder, in full. */
	answerTrust(allow: boolean): HookCommand[] {
		const asked = this.options.hooks.filter((_, i) => this.states[i] === "unknown" || (allow && this.states[i] === "declined"));
		if (asked.length === 0) return [];
		rememberHookTrust(asked, allow, { cwd: this.options.cwd, env: this.options.env });
		this.states = hookTrustStates(this.options.hooks, { cwd: this.options.cwd, env: this.options.env });
		return asked;
	}

	/** The trusted hooks this input runs (matched by tool name, source, ...). */
	hooksFor(input: HookInput): HookCommand[] {
		const targets = matchTargets(input);
		return this.options.hooks.filter(
			(h, i) => h.event === input.event && this.states[i] === "trusted" && (targets === undefined || matches(h.matcher, targets)),
		);
	}

	/** Whether any trusted hook is configured for `event` (callers skip building a payload when not). */
	has(event: HookEvent): boolean {
		return this.options.hooks.some((h, i) => h.event === event && this.states[i] === "trusted");
	}

	/** Runs every matching trusted hook at once; the abort signal (Esc) stops them all. */
	async run(input: HookInput, session: HookSession, signal?: AbortSignal): Promise<HookOutcome> {
		const hooks = this.hooksFor(input);
		if (hooks.length === 0) return { verdicts: [], notices: [] };
		const stdin = JSON.stringify(hookPayload(input, session));
		const verdicts = await Promise.all(
			hooks.map(async (hook) => {
				const id = `hook-${++this.nextId}`;
				const named = { id, event: hook.event, command: hook.command, file: hook.file };
				this.options.onEvent({ type: "hook_started", ...named });
				const run = await runHookProcess({
					command: hook.command,
					stdin,
					projectDir: this.options.cwd,
					timeoutMs: hook.timeoutSeconds * 1000,
					shell: this.options.shell,
					env: this.options.env,
					passEnv: this.options.passEnv,
					signal,
				});
				const verdict = hookVerdict(hook, run);
				this.options.onEvent({
					type: "hook_finished",
					...named,
					status: verdict.status,
					exitCode: verdict.exitCode,
					durationMs: verdict.durationMs,
				});
				return verdict;
			}),
		);
		return combineVerdicts(verdicts);
	}
}

/** Commands and paths come from files a clone can hold: shown only through the sanitiser. */
const screen = (text: string) => sanitizeTerminalText(redactSecrets(text));

/** The one notice for project hooks that were not run; undefined when none was skipped. */
export function skippedHooksNotice(skipped: readonly HookCommand[], how: string): string | undefined {
	if (skipped.length === 0) return undefined;
	const lines = skipped.map((h) => `  ${h.event}${h.matcher ? ` [${h.matcher}]` : ""}: ${h.command}  (${h.file})`);
	return screen(
		[`This project's hooks were not run (not trusted yet); they would run with your permissions, outside the sandbox:`, ...lines, how].join(
			"\n",
		),
	);
}

/** The text of `/hooks`: every hook with event, matcher, file and trust. */
export function formatHookList(hooks: readonly HookListing[]): string {
	if (hooks.length === 0) return 'No hooks (configure them under "hooks" in settings.json or .claude/settings.json)';
	const lines = hooks.map((h) => {
		const matcher = EVENT_FACTS[h.event].matches ? `  matcher: ${h.matcher || "*"}` : "";
		const trust = h.project ? h.trust : "trusted (your own settings)";
		return `${h.event}${matcher}  [${trust}]\n    ${h.command}\n    from ${h.file}`;
	});
	return screen(`Hooks:\n${lines.join("\n")}`);
}
