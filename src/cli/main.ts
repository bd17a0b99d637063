// The `rudder` command: parse the flags, pick a model and a session, run one mode. Every failure ends
// as one line on stderr and an exit code (1: the run failed, 2: bad usage or nothing to run with).
// The interactive mode (Ink, React) is imported only when used, so print/json/rpc start fast; the
// session (tools, agent, schemas) only once the flags are read, so --help, --version and bad usage are instant.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { isDemoModel, PROVIDER_KEY_ENV } from "../ai/constants.js";
import type { ModelRegistry } from "../ai/model-registry.js";
import type { Model } from "../ai/types.js";
import { dataDir } from "../config/paths.js";
import { formatConfigProblem, takeReportedConfigProblems } from "../config/problems.js";
import { runJson } from "../modes/json.js";
import {
	errorLine,
	forOutput,
	INTERRUPTED_EXIT_CODE,
	type Interruption,
	interruptionOf,
	type ModeOutput,
	runPrint,
} from "../modes/print.js";
import { runRpc } from "../modes/rpc/index.js";
import { folderTrust } from "../permissions/trust.js";
import { realTarget } from "../permissions/workspace.js";
import { childEnv } from "../safety/child-env.js";
import { scrubOwnEnviron } from "../safety/own-environ.js";
import { processSecrets } from "../safety/secrets.js";
import type { AgentSession } from "../session/agent-session.js";
import type { PermissionSetup } from "../session/session-permissions.js";
import { loadSettingsChecked } from "../session/settings.js";
import { heldSettingsNotice } from "../session/settings-trust.js";
import type { AgentSessionApi } from "../session/types.js";
import { UserModels } from "../settings/user-models.js";
import { toolProcessSlots } from "../tools/process-slots.js";
import { type CliArgs, type CliMode, parseCliArgs } from "./args.js";
import { installExitSignals, setInterruptHandler, stopProcessGroups } from "./exit-signals.js";
import { afterFirstReply } from "./first-reply.js";
import { discoveryOptions, type ModelCatalog, resolveModel } from "./resolve-model.js";
import { chooseSessionMode } from "./session-choice.js";

const stdout: ModeOutput = { write: (text) => void process.stdout.write(text), isTTY: process.stdout.isTTY === true };
const stderr: ModeOutput = { write: (text) => void process.stderr.write(text), isTTY: process.stderr.isTTY === true };

/** When a run without the app counts as started (its request is on its way by then). */
const HEADLESS_START_UP_MS = 1000;

/** What bin/rudder.js asks to hear about (its code cache, docs/startup.md). */
export interface StartupHooks {
	/**
	 * Once start-up has run: in the app when the first screen is drawn and the keyboard has rested
	 * (src/modes/interactive.ts), in the other modes a second in. Never for --help, --version or bad usage.
	 */
	afterStartUp?: () => void;
	/** Once, when the session has stayed idle for a moment after its first run (and, in the app, the keyboard rests). */
	afterFirstReply?: () => void;
}

/** Runs the CLI; resolves to the exit code. Never throws. */
export async function main(argv: string[], hooks: StartupHooks = {}): Promise<number> {
	installExitSignals();
	try {
		return await run(argv, hooks);
	} catch (error) {
		stderr.write(errorLine(error instanceof Error ? error.message : String(error)));
		return 1;
	} finally {
		await stopProcessGroups();
	}
}

async function run(argv: string[], hooks: StartupHooks): Promise<number> {
	if (argv[2] === "permissions") {
		const { runPermissionsCommand } = await import("./permissions-command.js");
		const result = runPermissionsCommand(argv.slice(3), process.cwd(), process.env);
		stdout.write(result.stdout);
		stderr.write(result.stderr);
		return result.code;
	}
	if (argv[2] === "mcp") {
		const { runMcpCommand } = await import("./mcp-command.js");
		const result = await runMcpCommand(argv.slice(3), process.cwd(), process.env);
		stdout.write(result.stdout);
		stderr.write(result.stderr);
		return result.code;
	}
	const parsed = parseCliArgs(argv, readVersion());
	if (parsed.kind === "exit") {
		stdout.write(parsed.stdout);
		stderr.write(parsed.stderr);
		return parsed.code;
	}
	const args = parsed.args;
	const mode = chooseMode(args, process.stdin.isTTY === true);
	if (mode !== "interactive" && hooks.afterStartUp) setTimeout(hooks.afterStartUp, HEADLESS_START_UP_MS).unref();
	const cwd = process.cwd();
	const env = process.env;
	if (args.apiKey) processSecrets.add(args.apiKey);
	const registry = new UserModels({ env });
	scrubKeysFromOwnEnviron(env);
	// The project's entries that change the model, costs or safety wait for trust (remembered or the flag).
	const trustedAtStart = args.trustProject === true || folderTrust(dataDir(env), realTarget(cwd)) === true;
	let { settings, problems: settingsProblems } = loadSettingsChecked({ cwd, env, trusted: trustedAtStart });
	// Every config problem once, at start: a notice in the app, a stderr line in the other modes.
	const configProblems = [...registry.problems, ...settingsProblems, ...takeReportedConfigProblems()].map(formatConfigProblem);
	if (mode !== "interactive" || args.listModels !== undefined) for (const problem of configProblems) stderr.write(errorLine(problem));
	if (args.listModels !== undefined) return listModels(registry, args.listModels === true ? "" : args.listModels);

	// Before the model is chosen: trusting the folder at the prompt lets its defaultModel apply.
	const permissions = await setUpPermissions(args, mode, cwd, env);
	if (!permissions.ok) return fail(permissions.message, 2);
	if (permissions.setup.trusted && !trustedAtStart) settings = loadSettingsChecked({ cwd, env, trusted: true }).settings;
	const heldNotice = permissions.setup.trusted ? undefined : heldSettingsNotice(permissions.setup.held);
	if (heldNotice && mode !== "interactive") stderr.write(errorLine(heldNotice));

	toolProcessSlots.setLimit(settings.tools.maxProcesses);
	const choice = await resolveModel(catalogOf(registry, env), {
		model: args.model,
		provider: args.provider,
		defaultModel: settings.defaultModel,
		interactive: mode === "interactive",
		demo: async () => (await import("../ai/providers/demo.js")).registerDemoProvider(),
	});
	if (!choice.ok) return fail(choice.message, choice.exitCode);
	if (mode === "acp") return await runAcpMode(args, { env, registry, model: choice.model });

	let prompt = args.message;
	if (mode === "print" || mode === "json") {
		if (!process.stdin.isTTY) prompt = joinPrompt(prompt, await readAll(process.stdin));
		if (prompt.trim() === "") return fail('no prompt: pass a message (rudder -p "...") or pipe text on stdin', 2);
	}

	const sessionMode = chooseSessionMode(args, { cwd, env, interactive: mode === "interactive" });
	if (!sessionMode.ok) return fail(sessionMode.message, 2);
	if (sessionMode.notice && mode !== "interactive") stderr.write(errorLine(sessionMode.notice));

	// A resumed session keeps the model it was using unless a flag names one (or only the demo is left).
	const resuming = sessionMode.mode.kind === "continue" || sessionMode.mode.kind === "file";
	const keepRecordedModel = resuming && !args.model && !args.provider && choice.notice === undefined;
	await askHooksTrust(args, mode, cwd, env);
	const { createAgentSession } = await import("../session/assemble.js");
	const session = await createAgentSession({
		cwd,
		model: keepRecordedModel ? undefined : choice.model,
		thinkingLevel: args.thinking,
		tools: args.tools,
		systemPrompt: args.systemPrompt,
		appendSystemPrompt: args.appendSystemPrompt,
		sessionMode: sessionMode.mode,
		registry,
		settings,
		env,
		apiKey: args.apiKey,
		permissions: permissions.setup,
		approvals: mode === "print" || mode === "json" ? mode : mode === "rpc" && !args.rpcApprovals ? "rpc" : "prompt",
		trustProjectHooks: args.trustProject,
	});
	// The MCP servers' keys are known now too; no command has run yet.
	scrubKeysFromOwnEnviron(env);
	// The app starts MCP servers after its first frame; the other modes now, while the prompt is sent.
	if (mode !== "interactive") session.startMcpServers("headless");
	const input = mode === "interactive" ? process.stdin : undefined;
	const stopWatching = hooks.afterFirstReply ? afterFirstReply(session, hooks.afterFirstReply, { input }) : () => {};
	try {
		const notices = [...configProblems, heldNotice, choice.notice, sessionMode.notice].filter((n): n is string => n !== undefined);
		const app = { notices, openResumePicker: sessionMode.pick, afterFirstScreen: hooks.afterStartUp };
		return await runMode(mode, session, args, prompt, app);
	} finally {
		stopWatching();
		await session.dispose();
	}
}

/**
 * A command run outside the sandbox (yolo, or let out) can read Rudder's `/proc/<pid>/environ`: every
 * variable commands would not get (a credential by name, or a known key by value, models.json's
 * `"$LLM_CRED"` included) leaves that copy. Rudder keeps them in `process.env`. Best effort: where
 * `/proc/self/mem` cannot be written the block stays as it was (docs/tool-guards.md).
 */
function scrubKeysFromOwnEnviron(env: Record<string, string | undefined>): void {
	const forCommands = childEnv(env);
	scrubOwnEnviron((name) => !Object.hasOwn(forCommands, name));
}

/** Runs the chosen mode over a ready session; resolves to the exit code. */
async function runMode(
	mode: CliMode,
	session: AgentSession,
	args: CliArgs,
	prompt: string,
	app: { notices: string[]; openResumePicker?: boolean; afterFirstScreen?: () => void },
): Promise<number> {
	switch (mode) {
		case "print":
			return await withInterruptAbort(session, (interrupted) => runPrint(session, prompt, { stdout, stderr, interrupted }));
		case "json":
			return await withInterruptAbort(session, (interrupted) => runJson(session, prompt, { stdout, stderr, interrupted }));
		case "rpc":
			return await runRpc(
				session,
				{ stdin: process.stdin, stdout },
				{
					// Exact, as pi's set_model: a near miss must not switch to some other model.
					findModel: (p, id) => session.availableModels().find((m) => m.provider === p && m.id === id),
					fullUpdates: args.rpcFullUpdates,
				},
			);
		case "acp":
			throw new Error("acp mode opens its sessions itself (runAcpMode)");
		case "interactive": {
			const { runInteractive } = await import("../modes/interactive.js");
			return await runInteractive(session, { initialPrompt: prompt || undefined, ...app });
		}
	}
}

/**
 * ACP mode: no session up front; the editor opens them (`session/new`, `session/load`), each in its own
 * folder with that folder's settings and permissions, and the model, tools and flags of this command.
 */
async function runAcpMode(
	args: CliArgs,
	base: { env: Record<string, string | undefined>; registry: UserModels; model: Model },
): Promise<number> {
	const picked = [args.continue && "--continue", args.resume && "--resume", args.session !== undefined && "--session"].filter(Boolean);
	if (picked.length > 0) return fail(`${picked.join(", ")}: in acp mode the editor picks the session (session/new, session/load)`, 2);
	const { env, registry } = base;
	const [{ runAcp }, { createAgentSession }, { findSession, listSessions }] = await Promise.all([
		import("../modes/acp/acp-mode.js"),
		import("../session/assemble.js"),
		import("../session/session-store.js"),
	]);
	const persist = !args.noSession;
	return await runAcp(
		{ stdin: process.stdin, stdout },
		{
			version: readVersion(),
			sessions: {
				persist,
				hasSaved: (cwd, id) => listSessions(cwd, env).some((s) => s.id === id),
				list: (cwd) => listSessions(cwd, env),
				open: async (cwd, savedId, mcpServers, outsideBash) => {
					const permissions = await setUpPermissions(args, "acp", cwd, env);
					if (!permissions.ok) throw new Error(permissions.message);
					const path = savedId === undefined ? undefined : findSession(cwd, savedId, env).path;
					const { settings } = loadSettingsChecked({ cwd, env });
					return await createAgentSession({
						cwd,
						// A loaded session keeps the model it was using unless a flag names one.
						model: path && !args.model && !args.provider ? undefined : base.model,
						thinkingLevel: args.thinking,
						tools: args.tools,
						systemPrompt: args.systemPrompt,
						appendSystemPrompt: args.appendSystemPrompt,
						sessionMode: path ? { kind: "file", path } : persist ? { kind: "new" } : { kind: "none" },
						registry,
						settings,
						env,
						apiKey: args.apiKey,
						permissions: permissions.setup,
						approvals: "prompt",
						mcpServers,
						// The environment the session gives its commands (see src/safety/child-env.ts).
						outsideBash: outsideBash?.(childEnv(env, settings.shell.passEnv)),
					});
				},
			},
		},
	);
}

/**
 * The permission policy from settings and flags. In the TUI, a project whose settings widen anything
 * and that was never asked about gets the trust prompt first; elsewhere `--trust-project` decides.
 */
async function setUpPermissions(
	args: CliArgs,
	mode: CliMode,
	cwd: string,
	env: Record<string, string | undefined>,
): Promise<{ ok: true; setup: PermissionSetup } | { ok: false; message: string }> {
	for (const dir of args.addDirs) {
		if (!existsSync(resolve(cwd, dir)) || !statSync(resolve(cwd, dir)).isDirectory())
			return { ok: false, message: `--add-dir ${dir}: no such folder` };
	}
	const options = {
		cwd,
		env,
		flags: { mode: args.permissionMode, allow: args.allow, deny: args.deny, addDirs: args.addDirs },
		trustProject: args.trustProject,
	};
	const { loadPermissionSetup } = await import("../session/session-permissions.js");
	const setup = loadPermissionSetup(options);
	if (mode !== "interactive" || !setup.trustUnknown || !process.stdin.isTTY) return { ok: true, setup };
	const { askTrust } = await import("../modes/interactive.js");
	const trustAnswer = await askTrust([...setup.resolved.widenings, ...setup.held]);
	return { ok: true, setup: loadPermissionSetup({ ...options, trustAnswer }) };
}

/**
 * In the TUI, a project whose hooks were never answered for (or changed since) gets the trust prompt,
 * listing each command in full, before the session starts; the answer is remembered. Elsewhere the
 * session's start notice names them and `--trust-project` or `/hooks trust` trusts them.
 */
async function askHooksTrust(args: CliArgs, mode: CliMode, cwd: string, env: Record<string, string | undefined>): Promise<void> {
	if (mode !== "interactive" || args.trustProject || !process.stdin.isTTY) return;
	const { hooksWaitingForTrust, rememberHookTrust } = await import("../extensions/hooks/trust.js");
	const waiting = hooksWaitingForTrust({ cwd, env });
	if (waiting.length === 0) return;
	const { askHooksTrust: ask } = await import("../modes/interactive.js");
	rememberHookTrust(waiting, await ask(waiting), { cwd, env });
}

/** The registry, with local discovery limited as `RUDDER_DISCOVERY_PORTS` says. */
function catalogOf(registry: UserModels, env: Record<string, string | undefined>): ModelCatalog {
	const discovery = discoveryOptions(env.RUDDER_DISCOVERY_PORTS);
	return {
		getAll: () => registry.getAll(),
		getAvailable: () => registry.getAvailable(),
		find: (spec) => registry.find(spec),
		problemFor: (provider) => {
			const problem = registry.problemFor(provider);
			return problem && formatConfigProblem(problem);
		},
		discoverLocal: async () => (discovery ? registry.discoverLocal(discovery) : []),
	};
}

/** `--mode` wins, then `-p`; piped stdin without either means print, as `echo hi | rudder` suggests. */
export function chooseMode(args: CliArgs, stdinIsTty: boolean): CliMode {
	if (args.mode) return args.mode;
	if (args.print || !stdinIsTty) return "print";
	return "interactive";
}

/** The message first (the instruction), then what was piped in (the material). */
export function joinPrompt(message: string, piped: string): string {
	const material = piped.replace(/\s+$/, "");
	if (!material) return message;
	return message ? `${message}\n\n${material}` : material;
}

async function listModels(registry: UserModels, search: string): Promise<number> {
	const needle = search.toLowerCase();
	const seen = new Set<string>();
	const rows: string[][] = [];
	const { createDemoModel } = await import("../ai/providers/demo.js");
	const discovered = await catalogOf(registry, process.env).discoverLocal();
	for (const model of [...registry.getAll(), ...discovered, createDemoModel()]) {
		const spec = `${model.provider}/${model.id}`;
		if (seen.has(spec)) continue;
		seen.add(spec);
		if (needle && !`${spec} ${model.name}`.toLowerCase().includes(needle)) continue;
		rows.push([spec, model.name, formatTokens(model.contextWindow), usable(registry, model)]);
	}
	if (rows.length === 0) {
		stderr.write(errorLine(search ? `no model matches "${search}"` : "no models known"));
		return 1;
	}
	// Names come from local servers and models.json: outside text.
	stdout.write(forOutput(stdout, formatTable([["model", "name", "context", "usable"], ...rows])));
	return 0;
}

/** "yes" when the model can be used now (a key, or a server or demo that needs none); else what is missing. */
function usable(registry: ModelRegistry, model: Model): string {
	if (isDemoModel(model) || registry.isAvailable(model)) return "yes";
	const env = PROVIDER_KEY_ENV[model.provider]?.[0];
	return env ? `no (set ${env})` : "no (no key)";
}

function formatTable(rows: string[][]): string {
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
	return `${rows
		.map((row) =>
			row
				.map((cell, i) => cell.padEnd(widths[i]))
				.join("  ")
				.trimEnd(),
		)
		.join("\n")}\n`;
}

function formatTokens(count: number): string {
	if (count >= 1_000_000) return `${Math.round(count / 100_000) / 10}M`;
	if (count >= 1_000) return `${Math.round(count / 1_000)}k`;
	return String(count);
}

/**
 * Ctrl+C aborts the run; the mode then exits 130 with one line saying what was interrupted (read from
 * the run phase at that moment). A second Ctrl+C quits at once.
 */
async function withInterruptAbort(
	session: AgentSessionApi,
	body: (interrupted: () => Interruption | undefined) => Promise<number>,
): Promise<number> {
	let interruption: Interruption | undefined;
	const onInterrupt = () => {
		if (interruption) process.exit(INTERRUPTED_EXIT_CODE);
		interruption = interruptionOf(session.getState());
		session.abort();
	};
	setInterruptHandler(onInterrupt);
	try {
		return await body(() => interruption);
	} finally {
		setInterruptHandler(undefined);
	}
}

async function readAll(input: Readable): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of input) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
	return Buffer.concat(chunks).toString("utf8");
}

function fail(message: string, code: number): number {
	stderr.write(errorLine(message));
	return code;
}

/** The package version, read from the nearest package.json above this file (src or dist). */
function readVersion(): string {
	let dir = dirname(fileURLToPath(import.meta.url));
	for (let i = 0; i < 5; i++) {
		try {
			const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
			if (pkg.name === "rudder" && pkg.version) return pkg.version;
		} catch {
			// not here; look one folder up
		}
		dir = dirname(dir);
	}
	return "0.0.0";
}
